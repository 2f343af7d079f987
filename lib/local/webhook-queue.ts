// `npm start`'s delivery queue (the SQS FIFO queue's part on AWS): messages of one group (a
// webhook and a document) are delivered one after another in stream order, each retried on the
// schedule of integration.md §20 until delivered or given up, while other groups go on.
import type { Message } from '../webhooks/messages.js'
import { retryDelay, type RetrySettings } from '../webhooks/schedule.js'
import type { WebhookService } from '../webhooks/service.js'

interface Queued {
  readonly message: Message
  readonly done: () => void
}

/** Attempts in flight at once, over all groups. */
const CONCURRENCY = 16

export class DeliveryQueue {
  private readonly groups = new Map<string, Queued[]>()
  private readonly timers = new Set<NodeJS.Timeout>()
  private readonly waiting: (() => void)[] = []
  private active = 0
  private stopped = false

  constructor(
    private readonly service: WebhookService,
    private readonly schedule: RetrySettings,
    private readonly now: () => number = Date.now,
  ) {}

  /** Queues `messages` behind their groups' earlier ones; resolves once each is delivered, given up, or its webhook gone. */
  enqueue(messages: readonly Message[]): Promise<void> {
    return Promise.all(messages.map((message) => new Promise<void>((done) => {
      const group = this.groups.get(message.group)
      if (group !== undefined) return void group.push({ message, done })
      this.groups.set(message.group, [{ message, done }])
      void this.drain(message.group)
    }))).then(() => undefined)
  }

  /** Stops at once: no further attempt starts (what was not delivered is read from the stream again after a restart). */
  stop(): void {
    this.stopped = true
    for (const timer of this.timers) clearTimeout(timer)
    this.waiting.splice(0).forEach((wake) => wake())
  }

  private async drain(name: string): Promise<void> {
    const group = this.groups.get(name)!
    while (group.length > 0 && !this.stopped) {
      const { message, done } = group[0]!
      await this.deliver(message)
      group.shift()
      done()
    }
    if (group.length === 0) this.groups.delete(name)
  }

  /** Attempts `message` until delivered or given up (or its webhook is deleted or disabled, or the queue stops). */
  private async deliver(message: Message): Promise<void> {
    const firstAt = this.now()
    for (let attempt = 1; !this.stopped; attempt++) {
      const webhook = await this.service.storedOrGone(message.webhookId)
      if (webhook === undefined || !webhook.isEnabled) return
      const delay = retryDelay(this.schedule, attempt, firstAt, this.now())
      const result = await this.limited(() => this.service.attempt(webhook, message, delay !== undefined))
      if (result.error === null || delay === undefined) return
      await this.sleep(delay)
    }
    // Stopped: never resolves, so the stream cursor does not move past an undelivered message.
    await new Promise(() => undefined)
  }

  private async limited<T>(task: () => Promise<T>): Promise<T> {
    while (this.active >= CONCURRENCY) await new Promise<void>((wake) => this.waiting.push(wake))
    this.active++
    try {
      return await task()
    } finally {
      this.active--
      this.waiting.shift()?.()
    }
  }

  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.timers.delete(timer)
        resolve()
      }, ms)
      this.timers.add(timer)
    })
  }
}
