// One delivery attempt over HTTP(S): a POST to the webhook's URL, connected to an address checked
// by addresses.ts, given 10 s in all, redirects not followed (a 3xx is a failure), and at most
// 1 KB of the answer read.
import { request as httpRequest, type IncomingMessage } from 'node:http'
import { request as httpsRequest } from 'node:https'
import type { LookupFunction } from 'node:net'
import { hostOf, pickAddress, type AddressRules, type Resolver } from './addresses.js'

/** A 2xx within this time is a success (integration.md §20). */
export const DELIVERY_TIMEOUT_MS = 10_000
/** Most of an answer read. */
const MAX_ANSWER_BYTES = 1024

export interface SendResult {
  readonly statusCode: number | null
  readonly durationMs: number
  /** Null on a 2xx; otherwise what went wrong, for the delivery log. */
  readonly error: string | null
}

export interface SendOptions extends AddressRules {
  readonly resolve: Resolver
  readonly timeoutMs?: number
}

/** POSTs `body` with `headers` to `url`; never throws. */
export async function send(url: string, headers: Record<string, string>, body: string, options: SendOptions): Promise<SendResult> {
  const started = performance.now()
  const elapsed = () => Math.round(performance.now() - started)
  try {
    const target = new URL(url)
    const picked = await pickAddress(hostOf(target), options, options.resolve)
    // The connection goes to the address just checked, whatever a second lookup would say.
    const lookup: LookupFunction = (_host, lookupOptions, callback) => {
      if ((lookupOptions as { all?: boolean }).all === true) (callback as unknown as (e: null, a: { address: string; family: number }[]) => void)(null, [picked])
      else callback(null, picked.address, picked.family)
    }
    const statusCode = await post(target, { ...headers, 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)) }, body, lookup, options.timeoutMs ?? DELIVERY_TIMEOUT_MS)
    const ok = statusCode >= 200 && statusCode < 300
    return { statusCode, durationMs: elapsed(), error: ok ? null : statusCode >= 300 && statusCode < 400 ? `HTTP ${statusCode}: redirects are not followed` : `HTTP ${statusCode}` }
  } catch (error) {
    return { statusCode: null, durationMs: elapsed(), error: (error as Error).message }
  }
}

function post(url: URL, headers: Record<string, string>, body: string, lookup: LookupFunction, timeoutMs: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const request = (url.protocol === 'https:' ? httpsRequest : httpRequest)(url, { method: 'POST', headers, lookup, agent: false }, (response: IncomingMessage) => {
      // The status decides; the answer's body is read to MAX_ANSWER_BYTES at most, then dropped.
      clearTimeout(timer)
      resolve(response.statusCode ?? 0)
      let read = 0
      response.on('data', (chunk: Buffer) => {
        read += chunk.length
        if (read >= MAX_ANSWER_BYTES) response.destroy()
      })
      response.on('error', () => undefined)
      setTimeout(() => response.destroy(), 1000).unref()
    })
    const timer = setTimeout(() => request.destroy(new Error(`no answer within ${timeoutMs / 1000} s`)), timeoutMs)
    request.on('error', (error) => {
      clearTimeout(timer)
      reject(error)
    })
    request.end(body)
  })
}
