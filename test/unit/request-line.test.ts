// The request line made by hand (lib/observability/request-line.ts) is the line Powertools' Logger
// prints for logger.info('request', fields) with its Metrics' EMF block merged in: same keys, same
// order, same values, with and without a Lambda context. A Powertools upgrade that changes its
// format fails here.
import { Logger, type LogItem } from '@aws-lambda-powertools/logger'
import { MetricUnit, Metrics } from '@aws-lambda-powertools/metrics'
import { afterEach, describe, expect, it } from 'vitest'
import { metricDefinitions, requestLineMaker, type LambdaKeys, type RequestFields } from '../../lib/observability/request-line.js'

const SERVICE = 'content-api'
const NAMESPACE = 'LocalizedContentApi'
const TRACE = 'Root=1-5759e988-bd862e3fe1be46a994272793;Parent=53995c3f42cd8ad8;Sampled=1'
const lambdaContext = {
  callbackWaitsForEmptyEventLoop: true, functionName: 'content-api-dev-article', functionVersion: '$LATEST',
  invokedFunctionArn: 'arn:aws:lambda:eu-west-1:123456789012:function:content-api-dev-article', memoryLimitInMB: '1024',
  awsRequestId: 'req-0001', logGroupName: '/aws/lambda/x', logStreamName: 'x',
  getRemainingTimeInMillis: () => 29_000, done: () => undefined, fail: () => undefined, succeed: () => undefined,
}

/** A Logger that keeps its lines. */
class CapturingLogger extends Logger {
  readonly lines: string[] = []
  protected override printLog(_level: number, log: LogItem): void {
    log.prepareForPrint()
    this.lines.push(JSON.stringify(log.getAttributes(), this.getJsonReplacer()))
  }
}

/** The line as Powertools makes it: Metrics' EMF block (less its `service`) merged into Logger.info. */
function powertoolsLine(logger: CapturingLogger, fields: RequestFields): string {
  const metrics = new Metrics({ namespace: NAMESPACE, serviceName: SERVICE })
  metrics.addMetric('Requests', MetricUnit.Count, 1)
  metrics.addMetric('ServerErrors', MetricUnit.Count, 0)
  metrics.addMetric('Latency', MetricUnit.Milliseconds, fields.durationMs)
  metrics.addMetric('ConsumedRCU', MetricUnit.Count, fields.dynamodb.rcu)
  metrics.addMetric('ConsumedWCU', MetricUnit.Count, fields.dynamodb.wcu)
  const { service: _service, ...emf } = metrics.serializeMetrics()
  logger.info('request', { ...fields, ...emf })
  return logger.lines.at(-1)!
}

/** The line made by hand, for the same request at the time the Logger wrote `reference`. */
function ourLine(reference: string, fields: RequestFields, lambda?: LambdaKeys, xrayTraceId?: string): string {
  const { timestamp, _aws } = JSON.parse(reference) as { timestamp: string; _aws: { Timestamp: number } }
  // The Logger and Metrics each read the clock: the made line takes the Logger's and sets the EMF one after.
  const line = requestLineMaker(SERVICE, 0, metricDefinitions(NAMESPACE, SERVICE))(fields, new Date(timestamp), lambda, xrayTraceId)
  return line.replace(/"Timestamp":\d+/, `"Timestamp":${_aws.Timestamp}`)
}

const request = (overrides: Partial<RequestFields> = {}): RequestFields => ({
  request_id: '0f8fad5b-d9cb-469f-a165-70867728950e', method: 'GET', route: '/api/articles/:documentId', status: 200, durationMs: 1.3,
  dynamodb: { calls: 1, rcu: 0.5, wcu: 0, failures: undefined }, error: undefined, ...overrides,
})

describe('the request line', () => {
  const saved = { trace: process.env._X_AMZN_TRACE_ID, init: process.env.AWS_LAMBDA_INITIALIZATION_TYPE }
  afterEach(() => {
    for (const [key, value] of [['_X_AMZN_TRACE_ID', saved.trace], ['AWS_LAMBDA_INITIALIZATION_TYPE', saved.init]] as const) {
      if (value === undefined) delete process.env[key]
      else process.env[key] = value
    }
  })

  it.each([
    ['a routed request', request()],
    ['an unknown path (no route)', request({ route: undefined, status: 404, dynamodb: { calls: 0, rcu: 0, wcu: 0 } })],
    ['a route and method that JSON escapes', request({ method: 'PURGE', route: '/api/"é"\\/:id\u2028', durationMs: 0 })],
    ['a write with failed calls', request({ method: 'POST', route: '/api/articles', status: 409, dynamodb: { calls: 2, rcu: 1, wcu: 4.5, failures: ['PutItemCommand: ConditionalCheckFailedException: x'] } })],
  ])('is the Logger and Metrics line, off Lambda: %s', (_name, fields) => {
    delete process.env._X_AMZN_TRACE_ID
    const reference = powertoolsLine(new CapturingLogger({ serviceName: SERVICE, logLevel: 'INFO', sampleRateValue: 0 }), fields)
    expect(ourLine(reference, fields)).toBe(reference)
  })

  it('is the Logger and Metrics line on Lambda: context, cold start then warm, trace id', () => {
    process.env.AWS_LAMBDA_INITIALIZATION_TYPE = 'on-demand'
    process.env._X_AMZN_TRACE_ID = TRACE
    const logger = new CapturingLogger({ serviceName: SERVICE, logLevel: 'INFO', sampleRateValue: 0 })
    const fields = request({ request_id: undefined })
    for (const [awsRequestId, coldStart] of [['req-0001', true], ['req-0002', false]] as const) {
      logger.addContext({ ...lambdaContext, awsRequestId })
      const reference = powertoolsLine(logger, fields)
      const lambda = {
        cold_start: coldStart, function_arn: lambdaContext.invokedFunctionArn, function_memory_size: lambdaContext.memoryLimitInMB,
        function_name: lambdaContext.functionName, function_request_id: awsRequestId,
      }
      const xrayTraceId = '1-5759e988-bd862e3fe1be46a994272793'
      expect(JSON.parse(reference)).toMatchObject({ ...lambda, xray_trace_id: xrayTraceId })
      expect(ourLine(reference, fields, lambda, xrayTraceId)).toBe(reference)
    }
  })
})

describe('the metric definitions', () => {
  it.each([
    [NAMESPACE, SERVICE],
    ['Other/Namespace#1', 'admin-ui'],
  ])('are the ones Metrics writes for namespace %s and service %s', (namespace, serviceName) => {
    // Prepare
    const metrics = new Metrics({ namespace, serviceName })
    for (const [name, unit] of [['Requests', MetricUnit.Count], ['ServerErrors', MetricUnit.Count], ['Latency', MetricUnit.Milliseconds], ['ConsumedRCU', MetricUnit.Count], ['ConsumedWCU', MetricUnit.Count]] as const) metrics.addMetric(name, unit, 0)

    // Act
    const made = metricDefinitions(namespace, serviceName)

    // Assess
    expect(made).toEqual(metrics.serializeMetrics()._aws.CloudWatchMetrics)
  })
})
