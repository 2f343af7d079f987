// A writer process for the crash test (test/integration/crash.soak.test.ts): the app on the test's
// table, PUTting a new non-localized `views` through one locale after another until it is killed.
// It prints `tx` just before each transaction is sent (`w` before every write call, with
// ANNOUNCE=writes), so the test can kill it mid-write.
// Run with tsx; reads DYNAMODB_ENDPOINT, TABLE_NAME, ADMIN_TOKEN, TOKEN_HASH_SECRET, API_KEY, DOCUMENT_ID, LOCALES, ANNOUNCE.
import { parseConfig } from '../../lib/config.js'
import { createServerApp } from '../../lib/server-app.js'
import { createServices } from '../../lib/services.js'
import { createDocumentClient } from '../../lib/storage/client.js'
import { assertLoopback } from './loopback.js'
import { shippedTypes } from './types.js'

const need = (name: string): string => {
  const value = process.env[name]
  if (value === undefined || value === '') throw new Error(`${name} is required`)
  return value
}
const endpoint = need('DYNAMODB_ENDPOINT')
assertLoopback(endpoint)
const db = createDocumentClient({ region: 'us-east-1', endpoint })
// With ANNOUNCE=writes, `w` before every write call (a wide write's marks, commit and parts too).
const WRITES = ['TransactWriteItemsCommand', 'PutItemCommand', 'UpdateItemCommand', 'DeleteItemCommand', 'BatchWriteItemCommand']
const announceWrites = process.env.ANNOUNCE === 'writes'
db.middlewareStack.add((next: any, context: any) => async (args: any) => {
  if (announceWrites ? WRITES.includes(context.commandName) : context.commandName === 'TransactWriteItemsCommand') process.stdout.write(announceWrites ? 'w\n' : 'tx\n')
  return next(args)
}, { step: 'initialize', name: 'announce' })
const adminToken = need('ADMIN_TOKEN')
const services = createServices(db, parseConfig({ tableName: need('TABLE_NAME'), cacheTtlMs: 0, rest: {} }), { adminToken, tokenHashSecret: need('TOKEN_HASH_SECRET') }, shippedTypes)
const app = createServerApp(services, () => undefined)
const locales = need('LOCALES').split(',')
for (let i = 1; ; i++) {
  const response = await app.request(`/api/articles/${need('DOCUMENT_ID')}?locale=${locales[i % locales.length]}`, {
    method: 'PUT',
    headers: { Authorization: `Bearer ${need('API_KEY')}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ data: { views: Number(process.env.START ?? 0) + i } }),
  })
  process.stdout.write(`${response.status}\n`)
}
