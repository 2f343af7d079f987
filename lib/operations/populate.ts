// A request's `populate` (content-model.md §16) as an operation step: parsed, checked against what
// the caller may read, then run on the versions an operation answers with.
import type { Caller } from '../access.js'
import type { Populated } from '../answers/document.js'
import { WILDCARD } from '../locales.js'
import type { Version } from '../storage/items.js'
import type { ListState } from '../storage/lists/validator.js'
import type { Status } from '../table.js'
import { checkAccess, populate } from '../relations/populate.js'
import { parsePopulate, type PopulateTree } from '../relations/populate-query.js'
import { readable, type Scope } from './context.js'

/**
 * Populates versions read in a locale (each version's own for `*`); `tree` is the tree as checked.
 * With `lists` (a list answer's validator: the states of the lists its populate reaches, read
 * before it), targets are served from the process's KeptVersions where their lists have not moved.
 */
export interface Populator {
  (versions: readonly Version[], locale: string, lists?: ReadonlyMap<string, ListState>): Promise<Populated>
  /** The tree as checked (what `*` kept for this caller): part of a cached answer's key. */
  readonly tree: PopulateTree
}

/**
 * `raw` populate (or the tree `parsed` already), checked against what `who` may read in `status`
 * (400 or 403 before anything is read): its populator, or undefined when nothing is populated.
 */
export function populatorOf(scope: Scope, who: Caller, raw: unknown, status: Status, fallback: boolean, parsed?: () => PopulateTree | undefined): Populator | undefined {
  const { type, services, typeOf } = scope
  const tree = parsed === undefined ? parsePopulate(raw, type, typeOf) : parsed()
  if (tree === undefined) return undefined
  const context = { services, status, fallback, may: readable(who, status), left: services.config.rest.populate.maxDocuments, read: services.documents.batchReader() }
  const checked = checkAccess(context, type, tree)
  return Object.assign((versions: readonly Version[], locale: string, lists?: ReadonlyMap<string, ListState>) => {
    const ctx = lists === undefined ? context : { ...context, read: services.kept.reader(context.read, lists) }
    return populate(ctx, type, versions, checked, locale === WILDCARD ? undefined : locale)
  }, { tree: checked })
}

/** Populates nothing, but makes a get one answer as a populated one does (ETag of the body): a get one filtered through relations. */
export const BODY_TAGGED: Populator = Object.assign(() => Promise.resolve(new Map()), { tree: new Map() })
