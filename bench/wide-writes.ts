// What a write wider than one transaction costs (docs/design.md, Decisions): a draft & publish article in
// L locales (draft and published version each, no fallback), a non-localized PUT through one
// locale, and DELETE locale=*; against a PUT of a localized field of the same document, in the
// same run. Prints DynamoDB calls, WCU and RCU of each request, from the request log.
// Run: npx tsx bench/wide-writes.ts [L ...] (default 25 50 100); starts its own DynamoDB Local.
import { parseConfig } from '../lib/config.js'
import { startDynamoLocal } from '../lib/local/dynamodb-local.js'
import { createServerApp } from '../lib/server-app.js'
import { createServices } from '../lib/services.js'
import { createDocumentClient } from '../lib/storage/client.js'
import { ensureTable } from '../lib/storage/schema.js'
import { loadContentTypes } from '../lib/schema/load.js'

const sizes = process.argv.slice(2).map(Number).filter((n) => n > 0)
const local = await startDynamoLocal()
try {
  const db = createDocumentClient({ region: 'us-east-1', endpoint: local.endpoint })
  const types = loadContentTypes(new URL('../functions/content-types', import.meta.url).pathname)
  const secrets = { adminToken: 'bench-admin-token-0123456789', tokenHashSecret: 'bench-hash-key-0123456789abcdefghijklmn' }
  const rows: string[] = ['| locales | request | calls | WCU | RCU | ms |', '|--:|---|--:|--:|--:|--:|']
  for (const locales of sizes.length > 0 ? sizes : [25, 50, 100]) {
    const config = parseConfig({ tableName: `wide-${locales}`, cacheTtlMs: 0, rest: {} })
    await ensureTable(db, config.tableName)
    const services = createServices(db, config, secrets, types)
    await services.access.ensurePublicRole()
    let last: Record<string, any> = {}
    const app = createServerApp(services, (line: string) => void (last = JSON.parse(line)))
    const call = async (method: string, path: string, body?: unknown, token = secrets.adminToken) => {
      const response = await app.request(path, { method, headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) })
      if (response.status >= 300) throw new Error(`${method} ${path}: ${response.status} ${await response.text()}`)
      return response.status === 204 ? undefined : response.json() as Promise<any>
    }
    const codes = Array.from({ length: locales - 1 }, (_, i) => `x${String.fromCharCode(97 + Math.floor(i / 26))}${String.fromCharCode(97 + (i % 26))}`)
    for (const code of codes) await call('POST', '/admin/i18n/locales', { code })
    const key = (await call('POST', '/admin/api-tokens', { name: 'bench', type: 'full-access' })).data.accessKey
    const { documentId } = (await call('POST', '/api/articles?locale=en', { data: { title: 'en', views: 0, category: 'c' } }, key)).data
    for (const code of codes) await call('PUT', `/api/articles/${documentId}?locale=${code}`, { data: { title: code } }, key)
    const measure = async (label: string, method: string, path: string, body?: unknown) => {
      await call(method, path, body, key)
      rows.push(`| ${locales} | ${label} | ${last.dynamodb?.calls ?? 0} | ${last.dynamodb?.wcu ?? 0} | ${last.dynamodb?.rcu ?? 0} | ${last.durationMs} |`)
    }
    await measure('PUT a localized field', 'PUT', `/api/articles/${documentId}?locale=en`, { data: { title: 'en 2' } })
    await measure('PUT a non-localized field', 'PUT', `/api/articles/${documentId}?locale=en`, { data: { views: 1 } })
    await measure('GET one version', 'GET', `/api/articles/${documentId}?locale=${codes.at(-1)}`)
    await measure('DELETE locale=*', 'DELETE', `/api/articles/${documentId}?locale=*`)
  }
  process.stdout.write(`${rows.join('\n')}\n`)
} finally {
  await local.stop()
}
