// `npm start`: every route on http://127.0.0.1:${PORT:-1337}, on DynamoDB Local started here (or
// the one DYNAMODB_ENDPOINT names), with the table created if missing. Start-up problems the user
// can fix (port in use, no Java, a short ADMIN_TOKEN) end with one sentence and exit code 1.
import { randomBytes } from 'node:crypto'
import { deriveTokenHashSecret } from '../lib/access.js'
import { configFromEnv } from '../lib/config.js'
import { routeName } from '../lib/content-types.js'
import { startDynamoLocal, type LocalDynamo } from '../lib/local/dynamodb-local.js'
import { checkPortFree, portOf, serveOnLoopback } from '../lib/local/serve.js'
import { loadContentTypes } from '../lib/schema/load.js'
import { createServerApp } from '../lib/server-app.js'
import { createServices } from '../lib/services.js'
import { createDocumentClient } from '../lib/storage/client.js'
import { ensureTable } from '../lib/storage/schema.js'

/** Shortest ADMIN_TOKEN accepted: it guards every admin route. */
const MIN_ADMIN_TOKEN_LENGTH = 20

/** An environment variable, undefined when unset or empty. */
const env = (name: string): string | undefined => (process.env[name] === '' ? undefined : process.env[name])

let local: LocalDynamo | undefined
try {
  const config = configFromEnv(process.env)
  // Before anything starts: a bad schema file stops here with one line naming the file and key.
  const types = loadContentTypes(env('CONTENT_TYPES_DIR'))
  const portText = env('PORT') ?? '1337'
  if (!/^\d{1,5}$/.test(portText) || Number(portText) > 65535) throw new Error(`Invalid configuration: PORT must be a port number, got '${portText}'`)
  const port = Number(portText)
  const region = env('AWS_REGION') ?? 'us-east-1'
  const givenToken = env('ADMIN_TOKEN')
  if (givenToken !== undefined && givenToken.length < MIN_ADMIN_TOKEN_LENGTH) {
    throw new Error(`Invalid configuration: ADMIN_TOKEN must be at least ${MIN_ADMIN_TOKEN_LENGTH} characters long (it is ${givenToken.length}); leave it unset to get a random one`)
  }
  const adminToken = givenToken ?? randomBytes(24).toString('base64url')
  // Before Java starts: a busy port is named now, not after a JVM start and a stack trace.
  await checkPortFree(port)

  const endpoint = env('DYNAMODB_ENDPOINT') ?? (local = await startDynamoLocal()).endpoint
  const db = createDocumentClient({ region, endpoint })
  await ensureTable(db, config.tableName)

  const services = createServices(db, config, {
    adminToken,
    tokenHashSecret: env('TOKEN_HASH_SECRET') ?? deriveTokenHashSecret(adminToken),
  }, types)
  await services.access.ensurePublicRole()
  const app = createServerApp(services)
  const server = await serveOnLoopback(app, port)
  console.log(`Content API on http://127.0.0.1:${portOf(server)} (DynamoDB ${local === undefined ? 'at' : 'Local at'} ${endpoint}, table ${config.tableName})`)
  console.log(`Content types: ${types.map((type) => `${type.singularName} (/api/${routeName(type)})`).join(', ')}`)
  console.log(`Admin token: ${givenToken === undefined ? adminToken : '(from ADMIN_TOKEN)'}`)

  const shutdown = () => {
    server.close()
    void (local?.stop() ?? Promise.resolve()).finally(() => process.exit(0))
  }
  process.once('SIGINT', shutdown)
  process.once('SIGTERM', shutdown)
} catch (error) {
  // Every start-up failure is something to fix in the environment: say what, without a trace.
  console.error(`Cannot start: ${error instanceof Error ? error.message : String(error)}`)
  await local?.stop()
  process.exit(1)
}
