// Documents kept in the process (issue 38), each valid for the revision of the list it was read
// from and of its type's wide commits (WIDE_CHANGES):
// - populated targets: a list answer's validator already reads the count items of every list its
//   populate reaches (relations/dependencies.ts), before the targets are read, so a target whose
//   list has not moved since is served from here, and pages that share authors, tags or files
//   read each once (`reader`);
// - documents a list reads by key (sorted and filtered pages, a filter naming them, the sources a
//   filter through a relation found in the index of links): their lists' count items come in the
//   same call as the documents not kept, and a kept one is served when its list's revision is
//   still the one it was kept at, else read in a second call (`guess`, reader.ts keptOrRead);
// - default-order pages: once a list's documents are kept under the last state seen of it (`warm`),
//   a page reads its slot0 entries and takes the documents from here the same way (reader.ts keptIdPage).
// Kept only from a read that started SETTLE_MS after its list last changed (as the page cache: an
// eventually consistent read made sooner may miss the write the revision counts), and a document
// absent from its list is kept as absent, which a creation moves too.
import type { ContentType } from '../../content-types.js'
import type { Version } from '../items.js'
import { LruMap } from '../../lru-map.js'
import { itemBytes } from '../item-size.js'
import type { ListState } from './validator.js'
import { settled } from './validator.js'
import { listKey, WIDE_CHANGES } from '../../table.js'

/** Reads versions by key (DocumentStore.batchReader): the versions found, in the order of `keys`; the calls made in one turn are read together. */
export type VersionReader = (type: ContentType, keys: readonly { documentId: string; list: string }[]) => Promise<Version[]>

/** Fixed cost counted per kept entry besides its attributes: the key, the Version's other fields, the map. */
const ENTRY_OVERHEAD = 400

interface Entry {
  /** The list's revision and its type's wide commits' (WIDE_CHANGES), as read before the version. */
  readonly revision: string
  readonly version: Version | null
  readonly bytes: number
}

/** Versions by type, list and documentId, bounded by their size, the least recently used going first (LruMap). */
export class KeptVersions {
  private readonly entries: LruMap<string, Entry>
  /** Every version object kept here (and while something else still holds it, once dropped). */
  private readonly versions = new WeakSet<Version>()
  /** Per list (`listKey`): the state (revision string and last change) its count items last showed here, and whether versions were kept under it. */
  private readonly seen = new Map<string, { revision: string; changedAt: number; kept: boolean }>()

  /** `capacity` in bytes of the kept versions' attributes (as DynamoDB sizes items); 0 keeps nothing. */
  constructor(private readonly capacity: number) {
    this.entries = LruMap.byWeight({ maxWeight: capacity, weigh: (entry) => entry.bytes })
  }

  get enabled(): boolean {
    return this.capacity > 0
  }

  /** Bytes held now (for tests and the benchmark). */
  get size(): number {
    return this.entries.weight
  }

  /**
   * `read` with this cache in front, `lists` the states a validator read before it (by count
   * key name): a key whose list and type's wide commits (WIDE_CHANGES) were both read is answered
   * from here when kept at those revisions; the others are read (in one call), and kept when
   * both had settled by the time the read started.
   */
  reader(read: VersionReader, lists: ReadonlyMap<string, ListState>): VersionReader {
    if (!this.enabled) return read
    return async (type, keys) => {
      const found = new Map<string, Version | null>()
      const missing: { documentId: string; list: string }[] = []
      for (const key of keys) {
        const state = keptState(lists, type.uid, key.list)
        const entry = state === undefined ? undefined : this.get(entryKey(type, key), state.revision)
        if (entry === undefined) missing.push(key)
        else found.set(`${key.documentId} ${key.list}`, entry.version)
      }
      if (missing.length > 0) {
        const startedAt = Date.now()
        // One key a call, all asked in this turn: the reader joins them into one BatchGetItem, and each answer is its key's.
        const answers = await Promise.all(missing.map((key) => read(type, [key])))
        missing.forEach((key, i) => {
          const version = answers[i]?.[0] ?? null
          found.set(`${key.documentId} ${key.list}`, version)
          this.keep(type, key, version, lists, startedAt)
        })
      }
      return keys.flatMap((key) => found.get(`${key.documentId} ${key.list}`) ?? [])
    }
  }

