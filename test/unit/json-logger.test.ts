// The request log's own writer (lib/observability/json-logger.ts) writes the lines AWS Lambda
// Powertools' Logger writes for the same calls: same keys, order and values, the same lines
// written or left out at each level, Lambda's log level control, sampling, cold start, time zones
// and console output. Both run side by side on a frozen clock; a Powertools upgrade that changes
// its format fails here.
import { Logger, type LogItem } from '@aws-lambda-powertools/logger'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { JsonLogger, type LambdaContext, type LoggerSettings } from '../../lib/observability/json-logger.js'

const lambdaContext = {
  callbackWaitsForEmptyEventLoop: true, functionName: 'content-api-dev-article', functionVersion: '$LATEST',
  invokedFunctionArn: 'arn:aws:lambda:eu-west-1:123456789012:function:content-api-dev-article', memoryLimitInMB: '1024',
  awsRequestId: 'req-0001', logGroupName: '/aws/lambda/x', logStreamName: 'x',
  getRemainingTimeInMillis: () => 29_000, done: () => undefined, fail: () => undefined, succeed: () => undefined,
}

/** The lines of the last CapturingLogger made (its constructor may already write some). */
let captured: string[] = []

/** A Logger that keeps its lines, as the request log's writer receives them. */
class CapturingLogger extends Logger {
  protected override printLog(_level: number, log: LogItem): void {
    log.prepareForPrint()
    captured.push(JSON.stringify(log.getAttributes(), this.getJsonReplacer()))
  }
}

type Step = readonly ['context', string] | readonly ['error' | 'warn' | 'info' | 'debug', string, Record<string, unknown>] | readonly ['refresh']

const FIELDS = {
  request_id: undefined, method: 'GET', route: '/api/articles/:documentId', status: 503, durationMs: 12.5, empty: '', none: null,
  dynamodb: { calls: 2, rcu: 0.5, wcu: 0, failures: ['GetItemCommand: ECONNREFUSED'], nothing: undefined },
  error: { name: 'ServiceUnavailableError', message: 'é "quoted" \u2028', cause: { name: 'Error', message: 'x', stack: 'Error: x\n    at f (/a.js:1:2)' } },
}
const REQUEST: Step[] = [['error', 'request', FIELDS], ['warn', 'slow', { ms: 1 }], ['info', 'request', { status: 200 }], ['debug', 'dynamodb calls', { calls: [{ command: 'Query', units: 0.5, ms: 1.2 }] }]]

/** The lines each logger writes for `steps`, made under `env`. */
function linesOf(settings: LoggerSettings, env: Record<string, string>, steps: readonly Step[]) {
  vi.stubEnv('AWS_LAMBDA_INITIALIZATION_TYPE', '')
  for (const [name, value] of Object.entries(env)) vi.stubEnv(name, value)
  captured = []
  const reference = new CapturingLogger({ serviceName: settings.serviceName, logLevel: settings.logLevel, sampleRateValue: settings.debugSampleRate })
  const lines: string[] = []
  const ours = new JsonLogger((line) => lines.push(line), settings)
  for (const step of steps) {
    if (step[0] === 'context') {
      reference.addContext({ ...lambdaContext, awsRequestId: step[1] })
      ours.addContext({ ...lambdaContext, awsRequestId: step[1] } satisfies LambdaContext)
    } else if (step[0] === 'refresh') {
      reference.refreshSampleRateCalculation()
      ours.refreshSampling()
    } else {
      reference[step[0]](step[1], step[2])
      ours.print(step[0].toUpperCase() as 'INFO', step[1], step[2])
    }
  }
  return { ours: lines, theirs: captured }
}

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['Date'] })
  vi.setSystemTime(new Date('2026-11-27T22:15:42.123Z'))
  for (const name of ['_X_AMZN_TRACE_ID', 'AWS_LAMBDA_LOG_LEVEL', 'POWERTOOLS_DEV', 'TZ']) vi.stubEnv(name, '')
})
afterEach(() => {
  vi.useRealTimers()
  vi.unstubAllEnvs()
  vi.restoreAllMocks()
})

const SETTINGS: LoggerSettings = { serviceName: 'content-api', logLevel: 'INFO', debugSampleRate: 0 }

