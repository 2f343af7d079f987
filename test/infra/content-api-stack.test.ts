// The synthesized stack (bundling skipped), asserted against lib/table.ts, the content-type
// registry and the issue: table, functions, routes, least-privilege policies, secrets, outputs.
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { basename, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { Match } from 'aws-cdk-lib/assertions'
import { beforeAll, describe, expect, it } from 'vitest'
import { build } from 'esbuild'
import { BUNDLED_FILES, BUNDLING, esbuildArgsOf, ESBUILD_OPTIONS, KEPT_SDK_MODULES, OPENAPI_ENTRIES, writeTypesRegistry } from '../../infra/content-api-stack.js'
import { REGISTRY_FILE } from '../../functions/runtime.js'
import { loadContentTypes } from '../../lib/schema/load.js'
import { ASSETS_DIR, EDITOR_SCRIPT, SCRIPT, STYLESHEET } from '../../lib/admin-ui/assets.js'
import { stageFromContext } from '../../infra/stage-config.js'
import { configFromEnv } from '../../lib/config.js'
import { buildOpenApiDocument } from '../../lib/openapi/document.js'
import { AUDIENCES, openApiFile } from '../../lib/openapi/paths.js'
import { shippedTypes } from '../support/types.js'
import { TABLE } from '../../lib/table.js'
import { actionsOf, cdkJsonContext, ofType, routes, statementsOf, synth, tableArn, tableId } from './synth.js'

const CONTENT_ENTRIES = shippedTypes.map((type) => `functions/content.ts#${type.singularName}`)
/** Every function identifies or creates API tokens; only the admin function checks the admin token. */
const SECRETS_OF = (entry: string) => (ADMIN_ENTRIES.includes(entry) ? ['AdminTokenSecret', 'TokenHashKeySecret'] : ['TokenHashKeySecret'])
/** The admin function, and the admin media function serving the pages that upload. */
const ADMIN_ENTRIES = ['functions/admin.ts', 'functions/admin-media.ts']

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

    it('declares only the first slot indexes while a table is upgraded one index per deploy (table.indexSlots)', () => {
      const upgrading = synth('dev', { 'table.indexSlots': 3 })
      const names = upgrading.resources[tableId(upgrading.resources)]!.Properties.GlobalSecondaryIndexes.map((index: any) => index.IndexName)
      expect(names).toEqual(['byId', 'byPublication', 'slot0', 'slot1', 'slot2'])
      expect(() => synth('dev', { 'table.indexSlots': 17 })).toThrow(/indexSlots/)
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
          // cdk.json: dev's cost ceiling applies to every index as to the table.
          OnDemandThroughput: { MaxReadRequestUnits: 200, MaxWriteRequestUnits: 100 },
        })
      }
    })

    it('caps on-demand throughput of the table at the stage maximum', () => {
      expect(synthed.resources[tableId(synthed.resources)]!.Properties.OnDemandThroughput).toEqual({ MaxReadRequestUnits: 200, MaxWriteRequestUnits: 100 })
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
    const entries = [...CONTENT_ENTRIES, 'functions/locales.ts', ...ADMIN_ENTRIES, 'functions/upload.ts']

    it('writes the content types it checked as the registry every bundle reads (types.json): JSON that reads back the same types', () => {
      expect(basename(synthed.stack.typesRegistry)).toBe(REGISTRY_FILE)
      expect(JSON.parse(readFileSync(synthed.stack.typesRegistry, 'utf8'))).toStrictEqual(synthed.stack.types)
      // Every fixture project (components, zones, media, custom fields' base types) round-trips exactly too.
      const dir = mkdtempSync(join(tmpdir(), 'registry-'))
      try {
        for (const project of ['blog-template', 'launchpad', 'components-project', 'strapi-project']) {
          const types = loadContentTypes(fileURLToPath(new URL(`../fixtures/${project}/src/api`, import.meta.url)))
          expect(JSON.parse(readFileSync(writeTypesRegistry(join(dir, project), types), 'utf8')), project).toStrictEqual(types)
        }
      } finally {
        rmSync(dir, { recursive: true, force: true })
      }
    })

    it("writes the OpenAPI documents of its types under the REST settings the locales and admin functions run with, for their bundles", () => {
      expect(OPENAPI_ENTRIES).toEqual(['functions/locales.ts', ...ADMIN_ENTRIES])
      const written = (stack: typeof synthed, audience: (typeof AUDIENCES)[number]) => JSON.parse(readFileSync(join(stack.stack.openApiDir, openApiFile(audience)), 'utf8'))
      // Other REST settings (page sizes, get-one shape) change the documents: written with the stage's own.
      const otherSettings = synth('dev', { 'api.rest.maxLimit': '200', 'api.rest.findOneShape': 'object' })
      for (const stack of [synthed, otherSettings]) {
        expect(readdirSync(stack.stack.openApiDir).sort()).toEqual(['admin.json', 'public.json'])
        for (const entry of OPENAPI_ENTRIES) {
          const variables: Record<string, unknown> = stack.resources[stack.logicalId(entry)]!.Properties.Environment.Variables
          const config = configFromEnv(Object.fromEntries(Object.entries(variables).filter(([, value]) => typeof value === 'string')) as Record<string, string>)
          for (const audience of AUDIENCES) expect(written(stack, audience)).toEqual(buildOpenApiDocument(stack.stack.types, config, audience))
        }
      }
      expect(written(otherSettings, 'public')).not.toEqual(written(synthed, 'public'))
    })

    it('has one function per content type plus the locales, admin, admin media and upload functions, and the two webhook functions', () => {
      const all = [...entries, 'functions/webhook-stream.ts', 'functions/webhook-delivery.ts']
      expect(ofType(synthed.resources, 'AWS::Lambda::Function')).toHaveLength(all.length)
      expect([...synthed.stack.functions.keys()].sort()).toEqual(all.sort())
    })

    it.each(entries)('%s runs on nodejs22.x arm64 with explicit memory, timeout, log retention and its settings', (entry) => {
      const fn = synthed.resources[synthed.logicalId(entry)]!.Properties
      expect(fn.Runtime).toBe('nodejs22.x')
      expect(fn.Architectures).toEqual(['arm64'])
      expect(fn.Handler).toBe('index.handler')
      expect(fn.MemorySize).toBeGreaterThanOrEqual(128)
      expect(fn.Timeout).toBeGreaterThan(0)
      expect(fn.Timeout).toBeLessThan(29) // API Gateway gives up at 29 s
      const secretArns = ADMIN_ENTRIES.includes(entry)
        ? { TOKEN_HASH_SECRET_ARN: { Ref: synthed.secretId('TokenHashKeySecret') }, ADMIN_SECRET_ARN: { Ref: synthed.secretId('AdminTokenSecret') } }
        : { TOKEN_HASH_SECRET_ARN: { Ref: synthed.secretId('TokenHashKeySecret') } }
      expect(fn.Environment.Variables).toEqual({
        TABLE_NAME: { Ref: tableId(synthed.resources) },
        ...secretArns,
        API_REST_DEFAULT_LIMIT: '25',
        API_REST_MAX_LIMIT: '100',
        API_REST_FIND_ONE_SHAPE: 'array',
        API_REST_MAX_SCAN: '20000',
        API_REST_MAX_RESPONSE_BYTES: '5000000',
        API_REST_CACHE_MAX_AGE: '0',
        API_REST_CACHE_S_MAXAGE: '0',
        API_REST_CACHE_STALE_WHILE_REVALIDATE: '0',
        API_REST_PAGE_CACHE: '500',
        API_REST_PAGE_CACHE_BYTES: '32000000',
        API_REST_LIST_MARKS: '20000',
        API_REST_RELATIONS_MAX_LINKS: '1000',
        API_REST_POPULATE_MAX_DOCUMENTS: '1000',
        API_REST_POPULATE_CACHE_BYTES: '8000000',
        // A content function serves the type its schema file declares.
        ...(entry.startsWith('functions/content.ts#') ? { CONTENT_TYPE: shippedTypes.find((type) => entry.endsWith(`#${type.singularName}`))?.uid } : {}),
        // The upload and admin media functions store files in the media bucket, served by the media distribution.
        ...(['functions/upload.ts', 'functions/admin-media.ts'].includes(entry) ? { MEDIA_BUCKET: { Ref: synthed.childId('MediaBucket') }, MEDIA_URL: { 'Fn::Join': ['', ['https://', { 'Fn::GetAtt': [synthed.childId('MediaCdn'), 'DomainName'] }]] } } : {}),
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
      for (const type of shippedTypes) {
        const fn = synthed.logicalId(`functions/content.ts#${type.singularName}`)
        if (type.kind === 'collection') {
          expected.push(`ANY /api/${type.pluralName} -> ${fn}`, `ANY /api/${type.pluralName}/{documentId} -> ${fn}`)
        } else {
          expected.push(`ANY /api/${type.singularName} -> ${fn}`)
        }
      }
      expected.push(`ANY /api/i18n/locales -> ${synthed.logicalId('functions/locales.ts')}`)
      expected.push(`ANY /api/openapi.json -> ${synthed.logicalId('functions/locales.ts')}`)
      expected.push(`ANY /admin -> ${synthed.logicalId('functions/admin.ts')}`)
      expected.push(`ANY /admin/{proxy+} -> ${synthed.logicalId('functions/admin.ts')}`)
      // The pages that upload: the media library, and the documents' pages with their media pickers.
      for (const pages of ['/admin/media', '/admin/content']) expected.push(`ANY ${pages} -> ${synthed.logicalId('functions/admin-media.ts')}`, `ANY ${pages}/{proxy+} -> ${synthed.logicalId('functions/admin-media.ts')}`)
      expected.push(`ANY /api/upload -> ${synthed.logicalId('functions/upload.ts')}`)
      expected.push(`ANY /api/upload/{proxy+} -> ${synthed.logicalId('functions/upload.ts')}`)
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

  it('caches anonymous reads at shared caches for 60 s, stale for 300 s more (cdk.json)', () => {
    for (const [, fn] of ofType(synthed.resources, 'AWS::Lambda::Function')) {
      expect(fn.Properties.Environment.Variables).toMatchObject({ API_REST_CACHE_MAX_AGE: '0', API_REST_CACHE_S_MAXAGE: '60', API_REST_CACHE_STALE_WHILE_REVALIDATE: '300' })
    }
  })

  it('caps the table and every index at the prod maximum throughput', () => {
    const table = synthed.resources[tableId(synthed.resources)]!.Properties
    const caps = [table, ...table.GlobalSecondaryIndexes].map((index: any) => index.OnDemandThroughput)
    expect(caps).toEqual(Array(TABLE.indexes.length + 1).fill({ MaxReadRequestUnits: 4000, MaxWriteRequestUnits: 1000 }))
  })

  // A changed logical id makes CloudFormation replace the resource: a new, empty table (the retained
  // one orphaned) or new secrets (every API token invalid). These ids must never change.
  it.each([
    ['AWS::DynamoDB::Table', ['ContentTableA82027C3']],
    ['AWS::SecretsManager::Secret', ['AdminTokenSecretD8F9B0EF', 'TokenHashKeySecretF10DDA13']],
  ])('keeps the logical ids of its stateful resources (%s)', (type, ids) => {
    expect(ofType(synthed.resources, type).map(([id]) => id).sort()).toEqual(ids)
  })
})

describe('stage settings', () => {
  it('passes api.rest.* given on the command line (as strings) to every function', () => {
    const { resources } = synth('dev', { 'api.rest.defaultLimit': '10', 'api.rest.maxLimit': '200', 'api.rest.findOneShape': 'object' })
    for (const [, fn] of ofType(resources, 'AWS::Lambda::Function')) {
      expect(fn.Properties.Environment.Variables).toMatchObject({ API_REST_DEFAULT_LIMIT: '10', API_REST_MAX_LIMIT: '200', API_REST_FIND_ONE_SHAPE: 'object' })
    }
  })

  it('passes every api.rest.* setting of lib/config.ts to the functions under the name configFromEnv reads', () => {
    const given = { 'api.rest.maxScan': '900', 'api.rest.maxResponseBytes': '1000', 'api.rest.cache.maxAge': '5', 'api.rest.cache.sMaxAge': '6', 'api.rest.cache.staleWhileRevalidate': '7', 'api.rest.pageCache': '0', 'api.rest.pageCacheBytes': '11', 'api.rest.listMarks': '8', 'api.rest.relations.maxLinks': '9', 'api.rest.populate.maxDocuments': '10', 'api.rest.populate.cacheBytes': '12' }
    const { resources } = synth('dev', given)
    const env = ofType(resources, 'AWS::Lambda::Function')[0]![1].Properties.Environment.Variables
    const config = configFromEnv({ ...env, TABLE_NAME: 'content' })
    expect(config.rest).toMatchObject({ maxScan: 900, maxResponseBytes: 1000, cache: { maxAge: 5, sMaxAge: 6, staleWhileRevalidate: 7 }, pageCache: 0, pageCacheBytes: 11, listMarks: 8, relations: { maxLinks: 9 }, populate: { maxDocuments: 10, cacheBytes: 12 } })
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
    [{ 'waf.rateLimit': 5 }, /waf\.rateLimit: must be 0 or at least 10/],
    [{ 'budget.monthlyUsd': 50 }, /budget\.monthlyUsd needs budget\.email/],
    [{ 'throttle.adminRateLimit': 0 }, /throttle\.adminRateLimit/],
    [{ 'api.rest.cache.sMaxAge': -1 }, /rest\.cache\.sMaxAge/],
    [{ cdn: 'yes' }, /cdn/],
  ])('refuses to synthesize with %j', (context, message) => {
    const all: Record<string, unknown> = { ...cdkJsonContext, ...context }
    expect(() => stageFromContext((key) => all[key])).toThrow(message)
  })
})

describe('bundling', () => {
  it('gives NodejsFunction the same aliases (credential chain, side-channel, event streams, LRU cache, checksum, invocation store) the tests and the benchmark bundle with', () => {
    const fromCdk = Object.entries(BUNDLING.esbuildArgs).map(([flag, target]) => [flag.replace(/^--alias:/, ''), target.replace(/^\.\//, '')])
    const fromEsbuild = Object.entries(ESBUILD_OPTIONS.alias ?? {}).map(([name, target]) => [name, target.replace(/^.*?(functions\/)/, '$1')])
    expect(fromCdk).toEqual(fromEsbuild)
    expect(fromCdk).toEqual([
      ['@aws-sdk/credential-provider-node', 'functions/lambda-credentials.ts'],
      ['side-channel', 'functions/side-channel.cjs'],
      ['@smithy/core/event-streams', 'functions/no-event-streams.ts'],
      ['mnemonist/lru-cache', 'functions/lru-cache.ts'],
      ['@smithy/core/checksum', 'functions/sha256.ts'],
      ['@aws/lambda-invoke-store', 'functions/invoke-store.ts'],
    ])
  })

  it.each(Object.entries(KEPT_SDK_MODULES))('bundles %s with the arguments the stack gives it: the SDK modules its clients need kept (the build `cdk synth` runs)', async (entry, kept) => {
    expect(Object.keys(esbuildArgsOf(entry))).toEqual(Object.keys(BUNDLING.esbuildArgs).filter((flag) => !kept.includes(flag.replace(/^--alias:/, '') as never)))
    const root = fileURLToPath(new URL('../../', import.meta.url))
    const alias = Object.fromEntries(Object.entries(esbuildArgsOf(entry)).map(([flag, shim]) => [flag.replace(/^--alias:/, ''), join(root, shim)]))
    const dir = mkdtempSync(join(tmpdir(), 'entry-bundle-'))
    try {
      const result = await build({ ...ESBUILD_OPTIONS, alias, external: ['sharp'], entryPoints: [join(root, entry)], outfile: join(dir, 'index.mjs'), logLevel: 'silent' })
      expect(result.errors).toEqual([])
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  }, 60_000)

  it('gives the API functions every shim', () => {
    for (const entry of ['functions/content.ts', 'functions/locales.ts', 'functions/admin.ts']) expect(esbuildArgsOf(entry)).toEqual(BUNDLING.esbuildArgs)
  })

  it("copies the admin interface's stylesheet and scripts beside the admin bundle, where lib/admin-ui/assets.ts reads them", () => {
    expect(BUNDLED_FILES).toEqual(Object.fromEntries(ADMIN_ENTRIES.map((entry) => [entry, [['lib/admin-ui/assets', ASSETS_DIR]]])))
    expect(readdirSync(new URL('../../lib/admin-ui/assets', import.meta.url)).sort()).toEqual([SCRIPT.name, STYLESHEET.name, EDITOR_SCRIPT.name].sort())
  })
})
