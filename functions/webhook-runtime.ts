// Start-up of the two webhook functions: configuration, content types, the webhook service on the
// table (no secret: webhook secrets live in the table), and the SQS client of the delivery queue.
import { SQSClient } from '@aws-sdk/client-sqs'
import { configFromEnv } from '../lib/config.js'
import { createDocumentClient } from '../lib/storage/client.js'
import { WebhookStore } from '../lib/storage/webhooks.js'
import { WebhookService } from '../lib/webhooks/service.js'
import { optional, registryTypes, required } from './runtime.js'

const region = required('AWS_REGION')
const queueUrl = required('WEBHOOK_QUEUE_URL')

export const config = configFromEnv(process.env)
export const types = registryTypes()
// DYNAMODB_ENDPOINT as for the API's functions (tests point it at DynamoDB Local).
export const db = createDocumentClient({ region, endpoint: optional('DYNAMODB_ENDPOINT') })
export const webhooks = new WebhookService(new WebhookStore(db, config.tableName), config.webhooks)
export const sqs = new SQSClient({ region })
export const WEBHOOK_QUEUE_URL = queueUrl
