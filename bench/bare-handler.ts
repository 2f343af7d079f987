// The baseline of the cold-start comparison: a bare Hono app on Lambda with a DynamoDB document
// client, answering the default first page of articles with the two calls the floor makes. It
// reads its environment directly and skips every layer of the API, on purpose.
import { DynamoDBClient } from '@aws-sdk/client-dynamodb'
import { DynamoDBDocumentClient, GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb'
import { Hono } from 'hono'
import { handle } from 'hono/aws-lambda'

const tableName = process.env.TABLE_NAME
const endpoint = process.env.DYNAMODB_ENDPOINT || undefined
const client = new DynamoDBClient({
  region: process.env.AWS_REGION,
  endpoint,
  ...(endpoint === undefined ? {} : { credentials: { accessKeyId: 'local', secretAccessKey: 'local' } }),
})
const db = DynamoDBDocumentClient.from(client)
const listKey = 'api::article.article#en'

const app = new Hono()
app.get('/api/articles', async (c) => {
  const [page, count] = await Promise.all([
    db.send(new QueryCommand({ TableName: tableName, IndexName: 'byId', KeyConditionExpression: 'listKey = :k', ExpressionAttributeValues: { ':k': listKey }, Limit: 25 })),
    db.send(new GetCommand({ TableName: tableName, Key: { documentId: '#count', locale: listKey } })),
  ])
  return c.json({ data: page.Items ?? [], meta: { pagination: { total: Number(count.Item?.n ?? 0) } } })
})

export const handler = handle(app)
