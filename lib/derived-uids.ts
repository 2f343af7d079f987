// A `uid` the client did not send is derived from its target field (`Solo 1` → `solo-1`, then
// `solo-1-1`, ...). Which value is free is read before the write, but the write's own claim decides
// (lib/storage/unique.ts): a parallel write may take the value in between. A derived value never
// fails as not unique: the write draws the next free one and runs again. Only a value the client
// sent may fail with `This attribute must be unique`.
import { randomInt } from 'node:crypto'
import { ApiError } from './errors.js'

/** A uid the write derives: its attribute and the slug its values start from. */
export interface DerivedUid {
  readonly name: string
  readonly base: string
}

/** The free value `skip` places past the first free one (0: the first) of a derived uid. */
export type DrawUid = (uid: DerivedUid, skip: number) => Promise<string>

/**
 * Draws after a lost claim: the first round after a loss takes the next free value, later rounds a
 * random one among the next 2, 4, 8, ... free ones, so that many writers of one title part in a few
 * rounds rather than one winner a round. Bounded: past it, the 400 of the last claim lost.
 */
const MAX_DRAWS = 12

/**
 * Runs `write` with each derived uid of `attributes` set (drawn first by `draw`); when `write` fails
 * because a derived value was taken meanwhile, sets that attribute to a newly drawn free value and
 * runs `write` again. `write` reads `attributes` afresh on every run.
 */
export async function writeWithDerivedUids<T>(uids: readonly DerivedUid[], attributes: Record<string, unknown>, draw: DrawUid, write: () => Promise<T>): Promise<T> {
  for (const uid of uids) attributes[uid.name] = await draw(uid, 0)
  for (let round = 0; ; round++) {
    try {
      return await write()
    } catch (error) {
      const uid = uids.find((entry) => entry.name === takenAttribute(error))
      if (uid === undefined || round >= MAX_DRAWS) throw error
      attributes[uid.name] = await draw(uid, round === 0 ? 0 : randomInt(0, 2 ** Math.min(round, 5)))
    }
  }
}

/** The attribute of a `This attribute must be unique` 400, when `error` is one. */
function takenAttribute(error: unknown): unknown {
  if (!(error instanceof ApiError) || error.status !== 400 || error.message !== 'This attribute must be unique') return undefined
  const errors = (error.details as { errors?: { path?: unknown[] }[] } | undefined)?.errors
  return errors?.[0]?.path?.[0]
}
