// Each function's role, statement by statement: exactly the DynamoDB actions its code path sends
// (derived from lib/storage), on the table and the indexes of lib/table.ts, kept off the partitions
// it must not write (`dynamodb:LeadingKeys`), plus its own secrets and log group.
import { readdirSync, readFileSync } from 'node:fs'
import { beforeAll, describe, expect, it } from 'vitest'
import { shippedTypes } from '../support/types.js'
import { TABLE } from '../../lib/table.js'
import { actionsOf, indexArn, ofType, statementsOf, synth, tableArn, tableId } from './synth.js'

// The SDK commands each function's code path sends (transactions need the action of each item they hold).
const CONTENT_ACTIONS = ['dynamodb:BatchGetItem', 'dynamodb:BatchWriteItem', 'dynamodb:ConditionCheckItem', 'dynamodb:DeleteItem', 'dynamodb:GetItem', 'dynamodb:PutItem', 'dynamodb:Query', 'dynamodb:UpdateItem']
const ADMIN_ACTIONS = ['dynamodb:BatchGetItem', 'dynamodb:BatchWriteItem', 'dynamodb:ConditionCheckItem', 'dynamodb:DeleteItem', 'dynamodb:GetItem', 'dynamodb:PutItem', 'dynamodb:Query', 'dynamodb:Scan', 'dynamodb:UpdateItem']
const LOCALES_ACTIONS = ['dynamodb:BatchGetItem', 'dynamodb:GetItem']
/** What the webhook stream's event source mapping needs to read the table's stream (the stream function's role only). */
const STREAM_ACTIONS = ['dynamodb:DescribeStream', 'dynamodb:GetRecords', 'dynamodb:GetShardIterator', 'dynamodb:ListStreams']
const isStreamRead = (statement: any) => actionsOf(statement).every((action) => STREAM_ACTIONS.includes(action))
const WRITES = ['dynamodb:BatchWriteItem', 'dynamodb:DeleteItem', 'dynamodb:PutItem', 'dynamodb:UpdateItem']

const CONTENT_ENTRIES = shippedTypes.map((type) => `functions/content.ts#${type.singularName}`)
/** The admin function, and the admin media function serving the pages that upload. */
const ADMIN_ENTRIES = ['functions/admin.ts', 'functions/admin-media.ts']
const ALL_ENTRIES = [...CONTENT_ENTRIES, 'functions/locales.ts', ...ADMIN_ENTRIES]
/** Every API function identifies or creates API tokens; only the admin functions check the admin token; the webhook functions need neither. */
const SECRETS_OF = (entry: string) => (ADMIN_ENTRIES.includes(entry) ? ['AdminTokenSecret', 'TokenHashKeySecret'] : entry.startsWith('functions/webhook-') ? [] : ['TokenHashKeySecret'])

