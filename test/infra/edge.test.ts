// The edge of each stage, from the synthesized templates: access and execution logs, the stage and
// /admin throttles, the gateway's own error answers (429 with Retry-After), the per-IP WAF rule
// (a stage option, on for prod), the optional CDN for public reads and the optional budget.
import { Match } from 'aws-cdk-lib/assertions'
import { describe, expect, it } from 'vitest'
import { WAF_RETRY_AFTER, RATE_RULE } from '../../infra/rate-limit.js'
import { THROTTLE_RETRY_AFTER } from '../../infra/gateway-errors.js'
import { ofType, synth, type Resources } from './synth.js'

const dev = synth('dev')
const prod = synth('prod')
const only = (resources: Resources, type: string) => {
  const found = ofType(resources, type)
  expect(found).toHaveLength(1)
  return found[0]!
}
const stageOf = (resources: Resources) => only(resources, 'AWS::ApiGateway::Stage')[1].Properties

describe('logs', () => {
  it.each([['dev', dev, 14], ['prod', prod, 90]] as const)('%s writes a JSON access log line per request to its own log group', (_, { resources }, days) => {
    const { AccessLogSetting } = stageOf(resources)
    const logGroup = resources[AccessLogSetting.DestinationArn['Fn::GetAtt'][0]]!
    expect(logGroup).toMatchObject({ Type: 'AWS::Logs::LogGroup', Properties: { RetentionInDays: days } })
    const format = JSON.parse(AccessLogSetting.Format)
    expect(format).toMatchObject({ requestId: '$context.requestId', ip: '$context.identity.sourceIp', status: '$context.status', httpMethod: '$context.httpMethod' })
  })

  it('logs the gateway\'s errors for every method, never request or response bodies', () => {
    const settings = stageOf(dev.resources).MethodSettings as any[]
    expect(settings.length).toBeGreaterThanOrEqual(2)
    for (const setting of settings) expect(setting).toMatchObject({ LoggingLevel: 'ERROR', DataTraceEnabled: false })
  })

  it('relies on the account\'s CloudWatch role (infra/account-stack.ts) instead of creating one per stack', () => {
    expect(ofType(dev.resources, 'AWS::ApiGateway::Account')).toEqual([])
  })
})

describe('throttles', () => {
  it.each([['dev', dev, 5, 10], ['prod', prod, 10, 20]] as const)('%s throttles /admin/* far below the content routes', (_, { resources }, rate, burst) => {
    const settings = stageOf(resources).MethodSettings as any[]
    const all = settings.find((s) => s.ResourcePath === '/*')
    const admin = settings.find((s) => s.ResourcePath === '/~1admin~1{proxy+}')
    expect(admin).toMatchObject({ HttpMethod: '*', ThrottlingRateLimit: rate, ThrottlingBurstLimit: burst })
    expect(settings.find((s) => s.ResourcePath === '/~1admin')).toMatchObject({ HttpMethod: '*', ThrottlingRateLimit: rate, ThrottlingBurstLimit: burst })
    // The pages that upload, routed to the admin media function, on resources of their own.
    for (const page of ['/~1admin~1media', '/~1admin~1content']) {
      for (const path of [page, `${page}~1{proxy+}`]) expect(settings.find((s) => s.ResourcePath === path), path).toMatchObject({ HttpMethod: '*', ThrottlingRateLimit: rate, ThrottlingBurstLimit: burst })
    }
    expect(admin.ThrottlingRateLimit * 10).toBeLessThanOrEqual(all.ThrottlingRateLimit)
  })

  it('answers throttling with 429, Retry-After and the error envelope', () => {
    for (const type of ['THROTTLED', 'QUOTA_EXCEEDED']) {
      const [, response] = ofType(dev.resources, 'AWS::ApiGateway::GatewayResponse').find(([, r]) => r.Properties.ResponseType === type)!
      expect(response.Properties.StatusCode).toBe('429')
      expect(response.Properties.ResponseParameters['gatewayresponse.header.Retry-After']).toBe(`'${THROTTLE_RETRY_AFTER}'`)
      expect(JSON.parse(response.Properties.ResponseTemplates['application/json']).error.name).toBe('TooManyRequestsError')
    }
  })

  it('names the default 4XX answer BadRequestError, not ValidationError', () => {
    const [, response] = ofType(dev.resources, 'AWS::ApiGateway::GatewayResponse').find(([, r]) => r.Properties.ResponseType === 'DEFAULT_4XX')!
    expect(JSON.parse(response.Properties.ResponseTemplates['application/json']).error).toMatchObject({ status: 400, name: 'BadRequestError' })
  })
})

