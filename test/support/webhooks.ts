// Webhooks in tests: a context whose receivers may be on loopback over http, with a short retry
// schedule (set through the configuration, as a deployment would), and the local stream consumer
// running on its table.
import { startWebhookStream, type WebhookStream } from '../../lib/local/webhook-stream.js'
import type { BlobStore } from '../../lib/media/blobs.js'
import { createTestContext, withStream, type TestContext } from './context.js'

export interface WebhookContext extends TestContext {
  readonly stream: WebhookStream
  /** Creates a webhook through the admin API; answers it with its secret. */
  hook(url: string, events: string[]): Promise<{ id: number; secret: string }>
  /** The webhook's delivery log (newest first), read again until `done` holds or 15 s pass: an
   * attempt is logged after its receiver has answered, so a test that saw the answer waits. */
  deliveries<T extends object>(id: number, done: (log: T[]) => boolean): Promise<T[]>
}

export async function createWebhookContext(retry: { firstRetryMs?: number; maxRetryDelayMs?: number; retryForMs?: number } = {}, blobs?: BlobStore): Promise<WebhookContext> {
  const ctx = await withStream(await createTestContext({ webhooks: { allowInsecure: true, allowPrivate: true, firstRetryMs: 200, maxRetryDelayMs: 1000, ...retry } } as never, {}, undefined, blobs))
  const stream = await startWebhookStream({ db: ctx.db, tableName: ctx.config.tableName, types: ctx.services.types, service: ctx.services.webhooks, idleMs: 50, onError: (error) => console.error('webhook stream', error) })
  const hook: WebhookContext['hook'] = async (url, events) => {
    const response = await ctx.admin('POST', '/admin/webhooks', { name: 'test', url, events })
    if (response.status !== 201) throw new Error(`webhook creation failed: ${response.status} ${await response.text()}`)
    return ((await response.json()) as { data: { id: number; secret: string } }).data
  }
  const deliveries: WebhookContext['deliveries'] = async (id, done) => {
    const deadline = Date.now() + 15_000
    for (;;) {
      const log = ((await (await ctx.admin('GET', `/admin/webhooks/${id}/deliveries`)).json()) as { data: never[] }).data
      if (done(log) || Date.now() > deadline) return log
      await new Promise((resolve) => setTimeout(resolve, 100))
    }
  }
  return { ...ctx, stream, hook, deliveries }
}