describe('the log writer writes the Logger\'s lines', () => {
  it.each([
    ['INFO, off Lambda', SETTINGS, {}, 6],
    ['DEBUG', { ...SETTINGS, logLevel: 'DEBUG' }, {}, 8],
    ['WARN', { ...SETTINGS, logLevel: 'WARN' }, {}, 4],
    ['ERROR, another service name', { ...SETTINGS, logLevel: 'ERROR', serviceName: 'admin "ui"' }, {}, 2],
    ["Lambda's log level (WARN) over INFO, with its warning", SETTINGS, { AWS_LAMBDA_LOG_LEVEL: 'WARN' }, 5],
    ["Lambda's log level (DEBUG) over ERROR", { ...SETTINGS, logLevel: 'ERROR' }, { AWS_LAMBDA_LOG_LEVEL: 'DEBUG' }, 8],
    ["Lambda's FATAL", { ...SETTINGS, logLevel: 'DEBUG' }, { AWS_LAMBDA_LOG_LEVEL: 'FATAL' }, 0],
    ['a sampling rate of 1: DEBUG and its notice', { ...SETTINGS, debugSampleRate: 1 }, {}, 9],
    ['a sampling rate under Lambda\'s level', { ...SETTINGS, debugSampleRate: 1 }, { AWS_LAMBDA_LOG_LEVEL: 'INFO' }, 7],
    ['a local time zone', SETTINGS, { TZ: 'America/St_Johns' }, 6],
    ['a time zone east of UTC', SETTINGS, { TZ: 'Asia/Kolkata' }, 6],
    ['TZ as Lambda sets it', SETTINGS, { TZ: ':UTC' }, 6],
  ] as const)('%s', (_name, settings, env, written) => {
    const { ours, theirs } = linesOf(settings, env, [...REQUEST, ['refresh'], ...REQUEST])
    expect(theirs).toHaveLength(written)
    expect(ours).toEqual(theirs)
  })

  it('on Lambda: the context, the cold start then warm starts, the trace id', () => {
    const env = { AWS_LAMBDA_INITIALIZATION_TYPE: 'on-demand', _X_AMZN_TRACE_ID: 'Root=1-5759e988-bd862e3fe1be46a994272793;Parent=53995c3f42cd8ad8;Sampled=1' }
    const { ours, theirs } = linesOf({ ...SETTINGS, logLevel: 'DEBUG' }, env, [['context', 'req-0001'], ...REQUEST, ['context', 'req-0002'], ...REQUEST])
    expect(JSON.parse(theirs[0]!)).toMatchObject({ cold_start: true, function_request_id: 'req-0001', xray_trace_id: '1-5759e988-bd862e3fe1be46a994272793' })
    expect(JSON.parse(theirs[4]!)).toMatchObject({ cold_start: false, function_request_id: 'req-0002' })
    expect(ours).toEqual(theirs)
  })

  it('on provisioned concurrency no line is a cold start, and a bare trace id is the id', () => {
    const env = { AWS_LAMBDA_INITIALIZATION_TYPE: 'provisioned-concurrency', _X_AMZN_TRACE_ID: '1-abc' }
    const { ours, theirs } = linesOf(SETTINGS, env, [['context', 'req-0001'], ...REQUEST])
    expect(JSON.parse(theirs[0]!)).toMatchObject({ cold_start: false, xray_trace_id: '1-abc' })
    expect(ours).toEqual(theirs)
  })

  it('an unknown time zone: UTC, and one warning', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined)
    const { ours, theirs } = linesOf(SETTINGS, { TZ: 'Mars/Olympus_Mons' }, REQUEST)
    expect(ours).toEqual(theirs)
    expect(JSON.parse(ours[0]!).timestamp).toBe('2026-11-27T22:15:42.123+00:00')
    expect(warn.mock.calls.filter(([text]) => String(text).includes('Mars/Olympus_Mons')).length).toBeGreaterThanOrEqual(1)
  })
})

describe('without a writer, the output is the Logger\'s', () => {
  /** What each logger prints through `spied` for REQUEST, with neither given a writer. */
  function printed(spied: () => { mock: { calls: unknown[][] } }[]) {
    const run = (log: (step: Step) => void) => {
      const spies = spied()
      for (const step of REQUEST) log(step)
      const calls = spies.map((spy) => spy.mock.calls.map((args) => String(args[0])))
      vi.restoreAllMocks()
      return calls
    }
    const reference = new Logger({ serviceName: 'content-api', logLevel: 'DEBUG' })
    const ours = new JsonLogger(undefined, { ...SETTINGS, logLevel: 'DEBUG' })
    return {
      theirs: run((step) => step[0] !== 'context' && step[0] !== 'refresh' && reference[step[0]](step[1], step[2])),
      ours: run((step) => step[0] !== 'context' && step[0] !== 'refresh' && ours.print(step[0].toUpperCase() as 'INFO', step[1], step[2])),
    }
  }

  it('on stdout (info, debug) and stderr (error, warn), one line each', () => {
    const { ours, theirs } = printed(() => [vi.spyOn(process.stdout, 'write').mockReturnValue(true), vi.spyOn(process.stderr, 'write').mockReturnValue(true)])
    expect(theirs.map((calls) => calls.length)).toEqual([2, 2])
    expect(ours).toEqual(theirs)
  })

  it('in dev mode (POWERTOOLS_DEV), indented on the global console', () => {
    vi.stubEnv('POWERTOOLS_DEV', 'yes')
    const { ours, theirs } = printed(() => (['error', 'warn', 'info', 'debug'] as const).map((method) => vi.spyOn(console, method).mockImplementation(() => undefined)))
    expect(theirs.flat()[0]).toContain('\n    "message": "request"')
    expect(ours).toEqual(theirs)
  })
})
