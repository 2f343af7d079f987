// A real HTTP server on loopback for tests that need one (the CLI, client libraries, streaming).
import type { Hono } from 'hono'
import { portOf, serveOnLoopback } from '../../lib/local/serve.js'

export interface TestServer {
  readonly url: string
  close(): Promise<void>
}

/** Serves `app` on 127.0.0.1 on a free port, with the same server options as `npm start`. */
export async function startServer(app: Hono): Promise<TestServer> {
  const server = await serveOnLoopback(app, 0)
  return {
    url: `http://127.0.0.1:${portOf(server)}`,
    close: () => new Promise((done) => {
      server.close(() => done())
      server.closeAllConnections()
    }),
  }
}
