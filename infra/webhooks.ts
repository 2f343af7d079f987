// Webhook delivery on AWS (integration.md §20): the table's stream into a function (event source
// mapping with bisection, partial batch responses and an on-failure queue) that queues one message
// per event and webhook in a FIFO queue (group: webhook and document, so one document's events
// arrive in commit order), and a delivery function on that queue whose failures wait out the retry
// schedule as the message's visibility timeout (a FIFO group waits behind its first message;
// per-message delays, capped at 15 minutes, are not available on FIFO queues and would let later
// events overtake). After 24 h a message is kept as failed in the delivery log.
import { Duration, type RemovalPolicy } from 'aws-cdk-lib'
import type { Table } from 'aws-cdk-lib/aws-dynamodb'
import { StartingPosition } from 'aws-cdk-lib/aws-lambda'
import { DynamoEventSource, SqsDlq, SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources'
import type { NodejsFunction, NodejsFunctionProps } from 'aws-cdk-lib/aws-lambda-nodejs'
import { Queue, QueueEncryption } from 'aws-cdk-lib/aws-sqs'
import type { Construct } from 'constructs'

type CreateFunction = (id: string, entry: string, props: Partial<NodejsFunctionProps>) => NodejsFunction

/** Attempts in one delivery batch: each may take the full 10 s. */
const DELIVERY_BATCH = 5

export function createWebhookDelivery(scope: Construct, table: Table, removalPolicy: RemovalPolicy, createFunction: CreateFunction): void {
  const queueDefaults = { enforceSSL: true, encryption: QueueEncryption.SQS_MANAGED, removalPolicy }
  // Stream batches that failed every retry: kept 14 days for an operator (their records name the shard and sequence numbers).
  const streamFailures = new Queue(scope, 'WebhookStreamFailures', { ...queueDefaults, retentionPeriod: Duration.days(14) })
  // Messages received more often than any schedule of 24 h needs: a poison message, kept for inspection.
  const dead = new Queue(scope, 'WebhookDeliveriesDead', { ...queueDefaults, fifo: true, retentionPeriod: Duration.days(14) })
  const deliveries = new Queue(scope, 'WebhookDeliveries', {
    ...queueDefaults,
    fifo: true,
    // Kept past the 24 h of retries, with room for a delayed start.
    retentionPeriod: Duration.days(4),
    // At least the delivery function's timeout, as Lambda requires.
    visibilityTimeout: Duration.seconds(DELIVERY_BATCH * 10 + 30),
    deadLetterQueue: { queue: dead, maxReceiveCount: 1000 },
  })

  const stream = createFunction('WebhookStreamFunction', 'functions/webhook-stream.ts', { timeout: Duration.seconds(60) })
  stream.addEnvironment('WEBHOOK_QUEUE_URL', deliveries.queueUrl)
  deliveries.grantSendMessages(stream)
  stream.addEventSource(new DynamoEventSource(table, {
    startingPosition: StartingPosition.TRIM_HORIZON,
    batchSize: 100,
    // A failing batch is halved until the failing record is alone; the others go on.
    bisectBatchOnError: true,
    reportBatchItemFailures: true,
    retryAttempts: 20,
    onFailure: new SqsDlq(streamFailures),
  }))

  const delivery = createFunction('WebhookDeliveryFunction', 'functions/webhook-delivery.ts', { timeout: Duration.seconds(DELIVERY_BATCH * 10 + 20) })
  delivery.addEnvironment('WEBHOOK_QUEUE_URL', deliveries.queueUrl)
  // A failed attempt hides its message for the next delay of the schedule.
  deliveries.grant(delivery, 'sqs:ChangeMessageVisibility')
  delivery.addEventSource(new SqsEventSource(deliveries, { batchSize: DELIVERY_BATCH, reportBatchItemFailures: true }))
}
