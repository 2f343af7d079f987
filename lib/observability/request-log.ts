// One structured JSON line per request, written when it ends: time, request id, method, route
// pattern, status, duration, DynamoDB usage, and for a 5xx the error with its cause. Never a
// header, a query string, a body or a raw path, so no token or key can reach the log.
import { randomUUID } from 'node:crypto'
import type { Context, MiddlewareHandler } from 'hono'
import { routePath } from 'hono/route'
import { ApiError } from '../errors.js'
import { countingUsage, emptyUsage } from './dynamo-usage.js'

/** Writes one log line (a JSON object, no newline). */
export type LogWriter = (line: string) => void

/** One line on stdout: Lambda keeps a JSON line as it is (loggingFormat JSON), a terminal shows it. */
export const stdoutLog: LogWriter = (line) => {
  process.stdout.write(`${line}\n`)
}

/** The Lambda request id when running on Lambda (hono/aws-lambda puts the context in env), else a new one. */
function requestIdOf(c: Context): string {
  const env = c.env as { lambdaContext?: { awsRequestId?: unknown } } | undefined
  const id = env?.lambdaContext?.awsRequestId
  return typeof id === 'string' ? id : randomUUID()
}

/** The route pattern that answered; null when none did (an unknown path). */
function routeOf(c: Context): string | null {
  const path = routePath(c)
  return path === '' || path === '*' || path === '/*' ? null : path
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

/** The request log middleware; `write` receives each line (tests capture them). */
export function requestLog(write: LogWriter = stdoutLog): MiddlewareHandler {
  return async (c, next) => {
    const started = performance.now()
    const usage = emptyUsage()
    await countingUsage(usage, next)
    const status = c.res.status
    const failed = status >= 500
    write(JSON.stringify({
      timestamp: new Date().toISOString(),
      level: failed ? 'ERROR' : 'INFO',
      requestId: requestIdOf(c),
      message: 'request',
      method: c.req.method,
      route: routeOf(c),
      status,
      durationMs: Math.round((performance.now() - started) * 10) / 10,
      dynamodb: { calls: usage.calls, rcu: usage.rcu, wcu: usage.wcu, ...(usage.failures.length > 0 ? { failures: usage.failures } : {}) },
      ...(failed && c.error !== undefined ? { error: describeError(c.error) } : {}),
    }))
  }
}
