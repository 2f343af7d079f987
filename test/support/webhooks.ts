// Webhooks in tests: a context whose receivers may be on loopback over http, with a short retry
// schedule (set through the configuration, as a deployment would), and the local stream consumer
// running on its table.
import { startWebhookStream, type WebhookStream } from '../../lib/local/webhook-stream.js'
import { createTestContext, type TestContext } from './context.js'

export interface WebhookContext extends TestContext {
  readonly stream: WebhookStream
  /** Creates a webhook through the admin API; answers it with its secret. */
  hook(url: string, events: string[]): Promise<{ id: number; secret: string }>
}

export async function createWebhookContext(retry: { firstRetryMs?: number; maxRetryDelayMs?: number; retryForMs?: number } = {}): Promise<WebhookContext> {
  const ctx = await createTestContext({ webhooks: { allowInsecure: true, allowPrivate: true, firstRetryMs: 200, maxRetryDelayMs: 1000, ...retry } } as never)
  const stream = await startWebhookStream({ db: ctx.db, tableName: ctx.config.tableName, types: ctx.services.types, service: ctx.services.webhooks, idleMs: 50, onError: (error) => console.error('webhook stream', error) })
  const hook: WebhookContext['hook'] = async (url, events) => {
    const response = await ctx.admin('POST', '/admin/webhooks', { name: 'test', url, events })
    if (response.status !== 201) throw new Error(`webhook creation failed: ${response.status} ${await response.text()}`)
    return ((await response.json()) as { data: { id: number; secret: string } }).data
  }
  return { ...ctx, stream, hook }
}
