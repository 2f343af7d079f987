// One structured JSON line per request, written when it ends, in AWS Lambda Powertools' Logger
// format (its keys: level, message, timestamp, service, sampling_rate, xray_trace_id, and on
// Lambda cold_start, function_name, function_request_id, ...): method, route pattern, status,
// duration, DynamoDB usage, and for a 5xx the error with its cause. The same line carries the
// request's CloudWatch metrics in Embedded Metric Format (Powertools' Metrics): requests, server
// errors, latency, RCU and WCU, so no second line is written. At DEBUG (always, or for a sampled
// share of requests) a second line lists each DynamoDB call. Never a header, a query string, a
// body or a raw path, so no token or key can reach the log.
//
// The Logger decides the level (sampling, Lambda's log level controls), keeps the invocation's
// context and cold start, and writes the 5xx and DEBUG lines. The line of every other request,
// the hot path, is made by request-line.ts in the same format for a sixth of the Logger's cost.
import { Console } from 'node:console'
import { randomUUID } from 'node:crypto'
import { getXRayTraceIdFromEnv, isDevMode } from '@aws-lambda-powertools/commons/utils/env'
import { LogLevelThreshold, Logger, type LogItem } from '@aws-lambda-powertools/logger'
import type { Context, MiddlewareHandler } from 'hono'
import { routePath } from 'hono/route'
import { ApiError } from '../errors.js'
import { countingUsage, emptyUsage } from './dynamo-usage.js'
import { metricDefinitions, requestLineMaker, requestMetrics, type LambdaKeys, type RequestFields } from './request-line.js'

/** Receives each log line (a JSON object, no newline) instead of stdout: tests capture them. */
export type LogWriter = (line: string) => void

/** How the request log is set up (from POWERTOOLS_* variables at the entry point). */
export interface LogSettings {
  /** `service` of every line and the metrics' dimension. */
  readonly serviceName: string
  /** Lowest level written: DEBUG, INFO, WARN, ERROR. */
  readonly logLevel: 'DEBUG' | 'INFO' | 'WARN' | 'ERROR'
  /** Share of requests (0 to 1) whose DEBUG lines are written whatever the level. */
  readonly debugSampleRate: number
  /** CloudWatch namespace of the metrics. */
  readonly metricsNamespace: string
}

export const DEFAULT_LOG_SETTINGS: LogSettings = { serviceName: 'content-api', logLevel: 'INFO', debugSampleRate: 0, metricsNamespace: 'LocalizedContentApi' }

/** The Lambda context as hono/aws-lambda passes it (the keys Powertools' Logger reads). */
interface LambdaContext {
  readonly awsRequestId: string
  readonly invokedFunctionArn?: string
  readonly memoryLimitInMB?: string | number
  readonly functionName?: string
  readonly tenantId?: string
}

/** A Powertools Logger that hands its lines to `write` when given, and tells the cold start it saw. */
class RequestLogger extends Logger {
  /** The writer of the instance being constructed: Logger's constructor may already log (sampling at DEBUG). */
  private static constructing: LogWriter | undefined
  private readonly write: LogWriter | undefined
  /** Whether the last `addContext` was the instance's cold start, as Powertools decided it. */
  lastColdStart = false

  constructor(write: LogWriter | undefined, options: ConstructorParameters<typeof Logger>[0]) {
    RequestLogger.constructing = write
    super(options)
    this.write = write
    RequestLogger.constructing = undefined
  }

  protected override getColdStart(): boolean {
    this.lastColdStart = super.getColdStart()
    return this.lastColdStart
  }

  protected override printLog(level: number, log: LogItem): void {
    const write = this.write ?? RequestLogger.constructing
    if (write === undefined) return super.printLog(level, log)
    log.prepareForPrint()
    write(JSON.stringify(log.getAttributes(), this.getJsonReplacer()))
  }
}

/** The Lambda context when running on Lambda (hono/aws-lambda puts it in env). */
function lambdaContextOf(c: Context): LambdaContext | undefined {
  const context = (c.env as { lambdaContext?: { awsRequestId?: unknown } } | undefined)?.lambdaContext
  return typeof context?.awsRequestId === 'string' ? (context as LambdaContext) : undefined
}

