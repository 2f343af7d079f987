// Counters of admin sign-in attempts in fixed windows (`#sign-in` partition, lib/table.ts): one
// item per counter (a client's address, or every client), holding its count and its window's end.
// Every attempt is counted by one atomic write, so parallel attempts on any number of instances
// are counted exactly; a window starts with the first attempt after the last one ended, and its
// end never moves, so no counter blocks for longer than one window.
import { DeleteCommand, PutCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb'
import { META, TTL_ATTRIBUTE } from '../table.js'
import { conditionalWrite, guarded } from './client.js'

/** A counter after an attempt: attempts in its window, this one included, and the window's end (epoch ms). */
export interface WindowCount {
  readonly n: number
  readonly ends: number
}

const keyOf = (counter: string) => ({ documentId: META.signIn, locale: counter })

export class SignInAttemptStore {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  /**
   * Counts one attempt on `counter` at `now` (epoch ms): `ADD` into its live window, or a new window
   * of `windowMs` when none is live. When another attempt starts the window first, the put's
   * condition fails and the attempt is added into that window (a window lasts far longer than the
   * round trip, so the loop ends).
   */
  async count(counter: string, windowMs: number, now: number): Promise<WindowCount> {
    for (;;) {
      const added = await conditionalWrite(async () => {
        const { Attributes = {} } = await this.db.send(new UpdateCommand({
          TableName: this.tableName,
          Key: keyOf(counter),
          UpdateExpression: 'ADD n :one',
          ConditionExpression: 'ends > :now',
          ExpressionAttributeValues: { ':one': 1, ':now': now },
          ReturnValues: 'ALL_NEW',
        }))
        return { n: Number(Attributes.n), ends: Number(Attributes.ends) }
      }, () => undefined)
      if (added !== undefined) return added
      const ends = now + windowMs
      const started = await conditionalWrite(async () => {
        await this.db.send(new PutCommand({
          TableName: this.tableName,
          Item: { ...keyOf(counter), n: 1, ends, [TTL_ATTRIBUTE]: Math.ceil(ends / 1000) },
          ConditionExpression: 'attribute_not_exists(documentId) OR ends <= :now',
          ExpressionAttributeValues: { ':now': now },
        }))
        return true
      }, () => false)
      if (started) return { n: 1, ends }
    }
  }

  /** Takes one attempt back from `counter`'s window if it is still live (an attempt that was not a failure). */
  async uncount(counter: string, now: number): Promise<void> {
    await conditionalWrite(async () => {
      await this.db.send(new UpdateCommand({
        TableName: this.tableName,
        Key: keyOf(counter),
        UpdateExpression: 'ADD n :minus',
        ConditionExpression: 'ends > :now',
        ExpressionAttributeValues: { ':minus': -1, ':now': now },
      }))
    }, () => undefined)
  }

  /** Forgets `counter`'s window (a successful sign-in resets its client). */
  async clear(counter: string): Promise<void> {
    await guarded(() => this.db.send(new DeleteCommand({ TableName: this.tableName, Key: keyOf(counter) })))
  }
}
