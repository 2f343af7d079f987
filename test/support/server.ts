// A real HTTP server on loopback for tests that need one (the CLI, client libraries).
import type { AddressInfo } from 'node:net'
import { serve } from '@hono/node-server'
import type { Hono } from 'hono'

export interface TestServer {
  readonly url: string
  close(): Promise<void>
}

/** Serves `app` on 127.0.0.1 on a free port. */
export function startServer(app: Hono): Promise<TestServer> {
  return new Promise((resolve) => {
    const server = serve({ fetch: app.fetch, hostname: '127.0.0.1', port: 0 }, () => {
      resolve({
        url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
        close: () => new Promise((done) => server.close(() => done())),
      })
    })
  })
}