/** The keys the Logger's formatter makes of a Lambda context. */
function lambdaKeys(lambda: LambdaContext, coldStart: boolean): LambdaKeys {
  return {
    cold_start: coldStart, function_arn: lambda.invokedFunctionArn, function_memory_size: lambda.memoryLimitInMB,
    function_name: lambda.functionName, function_request_id: lambda.awsRequestId, tenant_id: lambda.tenantId,
  }
}

/** The route pattern that answered; undefined (no `route` key) when none did (an unknown path). */
function routeOf(c: Context): string | undefined {
  const path = routePath(c)
  return path === '' || path === '*' || path === '/*' ? undefined : path
}

/** An error as a log field: name, message, stack, and its cause chain (a few levels). */
function describeError(error: unknown, depth = 0): Record<string, unknown> {
  if (!(error instanceof Error)) return { message: String(error) }
  const name = error instanceof ApiError ? error.errorName : error.name
  const described: Record<string, unknown> = { name, message: error.message }
  if (!(error instanceof ApiError)) described.stack = error.stack
  if (error.cause !== undefined && depth < 3) described.cause = describeError(error.cause, depth + 1)
  return described
}

/**
 * Writes the line of an answered request itself, or leaves it to the Logger when the Logger would
 * format it otherwise: a timestamp in a local time zone (TZ), or indented lines on the console
 * (POWERTOOLS_DEV). Read once, as the Logger reads its own settings.
 */
function fastLineWriter(write: LogWriter | undefined): LogWriter | undefined {
  const tz = process.env.TZ
  if (tz !== undefined && tz !== '' && !tz.includes('UTC')) return undefined
  if (write !== undefined) return write
  if (isDevMode()) return undefined
  // What the Logger writes to outside dev mode: a Console of its own on stdout, not Lambda's console.
  // Without colours (a line is one string, which no colour mode changes), it does not read the
  // colour variables of the environment on every line.
  const output = new Console({ stdout: process.stdout, stderr: process.stderr, colorMode: false })
  return (line) => output.info(line)
}

/** The request log middleware: lines to `write` when given, else to stdout as Powertools writes them. */
export function requestLog(write?: LogWriter, settings: LogSettings = DEFAULT_LOG_SETTINGS): MiddlewareHandler {
  const logger = new RequestLogger(write, { serviceName: settings.serviceName, logLevel: settings.logLevel, sampleRateValue: settings.debugSampleRate })
  const definitions = metricDefinitions(settings.metricsNamespace, settings.serviceName)
  const writeLine = fastLineWriter(write)
  const lineOf = requestLineMaker(settings.serviceName, settings.debugSampleRate, definitions)
  // Only the sampling below sets the Logger's level; without it the level is the initial one, which
  // the Logger would otherwise look up through the environment on every request.
  const fixedLevel = settings.debugSampleRate > 0 ? undefined : logger.level
  return async (c, next) => {
    const started = performance.now()
    const usage = emptyUsage()
    const lambda = lambdaContextOf(c)
    if (lambda !== undefined) logger.addContext(lambda as unknown as Parameters<Logger['addContext']>[0])
    // Sampling is decided per request: a sampled one logs at DEBUG whatever the level.
    if (settings.debugSampleRate > 0) logger.refreshSampleRateCalculation()
    await countingUsage(usage, next)
    const now = new Date()
    const status = c.res.status
    const fields: RequestFields = {
      request_id: lambda === undefined ? randomUUID() : undefined,
      method: c.req.method,
      route: routeOf(c),
      status,
      durationMs: Math.round((performance.now() - started) * 10) / 10,
      dynamodb: { calls: usage.calls, rcu: usage.rcu, wcu: usage.wcu, failures: usage.failures.length > 0 ? usage.failures : undefined },
      error: status >= 500 && c.error !== undefined ? describeError(c.error) : undefined,
    }
    const level = fixedLevel ?? logger.level
    if (status >= 500) {
      // The metrics' `service` dimension is the line's own `service` key.
      logger.error('request', { ...fields, ...requestMetrics(definitions, fields, now.getTime()) })
    } else if (writeLine === undefined) {
      logger.info('request', { ...fields, ...requestMetrics(definitions, fields, now.getTime()) })
    } else if (level <= LogLevelThreshold.INFO) {
      writeLine(lineOf(fields, now, lambda === undefined ? undefined : lambdaKeys(lambda, logger.lastColdStart), getXRayTraceIdFromEnv()))
    }
    if (level <= LogLevelThreshold.DEBUG) logger.debug('dynamodb calls', { calls: usage.trace })
  }
}
