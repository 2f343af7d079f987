// The webhooks' settings and their delivery log, as the admin API, the CLI and the admin interface
// use them (integration.md §20): header values are write-only (shown back as null), the signing
// secret is shown once, at creation. One attempt of a message (`attempt`) is shared with the
// stream consumer, so a test, a redelivery and an event are sent and logged alike.
import { randomUUID } from 'node:crypto'
import type { Config } from '../config.js'
import { notFound } from '../errors.js'
import type { DeliveryAttempt, StoredWebhook, WebhookStore } from '../storage/webhooks.js'
import { systemResolver, urlProblem, type Resolver } from './addresses.js'
import { deliveryHeaders, TEST_EVENT, type Message } from './messages.js'
import { send, type SendResult } from './send.js'
import { newSecret } from './signature.js'
import { fieldProblem, type NewWebhook, type WebhookChange } from './validation.js'

/** A webhook as the API shows it: header names only, never their values or the secret. */
export interface WebhookView {
  readonly id: number
  readonly name: string
  readonly url: string
  readonly headers: Record<string, null>
  readonly events: readonly string[]
  readonly isEnabled: boolean
  readonly createdAt: string
  readonly updatedAt: string
}

export type WebhookSettings = Config['webhooks']

export class WebhookService {
  constructor(
    private readonly store: WebhookStore,
    readonly settings: WebhookSettings,
    private readonly resolve: Resolver = systemResolver,
    private readonly now: () => number = Date.now,
  ) {}

  async list(): Promise<WebhookView[]> {
    return (await this.store.list()).map(view)
  }

  /** Every webhook as stored (secrets included): for the stream consumer only. */
  listStored(): Promise<StoredWebhook[]> {
    return this.store.list()
  }

  /** One webhook as stored, or undefined once deleted: read before each attempt of a queued message. */
  storedOrGone(id: number): Promise<StoredWebhook | undefined> {
    return this.store.get(id)
  }

  /** The store, for the stream consumer's reads (current items, local cursors). */
  get storage(): WebhookStore {
    return this.store
  }

  async get(id: number): Promise<WebhookView> {
    return view(await this.stored(id))
  }

  async create(input: NewWebhook): Promise<WebhookView & { secret: string }> {
    this.checkUrl(input.url)
    const at = new Date(this.now()).toISOString()
    const stored = await this.store.create({ name: input.name, url: input.url, headers: input.headers ?? {}, events: input.events, isEnabled: input.isEnabled ?? true, secret: newSecret(), createdAt: at, updatedAt: at })
    return { ...view(stored), secret: stored.secret }
  }

  /** Changes what `change` names; a header given as null keeps its stored value, one left out is removed. */
  async update(id: number, change: WebhookChange): Promise<WebhookView> {
    const current = await this.stored(id)
    if (change.url !== undefined) this.checkUrl(change.url)
    const headers = change.headers === undefined ? current.headers : Object.fromEntries(Object.entries(change.headers).flatMap(([name, value]) => {
      const kept = value ?? Object.entries(current.headers).find(([stored]) => stored.toLowerCase() === name.toLowerCase())?.[1]
      if (kept === undefined) throw fieldProblem(['headers', name], 'has no stored value to keep: give its value')
      return [[name, kept]]
    }))
    const next: StoredWebhook = {
      ...current,
      ...(change.name === undefined ? {} : { name: change.name }),
      ...(change.url === undefined ? {} : { url: change.url }),
      ...(change.events === undefined ? {} : { events: change.events }),
      ...(change.isEnabled === undefined ? {} : { isEnabled: change.isEnabled }),
      headers,
      updatedAt: new Date(this.now()).toISOString(),
    }
    if (!(await this.store.update(next))) throw notFound()
    return view(next)
  }

  async remove(id: number): Promise<void> {
    if (!(await this.store.delete(id))) throw notFound()
  }

  /** Sends a `trigger-test` message once (enabled or not) and logs it. */
  async test(id: number): Promise<SendResult> {
    const webhook = await this.stored(id)
    const body = JSON.stringify({ event: TEST_EVENT, createdAt: new Date(this.now()).toISOString() })
    return this.attempt(webhook, { messageId: `msg_${randomUUID()}`, webhookId: id, group: `${id}#test`, event: TEST_EVENT, body }, false)
  }

  /** The last logged attempts, newest first, without their bodies. */
  async attempts(id: number): Promise<Omit<DeliveryAttempt, 'body'>[]> {
    await this.stored(id)
    return (await this.store.attempts(id)).map(({ body: _, ...attempt }) => attempt)
  }

  /** Sends a logged attempt's message again, once, with its `webhook-id`. */
  async redeliver(id: number, seq: number): Promise<SendResult> {
    const webhook = await this.stored(id)
    const logged = (await this.store.attempts(id)).find((attempt) => attempt.seq === seq)
    if (logged?.body === undefined) throw notFound()
    return this.attempt(webhook, { messageId: logged.messageId, webhookId: id, group: `${id}#redeliver`, event: logged.event, body: logged.body }, false)
  }

  /**
   * One attempt of `message` to `webhook`, logged; `retrying` says another attempt follows a
   * failure (the log shows `retrying` rather than `failed`).
   */
  async attempt(webhook: StoredWebhook, message: Message, retrying: boolean): Promise<SendResult> {
    const at = this.now()
    // The URL rules are checked again at delivery: a setting may have changed since it was saved.
    const refused = urlProblem(webhook.url, this.settings)
    const outcome: SendResult = refused !== undefined
      ? { statusCode: null, durationMs: 0, error: `refused: url ${refused}` }
      : await send(webhook.url, deliveryHeaders(webhook, message, at), message.body, { ...this.settings, resolve: this.resolve })
    await this.store.logAttempt(webhook.id, {
      messageId: message.messageId, event: message.event, at: new Date(at).toISOString(), statusCode: outcome.statusCode, durationMs: outcome.durationMs,
      error: outcome.error, outcome: outcome.error === null ? 'delivered' : retrying ? 'retrying' : 'failed', body: message.body,
    })
    return outcome
  }

  private async stored(id: number): Promise<StoredWebhook> {
    const webhook = await this.store.get(id)
    if (webhook === undefined) throw notFound()
    return webhook
  }

  private checkUrl(url: string): void {
    const problem = urlProblem(url, this.settings)
    if (problem !== undefined) throw fieldProblem(['url'], problem)
  }
}

function view(webhook: StoredWebhook): WebhookView {
  const { secret: _, headers, ...rest } = webhook
  return { ...rest, headers: Object.fromEntries(Object.keys(headers).map((name) => [name, null])), events: [...webhook.events] }
}
