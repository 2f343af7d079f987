// The Node HTTP server of local runs and tests, on loopback.
import type { Server } from 'node:http'
import { createServer, type AddressInfo } from 'node:net'
import { serve } from '@hono/node-server'
import type { Hono } from 'hono'

/**
 * Largest request head Node accepts (default 16 KiB). Well past the API's own query-string limit,
 * so a long query gets the app's 414 envelope rather than Node's bare 431.
 */
export const MAX_HEADER_BYTES = 128 * 1024

/**
 * Serves `app` on `hostname`:`port` (0: a free one; 127.0.0.1 unless a container asks for its own
 * interface); resolves with the server once it listens.
 */
export function serveOnLoopback(app: Hono, port: number, hostname = '127.0.0.1'): Promise<Server> {
  return new Promise((resolve, reject) => {
    const server = serve({ fetch: app.fetch, hostname, port, serverOptions: { maxHeaderSize: MAX_HEADER_BYTES } }, () => resolve(server as Server))
    server.once('error', reject)
  })
}

/** The port a listening server is bound to. */
export function portOf(server: Server): number {
  return (server.address() as AddressInfo).port
}

/** Resolves when `port` can be listened on at `hostname`; rejects naming the port when it is taken. */
export function checkPortFree(port: number, hostname = '127.0.0.1'): Promise<void> {
  return new Promise((resolve, reject) => {
    const probe = createServer()
    probe.once('error', (error: NodeJS.ErrnoException) => reject(error.code === 'EADDRINUSE'
      ? new Error(`port ${port} on ${hostname} is already in use: stop what listens there, or set PORT to another port`)
      : error.code === 'EADDRNOTAVAIL' ? new Error(`HOST='${hostname}' is not an address of this machine: unset it (127.0.0.1), or set 0.0.0.0 in a container`) : error))
    probe.listen(port, hostname, () => probe.close(() => resolve()))
  })
}
