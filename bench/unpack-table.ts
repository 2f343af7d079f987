// The storage layout before lib/storage/packed-json.ts, for side-by-side runs: every compressed
// value of a table rewritten as the JSON text it holds (which readers still accept). Used by
// bench/zone-profile.ts, and on its own on a table a server serves (its DynamoDB endpoint):
//   node --import tsx bench/unpack-table.ts <endpoint> <table>
import { ScanCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb'
import { fileURLToPath } from 'node:url'
import { inflateRawSync } from 'node:zlib'
import { createDocumentClient } from '../lib/storage/client.js'
import { writeAll } from './seed.js'

/** Rewrites every binary value of `tableName` as the text it compresses; returns the items rewritten. */
export async function unpackAll(db: DynamoDBDocumentClient, tableName: string): Promise<number> {
  let rewritten = 0
  let start: Record<string, unknown> | undefined
  do {
    const page = await db.send(new ScanCommand({ TableName: tableName, ExclusiveStartKey: start }))
    const packed = (page.Items ?? []).filter((item) => Object.values(item).some((value) => value instanceof Uint8Array))
    for (const item of packed) {
      for (const [name, value] of Object.entries(item)) if (value instanceof Uint8Array) item[name] = inflateRawSync(value).toString('utf8')
    }
    await writeAll(db, tableName, packed)
    rewritten += packed.length
    start = page.LastEvaluatedKey
  } while (start !== undefined)
  return rewritten
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const [endpoint, tableName] = process.argv.slice(2)
  if (endpoint === undefined || tableName === undefined) throw new Error('usage: bench/unpack-table.ts <endpoint> <table>')
  console.log(`rewrote ${await unpackAll(createDocumentClient({ region: 'us-east-1', endpoint }), tableName)} items of ${tableName} as JSON text`)
}
