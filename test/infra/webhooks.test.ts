// Webhook delivery's AWS resources (integration.md §20): the table's stream with old and new images
// into the stream function (bisection, partial batch responses, retries, an on-failure queue), a
// FIFO delivery queue (per-document order, deduplication by webhook-id) with a dead-letter queue,
// and the delivery function on it. Permissions are test/infra/permissions.test.ts's.
import { describe, expect, it } from 'vitest'
import { synth } from './synth.js'

const synthed = synth('dev')
const ofType = (type: string) => Object.entries(synthed.resources).filter(([, resource]) => resource.Type === type)
const queue = (id: string) => synthed.resources[synthed.childId(id)]!.Properties
const mappingOf = (entry: string) => ofType('AWS::Lambda::EventSourceMapping').map(([, mapping]) => mapping.Properties)
  .find((mapping) => mapping.FunctionName.Ref === synthed.logicalId(entry))

describe('webhook delivery on AWS', () => {
  it('gives the table a stream of new and old images', () => {
    expect(ofType('AWS::DynamoDB::Table')[0]![1].Properties.StreamSpecification).toEqual({ StreamViewType: 'NEW_AND_OLD_IMAGES' })
  })

  it('reads the stream into the stream function with bisection, partial batch responses, bounded retries and an on-failure queue', () => {
    const mapping = mappingOf('functions/webhook-stream.ts')
    expect(mapping).toMatchObject({
      StartingPosition: 'TRIM_HORIZON',
      BisectBatchOnFunctionError: true,
      FunctionResponseTypes: ['ReportBatchItemFailures'],
      MaximumRetryAttempts: 20,
      DestinationConfig: { OnFailure: { Destination: { 'Fn::GetAtt': [synthed.childId('WebhookStreamFailures'), 'Arn'] } } },
    })
    expect(mapping.EventSourceArn).toEqual({ 'Fn::GetAtt': [ofType('AWS::DynamoDB::Table')[0]![0], 'StreamArn'] })
    expect(queue('WebhookStreamFailures')).toMatchObject({ MessageRetentionPeriod: 14 * 24 * 3600, SqsManagedSseEnabled: true })
  })

  it('queues deliveries in an encrypted FIFO queue kept past the 24 h of retries, with a dead-letter queue for poison messages', () => {
    const deliveries = queue('WebhookDeliveries')
    expect(deliveries).toMatchObject({ FifoQueue: true, SqsManagedSseEnabled: true })
    expect(deliveries.MessageRetentionPeriod).toBeGreaterThan(24 * 3600)
    expect(deliveries.RedrivePolicy).toEqual({ deadLetterTargetArn: { 'Fn::GetAtt': [synthed.childId('WebhookDeliveriesDead'), 'Arn'] }, maxReceiveCount: 1000 })
    expect(queue('WebhookDeliveriesDead')).toMatchObject({ FifoQueue: true })
    // The stream function sends to the queue it names.
    const stream = synthed.resources[synthed.logicalId('functions/webhook-stream.ts')]!.Properties
    expect(stream.Environment.Variables.WEBHOOK_QUEUE_URL).toEqual({ Ref: synthed.childId('WebhookDeliveries') })
  })

  it('delivers from the queue with partial batch responses, within the queue\'s visibility timeout', () => {
    const mapping = mappingOf('functions/webhook-delivery.ts')
    expect(mapping).toMatchObject({ FunctionResponseTypes: ['ReportBatchItemFailures'], EventSourceArn: { 'Fn::GetAtt': [synthed.childId('WebhookDeliveries'), 'Arn'] } })
    const fn = synthed.resources[synthed.logicalId('functions/webhook-delivery.ts')]!.Properties
    // Each attempt may take 10 s: a batch fits in the function's timeout, which fits in the visibility timeout.
    expect(fn.Timeout).toBeGreaterThanOrEqual(mapping.BatchSize * 10)
    expect(queue('WebhookDeliveries').VisibilityTimeout).toBeGreaterThanOrEqual(fn.Timeout)
    expect(fn).toMatchObject({ Runtime: 'nodejs22.x', Architectures: ['arm64'] })
  })
})
