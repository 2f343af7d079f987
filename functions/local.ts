// `npm start`: every route on http://127.0.0.1:${PORT:-1337}, on DynamoDB Local started here (or
// the one DYNAMODB_ENDPOINT names), with the table created if missing.
import { randomBytes } from 'node:crypto'
import { serve } from '@hono/node-server'
import { deriveTokenHashSecret } from '../lib/access.js'
import { configFromEnv } from '../lib/config.js'
import { startDynamoLocal, type LocalDynamo } from '../lib/local/dynamodb-local.js'
import { createServerApp } from '../lib/server-app.js'
import { createServices } from '../lib/services.js'
import { createDocumentClient } from '../lib/storage/client.js'
import { ensureTable } from '../lib/storage/schema.js'

/** An environment variable, undefined when unset or empty. */
const env = (name: string): string | undefined => (process.env[name] === '' ? undefined : process.env[name])

const config = configFromEnv(process.env)
const portText = env('PORT') ?? '1337'
if (!/^\d{1,5}$/.test(portText) || Number(portText) > 65535) throw new Error(`Invalid configuration: PORT must be a port number, got '${portText}'`)
const port = Number(portText)
const region = env('AWS_REGION') ?? 'us-east-1'
const adminToken = env('ADMIN_TOKEN') ?? randomBytes(24).toString('base64url')

let local: LocalDynamo | undefined
const endpoint = env('DYNAMODB_ENDPOINT') ?? (local = await startDynamoLocal()).endpoint
const db = createDocumentClient({ region, endpoint })
await ensureTable(db, config.tableName)

const app = createServerApp(createServices(db, config, {
  adminToken,
  tokenHashSecret: env('TOKEN_HASH_SECRET') ?? deriveTokenHashSecret(adminToken),
}))
const server = serve({ fetch: app.fetch, hostname: '127.0.0.1', port }, (info) => {
  console.log(`Content API on http://127.0.0.1:${info.port} (DynamoDB ${local === undefined ? 'at' : 'Local at'} ${endpoint}, table ${config.tableName})`)
  console.log(`Admin token: ${env('ADMIN_TOKEN') === undefined ? adminToken : '(from ADMIN_TOKEN)'}`)
})

const shutdown = () => {
  server.close()
  void (local?.stop() ?? Promise.resolve()).finally(() => process.exit(0))
}
process.once('SIGINT', shutdown)
process.once('SIGTERM', shutdown)
