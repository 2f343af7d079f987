// The throughput floor of one GET on this machine: an HTTP server that, for every request, makes
// exactly the DynamoDB calls the API made for that URL (recorded from the API's own app, in this
// process, once its caches are warm) and answers with the body the API sent, with nothing between.
// What it serves is what no handler on DynamoDB Local here could beat: its req/s against the API's
// (`npm start` on the same data) says how much is the API's own work, and against Strapi's, whether
// a target ratio is reachable at all on DynamoDB Local (docs/performance.md, "What the zone page
// costs, and its floor"; bench/compare-components.sh measures it beside the page cache off).
//
//   node --import tsx bench/replay-floor.ts <DynamoDB endpoint> <table> <path?query> [port]
//
// with CONTENT_TYPES_DIR and the API_* settings of the `npm start` it stands beside (for instance
// API_REST_PAGE_CACHE=0), and DATA_DIR holding that start's secrets. Prints the recorded calls, then
// serves on 127.0.0.1:<port> (default 4299) until stopped.
import { createServer } from 'node:http'
import { BatchGetCommand, GetCommand, QueryCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb'
import { configFromEnv } from '../lib/config.js'
import { resolveLocalSecrets } from '../lib/local/secrets.js'
import { loadContentTypes } from '../lib/schema/load.js'
import { createServerApp } from '../lib/server-app.js'
import { createServices } from '../lib/services.js'
import { createDocumentClient } from '../lib/storage/client.js'

// The document client's commands, by the name the low-level client gives them.
const COMMANDS = { GetItemCommand: GetCommand, QueryCommand, BatchGetItemCommand: BatchGetCommand } as const
type Recorded = { name: keyof typeof COMMANDS; input: unknown; wave: number }

const [endpoint, tableName, path, port = '4299'] = process.argv.slice(2)
if (endpoint === undefined || tableName === undefined || path === undefined) throw new Error('usage: replay-floor.ts <endpoint> <table> <path?query> [port]')

const db = createDocumentClient({ region: process.env.AWS_REGION ?? 'us-east-1', endpoint })
const config = configFromEnv({ ...process.env, TABLE_NAME: tableName })
const { secrets } = await resolveLocalSecrets(process.env.DATA_DIR, {}, { existingTable: true })
const services = createServices(db, config, secrets, loadContentTypes(process.env.CONTENT_TYPES_DIR))
const app = createServerApp(services)

// Calls sent while another is in flight belong to one wave (sent together); a call sent after every
// earlier one answered starts the next.
let recording: Recorded[] | undefined
let inFlight = 0
let wave = 0
;(db as unknown as { middlewareStack: DynamoDBDocumentClient['middlewareStack'] }).middlewareStack.add(
  (next, context) => async (args) => {
    if (recording !== undefined) {
      if (inFlight === 0) wave++
      const name = String(context.commandName) as keyof typeof COMMANDS
      if (!(name in COMMANDS)) throw new Error(`replay-floor: the request made a ${name}; only reads are replayed`)
      recording.push({ name, input: structuredClone(args.input), wave })
    }
    inFlight++
    try {
      return await next(args)
    } finally {
      inFlight--
    }
  },
  { step: 'initialize', name: 'replayFloorRecorder' },
)

const url = `http://localhost${path}`
for (let i = 0; i < 40; i++) await app.request(url)
recording = []
const answer = await app.request(url)
const calls = recording
recording = undefined
if (answer.status !== 200) throw new Error(`the API answered ${answer.status}`)
const body = Buffer.from(await answer.arrayBuffer())
const waves = [...new Set(calls.map((call) => call.wave))].map((w) => calls.filter((call) => call.wave === w))
console.log(`${path}: ${body.length} bytes; ${calls.length} calls in ${waves.length} waves: ${waves.map((w) => w.map((call) => call.name.replace(/(Item)?Command$/, '')).join(' + ')).join(', then ')}`)

createServer(async (_request, response) => {
  try {
    for (const w of waves) await Promise.all(w.map((call) => db.send(new COMMANDS[call.name](call.input as never) as never)))
    response.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': body.length })
    response.end(body)
  } catch (error) {
    response.writeHead(500).end(String(error))
  }
}).listen(Number(port), '127.0.0.1', () => console.log(`floor on http://127.0.0.1:${port}${path}`))
