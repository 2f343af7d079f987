// One structured JSON line per request, written when it ends, by AWS Lambda Powertools' Logger
// (its keys: level, message, timestamp, service, sampling_rate, xray_trace_id, and on Lambda
// cold_start, function_name, function_request_id, ...): method, route pattern, status, duration,
// DynamoDB usage, and for a 5xx the error with its cause. The same line carries the request's
// CloudWatch metrics in Embedded Metric Format (Powertools' Metrics): requests, server errors,
// latency, RCU and WCU, so no second line is written. At DEBUG (always, or for a sampled share of
// requests) a second line lists each DynamoDB call. Never a header, a query string, a body or a
// raw path, so no token or key can reach the log.
import { randomUUID } from 'node:crypto'
import { Logger, type LogItem } from '@aws-lambda-powertools/logger'
import { MetricUnit, Metrics } from '@aws-lambda-powertools/metrics'
import type { Context, MiddlewareHandler } from 'hono'
import { routePath } from 'hono/route'
import { ApiError } from '../errors.js'
import { countingUsage, emptyUsage } from './dynamo-usage.js'

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

/** A Powertools Logger that hands its lines to `write` (its own Console otherwise writes to stdout). */
class WriterLogger extends Logger {
  /** The writer of the instance being constructed: Logger's constructor may already log (sampling at DEBUG). */
  private static constructing: LogWriter | undefined
  private readonly write: LogWriter

  constructor(write: LogWriter, options: ConstructorParameters<typeof Logger>[0]) {
    WriterLogger.constructing = write
    super(options)
    this.write = write
  }

  protected override printLog(_level: number, log: LogItem): void {
    log.prepareForPrint()
    ;(this.write ?? WriterLogger.constructing)(JSON.stringify(log.getAttributes(), this.getJsonReplacer()))
  }
}

/** The Lambda context when running on Lambda (hono/aws-lambda puts it in env). */
function lambdaContextOf(c: Context): { awsRequestId: string } | undefined {
  const context = (c.env as { lambdaContext?: { awsRequestId?: unknown } } | undefined)?.lambdaContext
  return typeof context?.awsRequestId === 'string' ? (context as { awsRequestId: string }) : undefined
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

/** The request log middleware: lines to `write` when given, else to stdout as Powertools writes them. */
export function requestLog(write?: LogWriter, settings: LogSettings = DEFAULT_LOG_SETTINGS): MiddlewareHandler {
  const options = { serviceName: settings.serviceName, logLevel: settings.logLevel, sampleRateValue: settings.debugSampleRate }
  const logger = write === undefined ? new Logger(options) : new WriterLogger(write, options)
  const metrics = new Metrics({ namespace: settings.metricsNamespace, serviceName: settings.serviceName })
  return async (c, next) => {
    const started = performance.now()
    const usage = emptyUsage()
    const lambda = lambdaContextOf(c)
    if (lambda !== undefined) logger.addContext(lambda as Parameters<Logger['addContext']>[0])
    // Sampling is decided per request: a sampled one logs at DEBUG whatever the level.
    if (settings.debugSampleRate > 0) logger.refreshSampleRateCalculation()
    await countingUsage(usage, next)
    const status = c.res.status
    const failed = status >= 500
    const durationMs = Math.round((performance.now() - started) * 10) / 10
    metrics.addMetric('Requests', MetricUnit.Count, 1)
    metrics.addMetric('ServerErrors', MetricUnit.Count, failed ? 1 : 0)
    metrics.addMetric('Latency', MetricUnit.Milliseconds, durationMs)
    metrics.addMetric('ConsumedRCU', MetricUnit.Count, usage.rcu)
    metrics.addMetric('ConsumedWCU', MetricUnit.Count, usage.wcu)
    // The metrics' `service` dimension is the line's own `service` key, already there.
    const { service: _service, ...emf } = metrics.serializeMetrics()
    metrics.clearMetrics()
    const fields = {
      ...(lambda === undefined ? { request_id: randomUUID() } : {}),
      method: c.req.method,
      route: routeOf(c),
      status,
      durationMs,
      dynamodb: { calls: usage.calls, rcu: usage.rcu, wcu: usage.wcu, ...(usage.failures.length > 0 ? { failures: usage.failures } : {}) },
      ...(failed && c.error !== undefined ? { error: describeError(c.error) } : {}),
      ...emf,
    }
    if (failed) logger.error('request', fields)
    else logger.info('request', fields)
    logger.debug('dynamodb calls', { calls: usage.trace })
  }
}
