// The sign-in throttle of the admin web interface: every attempt is counted before its token is
// checked, per client address and over every client (lib/storage/sign-in-attempts.ts). Past the
// client's budget, or the global one (a guess spread over many addresses), an attempt is refused
// with the seconds left in that window, its token unchecked; the window's end never moves, so the
// operator can always sign in once it passes. A successful sign-in resets its client's count.
import type { Context } from 'hono'
import type { Config } from '../config.js'
import type { SignInAttemptStore } from '../storage/sign-in-attempts.js'

/** The counter of every client together. */
const EVERY_CLIENT = 'all'
const clientCounter = (client: string) => `client#${client}`

/**
 * The caller's address as the runtime saw it: API Gateway's source IP on Lambda (hono/aws-lambda
 * puts the event's requestContext in env), the socket's peer on the local server (@hono/node-server
 * puts the incoming request in env). Never a header a client could set. `unknown` when neither is
 * there (in-process requests).
 */
export function clientAddressOf(c: Context): string {
  const env = c.env as {
    requestContext?: { identity?: { sourceIp?: unknown }; http?: { sourceIp?: unknown } }
    incoming?: { socket?: { remoteAddress?: unknown } }
  } | undefined
  const address = env?.requestContext?.identity?.sourceIp ?? env?.requestContext?.http?.sourceIp ?? env?.incoming?.socket?.remoteAddress
  return typeof address === 'string' && address !== '' ? address : 'unknown'
}

export class SignInThrottle {
  constructor(
    private readonly attempts: SignInAttemptStore,
    private readonly settings: Config['signIn'],
    private readonly clock: () => number = Date.now,
  ) {}

  /**
   * Counts an attempt from `client`: undefined when it may go on to the token check, or the whole
   * seconds to wait (Retry-After) when a budget is spent. An attempt the global budget refuses is
   * taken back from its client's count (it checked nothing).
   */
  async admit(client: string): Promise<number | undefined> {
    const now = this.clock()
    const windowMs = this.settings.windowSeconds * 1000
    const own = await this.attempts.count(clientCounter(client), windowMs, now)
    if (own.n > this.settings.clientLimit) return secondsUntil(own.ends, now)
    const all = await this.attempts.count(EVERY_CLIENT, windowMs, now)
    if (all.n <= this.settings.globalLimit) return undefined
    await this.attempts.uncount(clientCounter(client), now)
    return secondsUntil(all.ends, now)
  }

  /** A sign-in with the right token: its client starts afresh, and it leaves the global count (it was no failure). */
  async succeeded(client: string): Promise<void> {
    await Promise.all([this.attempts.clear(clientCounter(client)), this.attempts.uncount(EVERY_CLIENT, this.clock())])
  }
}

function secondsUntil(ends: number, now: number): number {
  return Math.max(1, Math.ceil((ends - now) / 1000))
}
