// A webhook receiver for tests: a real HTTP server on loopback that records every request and
// answers with the status `respond` picks (200 by default; it can be changed while running).
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'

export interface Received {
  readonly headers: IncomingHttpHeaders
  readonly body: string
  readonly json: any
  readonly at: number
}

export interface Receiver {
  readonly url: string
  readonly port: number
  /** Requests answered with a 2xx, in arrival order. */
  readonly received: Received[]
  /** Requests answered with anything else. */
  readonly failures: Received[]
  /** The status of the next answers (the request is recorded whatever the status). */
  respond: (request: Received) => number
  /** Resolves once `count` requests came (rejects after `timeoutMs`). */
  waitFor(count: number, timeoutMs?: number): Promise<Received[]>
  close(): Promise<void>
}

export async function startReceiver(path = '/hook'): Promise<Receiver> {
  const received: Received[] = []
  const failures: Received[] = []
  const waiters: (() => void)[] = []
  const receiver: Receiver = {
    url: '',
    port: 0,
    received,
    failures,
    respond: () => 200,
    async waitFor(count, timeoutMs = 20_000) {
      const deadline = Date.now() + timeoutMs
      while (received.length < count) {
        if (Date.now() > deadline) throw new Error(`receiver got ${received.length} requests, expected ${count}`)
        await new Promise<void>((resolve) => {
          waiters.push(resolve)
          setTimeout(resolve, 200).unref()
        })
      }
      return received
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  }
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = []
    request.on('data', (chunk: Buffer) => chunks.push(chunk))
    request.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8')
      let json: unknown
      try {
        json = JSON.parse(body)
      } catch {
        json = undefined
      }
      const entry = { headers: request.headers, body, json, at: Date.now() }
      const status = receiver.respond(entry)
      if (status >= 200 && status < 300) received.push(entry)
      else failures.push(entry)
      response.writeHead(status, { 'content-type': 'text/plain' }).end('ok')
      waiters.splice(0).forEach((wake) => wake())
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const port = (server.address() as AddressInfo).port
  Object.assign(receiver, { url: `http://127.0.0.1:${port}${path}`, port })
  return receiver
}