describe('per-IP rate limit (AWS WAF)', () => {
  it('has no web ACL on dev (waf.rateLimit 0)', () => {
    expect(ofType(dev.resources, 'AWS::WAFv2::WebACL')).toEqual([])
  })

  it('limits each IP to waf.rateLimit requests in 5 minutes on prod, answering 429 with Retry-After in the envelope', () => {
    const [, acl] = only(prod.resources, 'AWS::WAFv2::WebACL')
    expect(acl.Properties).toMatchObject({ Scope: 'REGIONAL', DefaultAction: { Allow: {} } })
    const [rule] = acl.Properties.Rules
    expect(rule).toMatchObject({
      Name: RATE_RULE,
      Statement: { RateBasedStatement: { Limit: 1000, AggregateKeyType: 'IP', EvaluationWindowSec: 300 } },
      Action: { Block: { CustomResponse: { ResponseCode: 429, ResponseHeaders: expect.arrayContaining([{ Name: 'Retry-After', Value: WAF_RETRY_AFTER }]) } } },
    })
    const body = acl.Properties.CustomResponseBodies[rule.Action.Block.CustomResponse.CustomResponseBodyKey]
    expect(body.ContentType).toBe('APPLICATION_JSON')
    expect(JSON.parse(body.Content)).toEqual({ data: null, error: { status: 429, name: 'TooManyRequestsError', message: 'Too Many Requests', details: {} } })
  })

  it('associates the web ACL with the prod stage, after the stage exists', () => {
    const [aclId] = only(prod.resources, 'AWS::WAFv2::WebACL')
    const [stageId] = only(prod.resources, 'AWS::ApiGateway::Stage')
    const [, association] = only(prod.resources, 'AWS::WAFv2::WebACLAssociation')
    expect(association.Properties.WebACLArn).toEqual({ 'Fn::GetAtt': [aclId, 'Arn'] })
    const [apiId] = only(prod.resources, 'AWS::ApiGateway::RestApi')
    expect(JSON.stringify(association.Properties.ResourceArn)).toContain(`"::/restapis/",{"Ref":"${apiId}"},"/stages/",{"Ref":"${stageId}"}`)
    expect((association as any).DependsOn).toEqual(expect.arrayContaining([stageId]))
  })
})

describe('CDN for public reads (stage option cdn)', () => {
  const withCdn = synth('dev', { cdn: true })
  // Every stage has the media library's own distribution (infra/media.ts); these are the API's.
  const apiCdns = (resources: Resources) => ofType(resources, 'AWS::CloudFront::Distribution').filter(([id]) => !id.startsWith('MediaCdn'))
  const apiCdn = (resources: Resources) => {
    const found = apiCdns(resources)
    expect(found).toHaveLength(1)
    return found[0]!
  }

  it('is off unless asked for', () => {
    expect(apiCdns(dev.resources)).toEqual([])
    expect(apiCdns(prod.resources)).toEqual([])
  })

  it('caches GET and HEAD only, for as long as the answer\'s Cache-Control says, with Authorization in the cache key', () => {
    const [policyId, policy] = only(withCdn.resources, 'AWS::CloudFront::CachePolicy')
    const config = policy.Properties.CachePolicyConfig
    // Nothing is cached that the API did not mark public with s-maxage/max-age.
    expect(config).toMatchObject({ MinTTL: 0, DefaultTTL: 0 })
    const key = config.ParametersInCacheKeyAndForwardedToOrigin
    expect(key.HeadersConfig).toEqual({ HeaderBehavior: 'whitelist', Headers: ['Authorization'] })
    expect(key.QueryStringsConfig.QueryStringBehavior).toBe('all')
    expect(key.CookiesConfig.CookieBehavior).toBe('none')
    const [, distribution] = apiCdn(withCdn.resources)
    const behaviour = distribution.Properties.DistributionConfig.DefaultCacheBehavior
    expect(behaviour.CachePolicyId).toEqual({ Ref: policyId })
    expect(behaviour.CachedMethods).toEqual(['GET', 'HEAD'])
    expect(behaviour.ViewerProtocolPolicy).toBe('https-only')
  })

  it('never caches /admin/*', () => {
    const [, distribution] = apiCdn(withCdn.resources)
    const admin = distribution.Properties.DistributionConfig.CacheBehaviors.find((b: any) => b.PathPattern === '/admin/*')
    // The managed CachingDisabled policy.
    expect(admin.CachePolicyId).toBe('4135ea2d-6df8-44a3-9df3-4b5a84be39ad')
  })

  it('sends requests to the stage of the REST API and outputs its URL', () => {
    const [, distribution] = apiCdn(withCdn.resources)
    const [origin] = distribution.Properties.DistributionConfig.Origins
    const [stageId] = only(withCdn.resources, 'AWS::ApiGateway::Stage')
    // The origin path is the stage's name, cut out of the stage URL.
    expect(JSON.stringify(origin.OriginPath)).toContain(`{"Ref":"${stageId}"}`)
    expect(JSON.stringify(origin.DomainName)).toContain('.execute-api.')
    expect(origin.CustomOriginConfig).toMatchObject({ OriginProtocolPolicy: 'https-only' })
    expect(withCdn.template.toJSON().Outputs.CdnUrl).toBeDefined()
  })
})

describe('budget (stage option)', () => {
  it('is off unless budget.monthlyUsd is set', () => {
    expect(ofType(prod.resources, 'AWS::Budgets::Budget')).toEqual([])
  })

  it('emails at 80% forecast and 100% actual of the monthly amount, on the costs tagged with the stage', () => {
    const { resources } = synth('prod', { 'budget.monthlyUsd': '50', 'budget.email': 'ops@example.com' })
    const [, budget] = only(resources, 'AWS::Budgets::Budget')
    expect(budget.Properties.Budget).toMatchObject({
      BudgetType: 'COST', TimeUnit: 'MONTHLY', BudgetLimit: { Amount: 50, Unit: 'USD' }, CostFilters: { TagKeyValue: ['user:stage$prod'] },
    })
    const alerts = budget.Properties.NotificationsWithSubscribers.map((n: any) => [n.Notification.NotificationType, n.Notification.Threshold, n.Subscribers[0].Address])
    expect(alerts).toEqual([['FORECASTED', 80, 'ops@example.com'], ['ACTUAL', 100, 'ops@example.com']])
  })
})

describe('table', () => {
  it('has no cost ceiling on a stage that sets none', () => {
    const { resources } = synth('pr-1')
    const [, table] = only(resources, 'AWS::DynamoDB::Table')
    expect(table.Properties.OnDemandThroughput).toBeUndefined()
    synth('pr-1').template.hasResourceProperties('AWS::DynamoDB::Table', { BillingMode: 'PAY_PER_REQUEST', GlobalSecondaryIndexes: Match.anyValue() })
  })
})
