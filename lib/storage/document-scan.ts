// Every document of the table, page by page (what `npm run export` reads, integration.md §21): a
// Scan of the heads only (one item per document, projected to its key and type), so that a table
// of any size is walked with one page held at once. Like reindex, this is a whole-table pass, not a
// request's read: no request path calls it.
import { ScanCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb'
import { ATTR, HEAD } from '../table.js'
import { guarded } from './client.js'

/** The documents of one page of the table: their ids and type uids (heads only: versions and counters are left out). */
export async function* scanDocuments(db: DynamoDBDocumentClient, tableName: string, pageItems = 500): AsyncGenerator<{ documentId: string; uid: string }[]> {
  let start: Record<string, unknown> | undefined
  do {
    const page = await guarded(() => db.send(new ScanCommand({
      TableName: tableName,
      Limit: pageItems,
      ExclusiveStartKey: start,
      FilterExpression: '#locale = :head',
      ProjectionExpression: 'documentId, #type',
      ExpressionAttributeNames: { '#locale': 'locale', '#type': ATTR.contentType },
      ExpressionAttributeValues: { ':head': HEAD },
    })))
    const heads = (page.Items ?? []).filter((item) => typeof item[ATTR.contentType] === 'string')
    if (heads.length > 0) yield heads.map((item) => ({ documentId: String(item.documentId), uid: String(item[ATTR.contentType]) }))
    start = page.LastEvaluatedKey
  } while (start !== undefined)
}
