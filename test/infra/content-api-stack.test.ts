// The synthesized stack (bundling skipped), asserted against lib/table.ts, the content-type
// registry and the issue: table, functions, routes, least-privilege policies, secrets, outputs.
import { readdirSync, readFileSync } from 'node:fs'
import { App } from 'aws-cdk-lib'
import { Match, Template } from 'aws-cdk-lib/assertions'
import type { CfnFunction } from 'aws-cdk-lib/aws-lambda'
import type { CfnSecret } from 'aws-cdk-lib/aws-secretsmanager'
import { beforeAll, describe, expect, it } from 'vitest'
import { BUNDLING, ContentApiStack, ESBUILD_OPTIONS } from '../../infra/content-api-stack.js'
import { stageFromContext } from '../../infra/stage-config.js'
import { contentTypes } from '../../lib/content-types.js'
import { TABLE } from '../../lib/table.js'

type Resources = Record<string, { Type: string; Properties: any; DeletionPolicy?: string; UpdateReplacePolicy?: string }>

const cdkJsonContext = JSON.parse(readFileSync(new URL('../../cdk.json', import.meta.url), 'utf8')).context as Record<string, unknown>

/** Synthesizes the stack of `stage` with cdk.json's context plus `context`, without bundling. */
function synth(stage: string, context: Record<string, unknown> = {}) {
  const app = new App({ context: { ...cdkJsonContext, ...context, stage, 'aws:cdk:bundling-stacks': [] } })
  const stack = new ContentApiStack(app, `Test-${stage}`, { stage: stageFromContext((key) => app.node.tryGetContext(key)) })
  const template = Template.fromStack(stack)
  const logicalId = (entry: string) => {
    const fn = stack.functions.get(entry)
    if (fn === undefined) throw new Error(`no function for ${entry}`)
    return stack.getLogicalId(fn.node.defaultChild as CfnFunction)
  }
  /** The logical id of the secret construct `id` (AdminTokenSecret, TokenHashKeySecret). */
  const secretId = (id: string) => stack.getLogicalId(stack.node.findChild(id).node.defaultChild as CfnSecret)
  return { stack, template, resources: template.toJSON().Resources as Resources, logicalId, secretId }
}

function ofType(resources: Resources, type: string) {
  return Object.entries(resources).filter(([, resource]) => resource.Type === type)
}

/** Every proxy route of the REST API as `METHOD /path -> function logical id`. */
function routes(resources: Resources): string[] {
  const path = (ref: any): string => {
    if (ref['Fn::GetAtt']?.[1] === 'RootResourceId') return ''
    const resource = resources[ref.Ref]!
    return `${path(resource.Properties.ParentId)}/${resource.Properties.PathPart}`
  }
  return ofType(resources, 'AWS::ApiGateway::Method')
    .filter(([, method]) => method.Properties.Integration?.Type === 'AWS_PROXY')
    .map(([, method]) => {
      const target = /"Fn::GetAtt":\["(\w+)","Arn"\]/.exec(JSON.stringify(method.Properties.Integration.Uri))?.[1]
      return `${method.Properties.HttpMethod} ${path(method.Properties.ResourceId)} -> ${target}`
    })
    .sort()
}

/** The policy statements attached to a function's role. */
function statementsOf(resources: Resources, functionId: string): any[] {
  const roleId = resources[functionId]!.Properties.Role['Fn::GetAtt'][0]
  return ofType(resources, 'AWS::IAM::Policy')
    .filter(([, policy]) => policy.Properties.Roles.some((role: any) => role.Ref === roleId))
    .flatMap(([, policy]) => policy.Properties.PolicyDocument.Statement)
}

const tableId = (resources: Resources) => ofType(resources, 'AWS::DynamoDB::Table')[0]![0]
const tableArn = (resources: Resources) => ({ 'Fn::GetAtt': [tableId(resources), 'Arn'] })
const indexArn = (resources: Resources, name: string) => ({ 'Fn::Join': ['', [tableArn(resources), `/index/${name}`]] })
const actionsOf = (statement: any): string[] => [statement.Action].flat().sort()

