// One structured JSON line per request, written when it ends, in AWS Lambda Powertools' Logger
// format (its keys: level, message, timestamp, service, sampling_rate, xray_trace_id, and on
// Lambda cold_start, function_name, function_request_id, ...): method, route pattern, status,
// duration, DynamoDB usage, and for a 5xx the error with its cause. The same line carries the
// request's CloudWatch metrics in Embedded Metric Format (Powertools' Metrics): requests, server
// errors, latency, RCU and WCU, so no second line is written. At DEBUG (always, or for a sampled
// share of requests) a second line lists each DynamoDB call. Never a header, a query string, a
// body or a raw path, so no token or key can reach the log.
//
// The logger (json-logger.ts) decides the level (sampling, Lambda's log level control), keeps the
// invocation's context and cold start, and writes the 5xx and DEBUG lines. The line of every
// other request, the hot path, is made by request-line.ts from a template of the same format.
import { randomUUID } from 'node:crypto'
import type { Context, MiddlewareHandler } from 'hono'
import { routePath } from 'hono/route'
import { ApiError } from '../errors.js'
import { countingUsage, emptyUsage } from './dynamo-usage.js'
import { JsonLogger, LOG_LEVELS, type LambdaContext, type LogWriter } from './json-logger.js'
import { isDevMode, utcTimestamps, xrayTraceId } from './log-environment.js'
import { metricDefinitions, requestLineMaker, requestMetrics, type RequestFields } from './request-line.js'

export type { LogWriter } from './json-logger.js'

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

/** The Lambda context when running on Lambda (hono/aws-lambda puts it in env). */
function lambdaContextOf(c: Context): LambdaContext | undefined {
  const context = (c.env as { lambdaContext?: { awsRequestId?: unknown } } | undefined)?.lambdaContext
  return typeof context?.awsRequestId === 'string' ? (context as LambdaContext) : undefined
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
 * Whether the line of an answered request is made from the template: unless the logger would
 * format it otherwise, with a timestamp in a local time zone (TZ) or indented on the console
 * (POWERTOOLS_DEV). Read once, as the logger reads its own settings.
 */
function templatedLines(write: LogWriter | undefined): boolean {
  return utcTimestamps() && (write !== undefined || !isDevMode())
}

/** The request log middleware: lines to `write` when given, else to stdout (a 5xx to stderr) as Powertools writes them. */
export function requestLog(write?: LogWriter, settings: LogSettings = DEFAULT_LOG_SETTINGS): MiddlewareHandler {
  const logger = new JsonLogger(write, settings)
  const definitions = metricDefinitions(settings.metricsNamespace, settings.serviceName)
  const templated = templatedLines(write)
  const lineOf = requestLineMaker(settings.serviceName, settings.debugSampleRate, definitions)
  return async (c, next) => {
    const started = performance.now()
    const usage = emptyUsage()
    const lambda = lambdaContextOf(c)
    if (lambda !== undefined) logger.addContext(lambda)
    // Sampling is decided per request: a sampled one logs at DEBUG whatever the level.
    if (settings.debugSampleRate > 0) logger.refreshSampling()
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
    if (status >= 500) {
      // The metrics' `service` dimension is the line's own `service` key.
      logger.print('ERROR', 'request', { ...fields, ...requestMetrics(definitions, fields, now.getTime()) })
    } else if (!templated) {
      logger.print('INFO', 'request', { ...fields, ...requestMetrics(definitions, fields, now.getTime()) })
    } else if (logger.level <= LOG_LEVELS.INFO) {
      logger.printMade('INFO', lineOf(fields, now, lambda === undefined ? undefined : logger.context, xrayTraceId()))
    }
    logger.print('DEBUG', 'dynamodb calls', { calls: usage.trace })
  }
}
