// The retry schedule of a failed delivery (integration.md §20): the first retry after
// `firstRetryMs` (at most 10 s), each next delay doubled up to `maxRetryDelayMs`, for `retryForMs`
// (24 h by default) since the first attempt; then the message is kept as failed.
import type { Config } from '../config.js'

export type RetrySettings = Pick<Config['webhooks'], 'firstRetryMs' | 'maxRetryDelayMs' | 'retryForMs'>

/** The delay before attempt `attempt + 1` (attempt 1 is the first), or undefined when it is time to give up. */
export function retryDelay(settings: RetrySettings, attempt: number, firstAttemptAt: number, now: number): number | undefined {
  if (now - firstAttemptAt >= settings.retryForMs) return undefined
  const doubling = settings.firstRetryMs * 2 ** Math.min(attempt - 1, 40)
  return Math.min(doubling, settings.maxRetryDelayMs)
}