  /**
   * What is kept of `keys`, whatever revision it was kept at (a guess, made before the lists'
   * states are read): by `documentId list`, the version (null: kept as absent) and its revision,
   * for `valid` to check against the states once read.
   */
  guess(type: ContentType, keys: readonly { documentId: string; list: string }[]): Map<string, Guess> {
    const guesses = new Map<string, Guess>()
    if (!this.enabled) return guesses
    for (const key of keys) {
      const entry = this.entries.peek(entryKey(type, key))
      if (entry !== undefined) guesses.set(`${key.documentId} ${key.list}`, { documentId: key.documentId, list: key.list, revision: entry.revision, version: entry.version })
    }
    return guesses
  }

  /** True when `guess` (of a version of `type`) holds under the states read in `lists` (then it is used: kept longest). */
  holds(type: ContentType, guess: Guess, lists: ReadonlyMap<string, ListState>): boolean {
    const state = keptState(lists, type.uid, guess.list)
    return state?.revision === guess.revision && this.get(entryKey(type, guess), guess.revision) !== undefined
  }

  /** Keeps `version` (null: absent) of `key`, read from `startedAt` on, when its list and wide commits were in `lists` and had settled by then. */
  keep(type: ContentType, key: { documentId: string; list: string }, version: Version | null, lists: ReadonlyMap<string, ListState>, startedAt: number): void {
    if (!this.enabled) return
    const state = keptState(lists, type.uid, key.list)
    if (state === undefined) return
    const kept = settled(state.changedAt, startedAt)
    if (kept) this.set(entryKey(type, key), state.revision, version)
    const name = listKey(type.uid, key.list)
    const last = this.seen.get(name)
    if (last === undefined || last.revision !== state.revision || kept) this.seen.set(name, { ...state, kept: kept || (last?.revision === state.revision && last.kept) })
  }

  /**
   * True when `uid`'s `list` is likely to be served from here: versions of it were kept under the
   * last state this process saw of it, which had settled by `now` (a guess: the count items read
   * with the page say whether it still holds).
   */
  warm(uid: string, list: string, now = Date.now()): boolean {
    const last = this.seen.get(listKey(uid, list))
    return last !== undefined && last.kept && settled(last.changedAt, now)
  }

  /** True when `version` is an object this process kept (not one read for a single answer). */
  isKept(version: Version): boolean {
    return this.versions.has(version)
  }

  private get(key: string, revision: string): Entry | undefined {
    return this.entries.peek(key)?.revision === revision ? this.entries.get(key) : undefined
  }

  private set(key: string, revision: string, version: Version | null): void {
    if (version !== null) this.versions.add(version)
    this.entries.set(key, { revision, version, bytes: ENTRY_OVERHEAD + key.length + (version === null ? 0 : itemBytes(version.attributes)) })
  }
}

/** A kept version found before its list's state was read (KeptVersions.guess). */
export interface Guess {
  readonly documentId: string
  readonly list: string
  readonly revision: string
  readonly version: Version | null
}

/** The state an entry of `uid`'s `list` is kept under: the list's revision and its type's wide commits', from `lists`; undefined unless both were read. */
function keptState(lists: ReadonlyMap<string, ListState>, uid: string, list: string): { revision: string; changedAt: number } | undefined {
  const own = lists.get(listKey(uid, list))
  const wide = lists.get(listKey(uid, WIDE_CHANGES))
  return own === undefined || wide === undefined ? undefined : { revision: `${own.revision} ${wide.revision}`, changedAt: Math.max(own.changedAt, wide.changedAt) }
}

/** The count key names (`listKey`) a kept version of `uid`'s `list` is validated by. */
export function keptBy(uid: string, list: string): string[] {
  return [listKey(uid, list), listKey(uid, WIDE_CHANGES)]
}

function entryKey(type: ContentType, key: { documentId: string; list: string }): string {
  return `${type.uid} ${key.list} ${key.documentId}`
}