// Derived from lib/storage: the SDK commands each function's code path sends (transactions need
// the action of each item they hold). The locales function only reads settings items.
const CONTENT_ACTIONS = ['dynamodb:BatchGetItem', 'dynamodb:DeleteItem', 'dynamodb:GetItem', 'dynamodb:PutItem', 'dynamodb:Query', 'dynamodb:UpdateItem']
const ADMIN_ACTIONS = ['dynamodb:ConditionCheckItem', 'dynamodb:DeleteItem', 'dynamodb:GetItem', 'dynamodb:PutItem', 'dynamodb:Query', 'dynamodb:UpdateItem']
const LOCALES_ACTIONS = ['dynamodb:GetItem']

const CONTENT_ENTRIES = Object.keys(contentTypes).map((name) => `functions/${name}.ts`)
/** Every function identifies or creates API tokens; only the admin function checks the admin token. */
const SECRETS_OF = (entry: string) => (entry === 'functions/admin.ts' ? ['AdminTokenSecret', 'TokenHashKeySecret'] : ['TokenHashKeySecret'])

describe('the dev stack', () => {
  let synthed: ReturnType<typeof synth>
  beforeAll(() => {
    synthed = synth('dev')
  })

  describe('table', () => {
    it('has the key schema and attribute types of lib/table.ts', () => {
      const table = synthed.resources[tableId(synthed.resources)]!.Properties
      expect(table.KeySchema).toEqual([
        { AttributeName: TABLE.partitionKey.name, KeyType: 'HASH' },
        { AttributeName: TABLE.sortKey.name, KeyType: 'RANGE' },
      ])
      const keys = [TABLE.partitionKey, TABLE.sortKey, ...TABLE.indexes.flatMap((index) => [index.partitionKey, index.sortKey])]
      const expected = new Map(keys.map((key) => [key.name, key.type]))
      expect(new Map(table.AttributeDefinitions.map((d: any) => [d.AttributeName, d.AttributeType]))).toEqual(expected)
    })

    it('has every index of lib/table.ts with its keys and projection', () => {
      const indexes = synthed.resources[tableId(synthed.resources)]!.Properties.GlobalSecondaryIndexes
      expect(indexes).toHaveLength(TABLE.indexes.length)
      for (const index of TABLE.indexes) {
        const projection = index.projection.type === 'ALL'
          ? { ProjectionType: 'ALL' }
          : { ProjectionType: 'INCLUDE', NonKeyAttributes: [...index.projection.attributes] }
        expect(indexes).toContainEqual({
          IndexName: index.name,
          KeySchema: [
            { AttributeName: index.partitionKey.name, KeyType: 'HASH' },
            { AttributeName: index.sortKey.name, KeyType: 'RANGE' },
          ],
          Projection: projection,
        })
      }
    })

    it('is on-demand with point-in-time recovery, and may be destroyed on dev', () => {
      synthed.template.hasResource('AWS::DynamoDB::Table', {
        Properties: Match.objectLike({
          BillingMode: 'PAY_PER_REQUEST',
          PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true },
          DeletionProtectionEnabled: false,
        }),
        DeletionPolicy: 'Delete',
      })
    })
  })

  describe('functions', () => {
    const entries = [...CONTENT_ENTRIES, 'functions/locales.ts', 'functions/admin.ts']

    it('has one function per content type plus the locales and admin functions', () => {
      expect(ofType(synthed.resources, 'AWS::Lambda::Function')).toHaveLength(entries.length)
      expect([...synthed.stack.functions.keys()].sort()).toEqual([...entries].sort())
    })

    it.each(entries)('%s runs on nodejs22.x arm64 with explicit memory, timeout, log retention and its settings', (entry) => {
      const fn = synthed.resources[synthed.logicalId(entry)]!.Properties
      expect(fn.Runtime).toBe('nodejs22.x')
      expect(fn.Architectures).toEqual(['arm64'])
      expect(fn.Handler).toBe('index.handler')
      expect(fn.MemorySize).toBeGreaterThanOrEqual(128)
      expect(fn.Timeout).toBeGreaterThan(0)
      expect(fn.Timeout).toBeLessThan(29) // API Gateway gives up at 29 s
      const secretArns = entry === 'functions/admin.ts'
        ? { TOKEN_HASH_SECRET_ARN: { Ref: synthed.secretId('TokenHashKeySecret') }, ADMIN_SECRET_ARN: { Ref: synthed.secretId('AdminTokenSecret') } }
        : { TOKEN_HASH_SECRET_ARN: { Ref: synthed.secretId('TokenHashKeySecret') } }
      expect(fn.Environment.Variables).toEqual({
        TABLE_NAME: { Ref: tableId(synthed.resources) },
        ...secretArns,
        API_REST_DEFAULT_LIMIT: '25',
        API_REST_MAX_LIMIT: '100',
        API_REST_FIND_ONE_SHAPE: 'array',
        NODE_OPTIONS: '--enable-source-maps',
      })
      const logGroupId = fn.LoggingConfig.LogGroup.Ref
      expect(synthed.resources[logGroupId]).toMatchObject({ Type: 'AWS::Logs::LogGroup', Properties: { RetentionInDays: 14 } })
    })

    it('lets API Gateway invoke each function', () => {
      for (const entry of entries) {
        synthed.template.hasResourceProperties('AWS::Lambda::Permission', {
          Action: 'lambda:InvokeFunction',
          Principal: 'apigateway.amazonaws.com',
          FunctionName: { 'Fn::GetAtt': [synthed.logicalId(entry), 'Arn'] },
        })
      }
    })
  })

  describe('routes', () => {
    it('sends each path to its own function, every method (the function answers 405)', () => {
      const expected: string[] = []
      for (const [name, type] of Object.entries(contentTypes)) {
        const fn = synthed.logicalId(`functions/${name}.ts`)
        if (type.kind === 'collection') {
          expected.push(`ANY /api/${type.pluralName} -> ${fn}`, `ANY /api/${type.pluralName}/{documentId} -> ${fn}`)
        } else {
          expected.push(`ANY /api/${type.singularName} -> ${fn}`)
        }
      }
      expected.push(`ANY /api/i18n/locales -> ${synthed.logicalId('functions/locales.ts')}`)
      expected.push(`ANY /admin/{proxy+} -> ${synthed.logicalId('functions/admin.ts')}`)
      expect(routes(synthed.resources)).toEqual(expected.sort())
    })

    it('answers CORS preflights at the gateway with the headers the API reads', () => {
      synthed.template.hasResourceProperties('AWS::ApiGateway::Method', {
        HttpMethod: 'OPTIONS',
        Integration: Match.objectLike({
          Type: 'MOCK',
          IntegrationResponses: [Match.objectLike({
            ResponseParameters: Match.objectLike({
              'method.response.header.Access-Control-Allow-Headers': "'Authorization,Content-Type,If-Match'",
              'method.response.header.Access-Control-Allow-Origin': "'*'",
            }),
          })],
        }),
      })
    })

    it('throttles the stage with the configured limits', () => {
      synthed.template.hasResourceProperties('AWS::ApiGateway::Stage', {
        StageName: 'dev',
        MethodSettings: Match.arrayWith([Match.objectLike({ HttpMethod: '*', ResourcePath: '/*', ThrottlingRateLimit: 50, ThrottlingBurstLimit: 100 })]),
      })
    })

    it('answers an unknown path with a 404 in the error envelope', () => {
      const [, response] = ofType(synthed.resources, 'AWS::ApiGateway::GatewayResponse')
        .find(([, r]) => r.Properties.ResponseType === 'MISSING_AUTHENTICATION_TOKEN')!
      expect(response.Properties.StatusCode).toBe('404')
      expect(JSON.parse(response.Properties.ResponseTemplates['application/json'])).toEqual({
        data: null,
        error: { status: 404, name: 'NotFoundError', message: 'Not Found', details: {} },
      })
    })

    it('renders every gateway error as the envelope with the status it is sent with', () => {
      const responses = ofType(synthed.resources, 'AWS::ApiGateway::GatewayResponse')
      expect(responses.map(([, r]) => r.Properties.ResponseType)).toEqual(expect.arrayContaining(['THROTTLED', 'DEFAULT_4XX', 'DEFAULT_5XX']))
      for (const [, { Properties: response }] of responses) {
        const body = JSON.parse(response.ResponseTemplates['application/json'])
        expect(body).toEqual({ data: null, error: { status: Number(response.StatusCode), name: expect.any(String), message: expect.any(String), details: {} } })
        expect(response.ResponseParameters['gatewayresponse.header.Content-Type']).toBe("'application/json'")
      }
    })
  })

  describe('permissions', () => {
    it.each([
      ['functions/article.ts', CONTENT_ACTIONS],
      ['functions/homepage.ts', CONTENT_ACTIONS],
      ['functions/locales.ts', LOCALES_ACTIONS],
      ['functions/admin.ts', ADMIN_ACTIONS],
    ])('%s holds exactly the table actions it uses, on the table only', (entry, actions) => {
      const statements = statementsOf(synthed.resources, synthed.logicalId(entry))
      const onTable = statements.filter((s) => JSON.stringify(s.Resource) === JSON.stringify(tableArn(synthed.resources)))
      expect(onTable).toHaveLength(1)
      expect(actionsOf(onTable[0])).toEqual(actions)
    })

    it.each(['functions/article.ts', 'functions/homepage.ts'])('%s may Query the list indexes and nothing else on them', (entry) => {
      const onIndexes = statementsOf(synthed.resources, synthed.logicalId(entry)).filter((s) => JSON.stringify(s.Resource).includes('/index/'))
      expect(onIndexes).toHaveLength(1)
      expect(actionsOf(onIndexes[0])).toEqual(['dynamodb:Query'])
      expect(onIndexes[0].Resource).toEqual(expect.arrayContaining(TABLE.indexes.map((index) => indexArn(synthed.resources, index.name))))
    })

    it.each(['functions/locales.ts', 'functions/admin.ts'])('%s cannot read the indexes', (entry) => {
      expect(JSON.stringify(statementsOf(synthed.resources, synthed.logicalId(entry)))).not.toContain('/index/')
    })

    it.each([...CONTENT_ENTRIES, 'functions/locales.ts', 'functions/admin.ts'])('%s may read exactly the secrets it needs, with GetSecretValue alone', (entry) => {
      const statements = statementsOf(synthed.resources, synthed.logicalId(entry))
      const onSecrets = statements.filter((s) => JSON.stringify(s).includes('secretsmanager'))
      expect(onSecrets.every((s) => s.Effect === 'Allow' && s.Action === 'secretsmanager:GetSecretValue')).toBe(true)
      expect(onSecrets.map((s) => s.Resource)).toEqual(expect.arrayContaining(SECRETS_OF(entry).map((id) => ({ Ref: synthed.secretId(id) }))))
      expect(onSecrets).toHaveLength(SECRETS_OF(entry).length)
    })

    it('names the admin secret in no resource but the admin function and its role policy', () => {
      const adminSecret = JSON.stringify({ Ref: synthed.secretId('AdminTokenSecret') })
      const admin = synthed.logicalId('functions/admin.ts')
      const adminRole = synthed.resources[admin]!.Properties.Role['Fn::GetAtt'][0]
      const adminPolicies = ofType(synthed.resources, 'AWS::IAM::Policy')
        .filter(([, policy]) => JSON.stringify(policy.Properties.Roles) === JSON.stringify([{ Ref: adminRole }]))
        .map(([id]) => id)
      expect(adminPolicies).toHaveLength(1)
      const referencing = Object.entries(synthed.resources).filter(([, resource]) => JSON.stringify(resource).includes(adminSecret)).map(([id]) => id)
      expect(referencing.sort()).toEqual([admin, ...adminPolicies].sort())
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
        expect(statements).toHaveLength(secret.length + logs.length + statements.filter((s) => JSON.stringify(s.Action).includes('dynamodb:')).length)
      }
    })

    it('has no wildcard actions or resources and no managed policies', () => {
      for (const [, policy] of ofType(synthed.resources, 'AWS::IAM::Policy')) {
        for (const statement of policy.Properties.PolicyDocument.Statement) {
          expect(actionsOf(statement).some((action) => action.includes('*'))).toBe(false)
          expect([statement.Resource].flat()).not.toContain('*')
        }
      }
      for (const [, role] of ofType(synthed.resources, 'AWS::IAM::Role')) expect(role.Properties.ManagedPolicyArns).toBeUndefined()
    })

    it('grants, across all functions, every DynamoDB action lib/storage sends and no other', () => {
      // Map the SDK commands and transaction items written in lib/storage to IAM actions.
      const dir = new URL('../../lib/storage/', import.meta.url)
      const sources = readdirSync(dir).filter((file) => file !== 'schema.ts').map((file) => readFileSync(new URL(file, dir), 'utf8')).join('\n')
      const used = new Set<string>()
      const commands: Record<string, string> = { Get: 'GetItem', Put: 'PutItem', Update: 'UpdateItem', Delete: 'DeleteItem', Query: 'Query', BatchGet: 'BatchGetItem', Scan: 'Scan', BatchWrite: 'BatchWriteItem' }
      for (const [command, action] of Object.entries(commands)) if (sources.includes(`new ${command}Command(`)) used.add(`dynamodb:${action}`)
      for (const [item, action] of [['Put', 'PutItem'], ['Update', 'UpdateItem'], ['Delete', 'DeleteItem'], ['ConditionCheck', 'ConditionCheckItem']]) {
        if (new RegExp(`(^|\\{)\\s*${item}: `, 'm').test(sources)) used.add(`dynamodb:${action}`)
      }
      const granted = new Set(ofType(synthed.resources, 'AWS::IAM::Policy')
        .flatMap(([, policy]) => policy.Properties.PolicyDocument.Statement.flatMap(actionsOf))
        .filter((action: string) => action.startsWith('dynamodb:')))
      expect([...granted].sort()).toEqual([...used].sort())
    })
  })

  describe('secrets and outputs', () => {
    it('has exactly two secrets, both generated by Secrets Manager', () => {
      expect(ofType(synthed.resources, 'AWS::SecretsManager::Secret').map(([id]) => id).sort())
        .toEqual([synthed.secretId('AdminTokenSecret'), synthed.secretId('TokenHashKeySecret')].sort())
    })

    it.each([
      ['AdminTokenSecret', 48],
      ['TokenHashKeySecret', 64],
    ])('generates %s: %i characters, no punctuation, no space', (id, length) => {
      expect(synthed.resources[synthed.secretId(id)]!.Properties.GenerateSecretString).toEqual({
        PasswordLength: length,
        ExcludePunctuation: true,
        IncludeSpace: false,
      })
    })

    it('holds no secret value: no SecretString, no ADMIN_TOKEN or TOKEN_HASH_SECRET variable', () => {
      const json = JSON.stringify(synthed.template.toJSON())
      expect(json).not.toContain('"SecretString"')
      expect(json).not.toContain('SecretStringTemplate')
      expect(json).not.toContain('"ADMIN_TOKEN"')
      expect(json).not.toContain('"TOKEN_HASH_SECRET"')
      for (const [, fn] of ofType(synthed.resources, 'AWS::Lambda::Function')) {
        const names = Object.keys(fn.Properties.Environment.Variables)
        expect(names.filter((name) => /TOKEN|SECRET/.test(name)).every((name) => name.endsWith('_SECRET_ARN'))).toBe(true)
      }
    })

    it('outputs the API URL of the stage, the secret ARNs and the table name', () => {
      const outputs = synthed.template.toJSON().Outputs
      const api = ofType(synthed.resources, 'AWS::ApiGateway::RestApi')[0]![0]
      expect(JSON.stringify(outputs.ApiUrl.Value)).toContain(`{"Ref":"${api}"}`)
      const stage = ofType(synthed.resources, 'AWS::ApiGateway::Stage')[0]!
      expect(stage[1].Properties.StageName).toBe('dev')
      expect(JSON.stringify(outputs.ApiUrl.Value)).toContain(`{"Ref":"${stage[0]}"},"/"`)
      expect(outputs.AdminSecretArn.Value).toEqual({ Ref: synthed.secretId('AdminTokenSecret') })
      expect(outputs.TokenHashKeySecretArn.Value).toEqual({ Ref: synthed.secretId('TokenHashKeySecret') })
      expect(outputs.TableName.Value).toEqual({ Ref: tableId(synthed.resources) })
    })
  })
})

