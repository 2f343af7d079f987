// `npm start`: every route on http://127.0.0.1:${PORT:-1337}, on DynamoDB Local started here (its
// data and the secrets kept in DATA_DIR, default .tmp/, unless --in-memory) or the one
// DYNAMODB_ENDPOINT names, with the table created if missing. Every problem the user can fix ends
// with one line saying what and how, and exit code 1 (2 for a wrong argument).
import { mkdtemp } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { configFromEnv } from '../lib/config.js'
import { routeName } from '../lib/content-types.js'
import { dynamoEndpointProblem, startDynamoLocal, type LocalDynamo } from '../lib/local/dynamodb-local.js'
import { resolveLocalSecrets } from '../lib/local/secrets.js'
import { startWebhookStream } from '../lib/local/webhook-stream.js'
import { LocalBlobs, localUploadsApp } from '../lib/local/uploads.js'
import { checkPortFree, portOf, serveOnLoopback } from '../lib/local/serve.js'
import { LOCAL_USAGE, LocalUsageError, readLocalSettings } from '../lib/local/settings.js'
import { loadContentTypes } from '../lib/schema/load.js'
import { createServerApp } from '../lib/server-app.js'
import { createServices } from '../lib/services.js'
import { createDocumentClient } from '../lib/storage/client.js'
import { ensureTable } from '../lib/storage/schema.js'

let local: LocalDynamo | undefined
try {
  const settings = readLocalSettings(process.argv.slice(2), process.env, process.cwd())
  if (settings.help) {
    console.log(LOCAL_USAGE)
    process.exit(0)
  }
  // Receivers on the developer's own machine work out of the box (integration.md §20); the
  // variables still turn either rule back on.
  const config = configFromEnv({ WEBHOOKS_ALLOW_INSECURE: 'true', WEBHOOKS_ALLOW_PRIVATE: 'true', ...process.env })
  // Before anything starts: a bad schema file stops here with one line naming the file and key.
  const types = loadContentTypes(process.env.CONTENT_TYPES_DIR === '' ? undefined : process.env.CONTENT_TYPES_DIR)
  // Before Java starts: a busy port is named now, not after a JVM start and a stack trace.
  await checkPortFree(settings.port, settings.host)
  const { secrets, adminTokenSource, file } = await resolveLocalSecrets(settings.dataDir, { adminToken: settings.adminToken, tokenHashSecret: settings.tokenHashSecret }, { existingTable: settings.endpoint !== undefined })

  const endpoint = settings.endpoint ?? (local = await startDynamoLocal({ dbPath: settings.dataDir === undefined ? undefined : `${settings.dataDir}/dynamodb` })).endpoint
  const problem = await dynamoEndpointProblem(endpoint)
  if (problem !== undefined) throw new Error(problem)
  const db = createDocumentClient({ region: settings.region, endpoint })
  await ensureTable(db, config.tableName)

  // Uploaded files under DATA_DIR/uploads (kept across restarts), or a folder of this run's with --in-memory.
  const blobs = new LocalBlobs(settings.dataDir ?? (await mkdtemp(join(tmpdir(), 'content-api-uploads-'))))
  const services = createServices(db, config, secrets, types, blobs)
  await services.access.ensurePublicRole()
  const app = createServerApp(services, undefined, [localUploadsApp(blobs)])
  // Webhooks: the table's stream, read and delivered in this process as the AWS consumer does.
  const webhooks = await startWebhookStream({ db, tableName: config.tableName, types, service: services.webhooks, onError: (error) => console.error(`Webhooks: ${error instanceof Error ? error.message : String(error)}`) })
  const server = await serveOnLoopback(app, settings.port, settings.host)
  const where = local === undefined ? `DynamoDB at ${endpoint}` : `DynamoDB Local at ${endpoint}, ${settings.dataDir === undefined ? 'in memory' : `data in ${settings.dataDir}`}`
  console.log(`Content API on http://${settings.host}:${portOf(server)} (${where}, table ${config.tableName})`)
  console.log(`Content types: ${types.map((type) => `${type.singularName} (/api/${routeName(type)})`).join(', ')}`)
  const kept = file === undefined ? 'this run only (--in-memory)' : `kept in ${file}`
  console.log(`Admin token: ${adminTokenSource === 'environment' ? '(from ADMIN_TOKEN)' : secrets.adminToken} (${kept})`)

  const shutdown = () => {
    server.close()
    void webhooks.stop().then(() => local?.stop()).finally(() => process.exit(0))
  }
  process.once('SIGINT', shutdown)
  process.once('SIGTERM', shutdown)
} catch (error) {
  // Every start-up failure is something to fix in the environment or the command: say what, without a trace.
  const message = error instanceof Error ? error.message : String(error)
  await local?.stop()
  if (error instanceof LocalUsageError) {
    console.error(`Cannot start: ${message}\n\n${LOCAL_USAGE}`)
    process.exit(2)
  }
  console.error(`Cannot start: ${message}`)
  process.exit(1)
}