describe('function permissions', () => {
  let synthed: ReturnType<typeof synth>
  beforeAll(() => {
    synthed = synth('dev')
  })
  const tableStatementsOf = (entry: string) => statementsOf(synthed.resources, synthed.logicalId(entry))
    .filter((s) => JSON.stringify(s.Resource) === JSON.stringify(tableArn(synthed.resources)))
  const allowOn = (entry: string) => tableStatementsOf(entry).filter((s) => s.Effect === 'Allow')
  const denyOn = (entry: string) => tableStatementsOf(entry).filter((s) => s.Effect === 'Deny')
  const indexStatementsOf = (entry: string) => statementsOf(synthed.resources, synthed.logicalId(entry)).filter((s) => JSON.stringify(s.Resource).includes('/index/'))

  it.each([
    ...CONTENT_ENTRIES.map((entry) => [entry, CONTENT_ACTIONS] as const),
    ['functions/locales.ts', LOCALES_ACTIONS] as const,
    ...ADMIN_ENTRIES.map((entry) => [entry, ADMIN_ACTIONS] as const),
  ])('%s is allowed exactly the table actions it uses, in one statement', (entry, actions) => {
    expect(allowOn(entry)).toHaveLength(1)
    expect(actionsOf(allowOn(entry)[0])).toEqual(actions)
  })

  it.each(CONTENT_ENTRIES)('%s may never write #token, #config, #locale, #session or #sign-in items', (entry) => {
    expect(allowOn(entry)[0].Condition).toBeUndefined()
    expect(denyOn(entry)).toHaveLength(1)
    expect(actionsOf(denyOn(entry)[0])).toEqual(WRITES)
    expect(denyOn(entry)).toEqual([{
      Effect: 'Deny',
      Action: expect.any(Array),
      Resource: tableArn(synthed.resources),
      Condition: { 'ForAnyValue:StringLike': { 'dynamodb:LeadingKeys': ['#token*', '#config*', '#locale*', '#session*', '#sign-in*'] } },
    }])
  })

  it('lets the locales function read the #config and #token partitions only', () => {
    expect(allowOn('functions/locales.ts')[0].Condition).toEqual({ 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': ['#config', '#token'] } })
    expect(denyOn('functions/locales.ts')).toEqual([])
  })

  it('lets the admin function manage every partition (settings, tokens, and documents for reindex and rebuild)', () => {
    expect(allowOn('functions/admin.ts')[0].Condition).toBeUndefined()
    expect(denyOn('functions/admin.ts')).toEqual([])
  })

  it.each([...CONTENT_ENTRIES, 'functions/admin.ts'])('%s may Query every index of lib/table.ts, and nothing else on them', (entry) => {
    const onIndexes = indexStatementsOf(entry)
    expect(onIndexes).toHaveLength(1)
    expect(onIndexes[0].Effect).toBe('Allow')
    expect(actionsOf(onIndexes[0])).toEqual(['dynamodb:Query'])
    expect(onIndexes[0].Resource).toEqual(TABLE.indexes.map((index) => indexArn(synthed.resources, index.name)))
  })

  it('keeps the locales function off the indexes', () => {
    expect(indexStatementsOf('functions/locales.ts')).toEqual([])
  })

  it.each(ALL_ENTRIES)('%s may read exactly the secrets it needs, with GetSecretValue alone', (entry) => {
    const statements = statementsOf(synthed.resources, synthed.logicalId(entry))
    const onSecrets = statements.filter((s) => JSON.stringify(s).includes('secretsmanager'))
    expect(onSecrets.every((s) => s.Effect === 'Allow' && s.Action === 'secretsmanager:GetSecretValue')).toBe(true)
    expect(onSecrets.map((s) => s.Resource)).toEqual(expect.arrayContaining(SECRETS_OF(entry).map((id) => ({ Ref: synthed.secretId(id) }))))
    expect(onSecrets).toHaveLength(SECRETS_OF(entry).length)
  })

  it('names the admin secret in no resource but the admin functions and their role policies', () => {
    const adminSecret = JSON.stringify({ Ref: synthed.secretId('AdminTokenSecret') })
    const allowed = ADMIN_ENTRIES.flatMap((entry) => {
      const admin = synthed.logicalId(entry)
      const adminRole = synthed.resources[admin]!.Properties.Role['Fn::GetAtt'][0]
      const adminPolicies = ofType(synthed.resources, 'AWS::IAM::Policy')
        .filter(([, policy]) => JSON.stringify(policy.Properties.Roles) === JSON.stringify([{ Ref: adminRole }]))
        .map(([id]) => id)
      expect(adminPolicies).toHaveLength(1)
      return [admin, ...adminPolicies]
    })
    const referencing = Object.entries(synthed.resources).filter(([, resource]) => JSON.stringify(resource).includes(adminSecret)).map(([id]) => id)
    expect(referencing.sort()).toEqual(allowed.sort())
  })

  it('grants each function only its secrets, its table actions and log writes on its own log group', () => {
    for (const entry of synthed.stack.functions.keys()) {
      const id = synthed.logicalId(entry)
      const statements = statementsOf(synthed.resources, id)
      const secret = statements.filter((s) => JSON.stringify(s.Action).includes('secretsmanager'))
      expect(secret).toHaveLength(SECRETS_OF(entry).length)
      const logs = statements.filter((s) => JSON.stringify(s.Action).includes('logs:'))
      expect(logs).toHaveLength(1)
      expect(actionsOf(logs[0])).toEqual(['logs:CreateLogStream', 'logs:PutLogEvents'])
      expect(logs[0].Resource).toEqual({ 'Fn::GetAtt': [synthed.resources[id]!.Properties.LoggingConfig.LogGroup.Ref, 'Arn'] })
      const table = statements.filter((s) => actionsOf(s).every((action) => action.startsWith('dynamodb:')) && !isStreamRead(s))
      const others = statements.filter((s) => !secret.includes(s) && !logs.includes(s) && !table.includes(s))
      expect(others, entry).toEqual(OTHERS_OF(entry))
    }
  })

  /** What a function may do beyond secrets, logs and the table: the media bucket, the webhook queues, the table's stream. */
  const OTHERS_OF = (entry: string): unknown[] => {
    const arn = (id: string, attribute = 'Arn') => ({ 'Fn::GetAtt': [id, attribute] })
    const bucket = (prefix: string) => ({ 'Fn::Join': ['', [arn(synthed.childId('MediaBucket')), `/${prefix}/*`]] })
    const deliveries = arn(synthed.childId('WebhookDeliveries'))
    const send = ['sqs:SendMessage', 'sqs:GetQueueAttributes', 'sqs:GetQueueUrl']
    if (entry === 'functions/upload.ts' || entry === 'functions/admin-media.ts') return [{ Effect: 'Allow', Action: ['s3:PutObject', 's3:GetObject', 's3:DeleteObject'], Resource: [bucket('uploads'), bucket('incoming')] }]
    if (entry === 'functions/webhook-stream.ts') {
      return [
        { Effect: 'Allow', Action: send, Resource: deliveries },
        { Effect: 'Allow', Action: send, Resource: arn(synthed.childId('WebhookStreamFailures')) },
        { Effect: 'Allow', Action: 'dynamodb:ListStreams', Resource: '*' },
        { Effect: 'Allow', Action: ['dynamodb:DescribeStream', 'dynamodb:GetRecords', 'dynamodb:GetShardIterator'], Resource: arn(tableId(synthed.resources), 'StreamArn') },
      ]
    }
    if (entry === 'functions/webhook-delivery.ts') {
      return [
        { Effect: 'Allow', Action: 'sqs:ChangeMessageVisibility', Resource: deliveries },
        { Effect: 'Allow', Action: ['sqs:ReceiveMessage', 'sqs:ChangeMessageVisibility', 'sqs:GetQueueUrl', 'sqs:DeleteMessage', 'sqs:GetQueueAttributes'], Resource: deliveries },
      ]
    }
    return []
  }

  it('has no wildcard actions or resources (but dynamodb:ListStreams, which AWS grants on * only) and no managed policies', () => {
    for (const [, policy] of ofType(synthed.resources, 'AWS::IAM::Policy')) {
      for (const statement of policy.Properties.PolicyDocument.Statement) {
        expect(actionsOf(statement).some((action) => action.includes('*'))).toBe(false)
        if (statement.Action !== 'dynamodb:ListStreams') expect([statement.Resource].flat()).not.toContain('*')
      }
    }
    for (const [, role] of ofType(synthed.resources, 'AWS::IAM::Role')) expect(role.Properties.ManagedPolicyArns).toBeUndefined()
  })

  it('allows, across all functions, every DynamoDB action lib/storage sends and no other', () => {
    // Map the SDK commands and transaction items written in lib/storage to IAM actions.
    const dir = new URL('../../lib/storage/', import.meta.url)
    const sources = readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((file) => file.endsWith('.ts') && file !== 'schema.ts').map((file) => readFileSync(new URL(file, dir), 'utf8')).join('\n')
    const used = new Set<string>()
    const commands: Record<string, string> = { Get: 'GetItem', Put: 'PutItem', Update: 'UpdateItem', Delete: 'DeleteItem', Query: 'Query', BatchGet: 'BatchGetItem', Scan: 'Scan', BatchWrite: 'BatchWriteItem' }
    for (const [command, action] of Object.entries(commands)) if (sources.includes(`new ${command}Command(`)) used.add(`dynamodb:${action}`)
    for (const [item, action] of [['Put', 'PutItem'], ['Update', 'UpdateItem'], ['Delete', 'DeleteItem'], ['ConditionCheck', 'ConditionCheckItem']]) {
      if (new RegExp(`(^|\\{)\\s*${item}: `, 'm').test(sources)) used.add(`dynamodb:${action}`)
    }
    const granted = new Set(ofType(synthed.resources, 'AWS::IAM::Policy')
      .flatMap(([, policy]) => policy.Properties.PolicyDocument.Statement.filter((s: any) => s.Effect === 'Allow').flatMap(actionsOf))
      .filter((action: string) => action.startsWith('dynamodb:') && !STREAM_ACTIONS.includes(action)))
    expect([...granted].sort()).toEqual([...used].sort())
  })
})