describe('the prod stack', () => {
  let synthed: ReturnType<typeof synth>
  beforeAll(() => {
    synthed = synth('prod')
  })

  it('retains the table, with deletion protection and point-in-time recovery', () => {
    synthed.template.hasResource('AWS::DynamoDB::Table', {
      Properties: Match.objectLike({ DeletionProtectionEnabled: true, PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true } }),
      DeletionPolicy: 'Retain',
      UpdateReplacePolicy: 'Retain',
    })
  })

  it('retains both secrets and the logs', () => {
    expect(ofType(synthed.resources, 'AWS::SecretsManager::Secret')).toHaveLength(2)
    for (const type of ['AWS::SecretsManager::Secret', 'AWS::Logs::LogGroup']) {
      for (const [, resource] of ofType(synthed.resources, type)) expect(resource.DeletionPolicy).toBe('Retain')
    }
  })

  it('throttles with the prod limits of cdk.json', () => {
    synthed.template.hasResourceProperties('AWS::ApiGateway::Stage', {
      StageName: 'prod',
      MethodSettings: Match.arrayWith([Match.objectLike({ ThrottlingRateLimit: 500, ThrottlingBurstLimit: 1000 })]),
    })
  })
})

describe('stage settings', () => {
  it('passes api.rest.* given on the command line (as strings) to every function', () => {
    const { resources } = synth('dev', { 'api.rest.defaultLimit': '10', 'api.rest.maxLimit': '200', 'api.rest.findOneShape': 'object' })
    for (const [, fn] of ofType(resources, 'AWS::Lambda::Function')) {
      expect(fn.Properties.Environment.Variables).toMatchObject({ API_REST_DEFAULT_LIMIT: '10', API_REST_MAX_LIMIT: '200', API_REST_FIND_ONE_SHAPE: 'object' })
    }
  })

  it('treats a stage without an entry in cdk.json as unprotected, and prod as protected by default', () => {
    const read = (context: Record<string, unknown>) => stageFromContext((key) => context[key])
    expect(read({ stage: 'pr-42' }).settings).toMatchObject({ protect: false, rest: { defaultLimit: 25, maxLimit: 100, findOneShape: 'array' } })
    expect(read({ stage: 'prod' }).settings.protect).toBe(true)
    expect(read({}).name).toBe('dev')
  })

  it.each([
    [{ 'api.rest.maxLimit': '0' }, /api\.rest|rest\.maxLimit/],
    [{ 'api.rest.defaultLimit': 'ten' }, /defaultLimit/],
    [{ 'api.rest.findOneShape': 'list' }, /findOneShape/],
    [{ 'api.rest.defaultLimit': 300 }, /must not exceed/],
    [{ logRetentionDays: 8 }, /logRetentionDays/],
    [{ stage: 'Prod!' }, /stage/],
    [{ stages: { dev: { 'api.rest.maxlimit': 5 } } }, /Unknown settings in stages\.dev: api\.rest\.maxlimit/],
  ])('refuses to synthesize with %j', (context, message) => {
    const all: Record<string, unknown> = { ...cdkJsonContext, ...context }
    expect(() => stageFromContext((key) => all[key])).toThrow(message)
  })
})

describe('bundling', () => {
  it('gives NodejsFunction the same credential-chain alias the tests and the benchmark bundle with', () => {
    const fromCdk = Object.entries(BUNDLING.esbuildArgs).map(([flag, target]) => [flag.replace(/^--alias:/, ''), target.replace(/^\.\//, '')])
    const fromEsbuild = Object.entries(ESBUILD_OPTIONS.alias ?? {}).map(([name, target]) => [name, target.replace(/^.*?(functions\/)/, '$1')])
    expect(fromCdk).toEqual(fromEsbuild)
    expect(fromCdk).toEqual([['@aws-sdk/credential-provider-node', 'functions/lambda-credentials.ts']])
  })
})
