// The DynamoDB table of the stack, built from the one declaration in lib/table.ts: no attribute or
// index name is typed here.
import { RemovalPolicy } from 'aws-cdk-lib'
import { AttributeType, BillingMode, ProjectionType, StreamViewType, Table, type Attribute } from 'aws-cdk-lib/aws-dynamodb'
import type { Construct } from 'constructs'
import { SLOT_COUNT, slotIndex, STREAM_VIEW_TYPE, TABLE, TTL_ATTRIBUTE, type IndexDeclaration, type KeyAttribute } from '../lib/table.js'

function attribute(key: KeyAttribute): Attribute {
  return { name: key.name, type: key.type === 'S' ? AttributeType.STRING : AttributeType.NUMBER }
}

function projection(index: IndexDeclaration) {
  return index.projection.type === 'ALL'
    ? { projectionType: ProjectionType.ALL }
    : { projectionType: ProjectionType.INCLUDE, nonKeyAttributes: [...index.projection.attributes] }
}

/** On-demand maximum throughput, in request units per second; 0 leaves that side unbounded. */
export interface MaxThroughput {
  readonly maxReadRequestUnits: number
  readonly maxWriteRequestUnits: number
  /** Slot indexes declared: the first `indexSlots` of lib/table.ts's (an upgrade adds them one deploy at a time). */
  readonly indexSlots: number
}

function maxThroughput(max: MaxThroughput) {
  return {
    maxReadRequestUnits: max.maxReadRequestUnits > 0 ? max.maxReadRequestUnits : undefined,
    maxWriteRequestUnits: max.maxWriteRequestUnits > 0 ? max.maxWriteRequestUnits : undefined,
  }
}

/**
 * The content table: on-demand with a cost ceiling (`max`, on the table and every index), point-in-time
 * recovery, and when `protect`ed kept on stack deletion.
 */
export function createContentTable(scope: Construct, protect: boolean, max: MaxThroughput): Table {
  const table = new Table(scope, 'ContentTable', {
    partitionKey: attribute(TABLE.partitionKey),
    sortKey: attribute(TABLE.sortKey),
    // Traffic is spiky and per content type; on-demand needs no capacity planning or autoscaling.
    billingMode: BillingMode.PAY_PER_REQUEST,
    // A runaway loop or a flood is throttled at this rate instead of billed without limit.
    ...maxThroughput(max),
    // Webhooks are derived from every item's images before and after each change (lib/webhooks/).
    stream: StreamViewType[STREAM_VIEW_TYPE],
    // Admin sessions and sign-in counters expire by themselves (lib/table.ts, TTL_ATTRIBUTE).
    timeToLiveAttribute: TTL_ATTRIBUTE,
    pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },
    // Protected stages (prod) survive `cdk destroy` and a mistaken stack replacement.
    deletionProtection: protect,
    removalPolicy: protect ? RemovalPolicy.RETAIN : RemovalPolicy.DESTROY,
  })
  const slots = new Set(Array.from({ length: SLOT_COUNT }, (_, slot) => slotIndex(slot)))
  const declared = TABLE.indexes.filter((index) => !slots.has(index.name) || Number(index.name.slice('slot'.length)) < max.indexSlots)
  for (const index of declared) {
    table.addGlobalSecondaryIndex({
      indexName: index.name,
      partitionKey: attribute(index.partitionKey),
      sortKey: attribute(index.sortKey),
      ...projection(index),
      ...maxThroughput(max),
    })
  }
  return table
}
