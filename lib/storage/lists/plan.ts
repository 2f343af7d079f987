// Which index entries a filter needs, planned over the slot indexes (pure). A condition on an
// indexed field becomes key ranges of its slot: `$eq` and `$in` points, ranges and `$between`,
// `$null`/`$notNull`. `$and` is driven by its most selective indexed condition, `$or` by the union
// of its members when every member is indexed. Anything else scans the list, within a budget.
// The planned entries are a superset of the matches: every entry read is checked against the
// whole filter afterwards, so the keys only need to be monotone, never exact.
import type { ContentType } from '../../content-types.js'
import type { Filter, FilterValue } from '../../query/filters.js'
import { collatorFor } from '../../query/sort.js'
import { indexedFields } from '../../table.js'
import { indexKey, keyKindOf } from '../index-keys.js'

/** Inclusive bounds on a slot's keys (every key starts with '0' for null or '1' for a value). */
export interface KeyRange {
  readonly lo: string
  readonly hi: string
}

/** Key ranges of one slot. */
export interface SlotRanges {
  readonly slot: number
  readonly ranges: readonly KeyRange[]
}

export type FilterPlan =
  /** Read these ranges (their union). */
  | { readonly kind: 'index'; readonly parts: readonly SlotRanges[]; readonly cost: number }
  /** No index answers it: read every entry of the list. */
  | { readonly kind: 'scan' }

const NULL_KEY = '0'
const VALUES: KeyRange = { lo: '1', hi: '2' }

/** Rough selectivity, lower is better; only used to choose among conditions. */
const COST = { point: 1, null: 10, between: 100, range: 1000, notNull: 10_000 }

/**
 * The entries `filter` can match in a list whose keys use `collation`'s string order, for a request
 * that compares strings with `requested`'s (they differ for `locale=*`, whose ranges then scan).
 */
export function planFilter(filter: Filter, type: ContentType, collation: string, requested = collation): FilterPlan {
  return planNode(filter, type, collation, requested) ?? { kind: 'scan' }
}

type IndexPlan = Extract<FilterPlan, { kind: 'index' }>

function planNode(filter: Filter, type: ContentType, collation: string, requested: string): IndexPlan | undefined {
  if (filter.kind === 'condition') return planCondition(filter, type, collation, requested)
  // `not`, and relation conditions (resolved into documentIds, see relations/filters.ts), use no slot.
  if (filter.kind !== 'and' && filter.kind !== 'or') return undefined
  const children = filter.filters.map((child) => planNode(child, type, collation, requested))
  if (filter.kind === 'and') {
    const indexed = children.filter((child): child is IndexPlan => child !== undefined)
    return indexed.sort((a, b) => a.cost - b.cost)[0]
  }
  if (children.length === 0 || children.some((child) => child === undefined)) return undefined
  const parts = (children as IndexPlan[]).flatMap((child) => child.parts)
  return { kind: 'index', parts, cost: (children as IndexPlan[]).reduce((sum, child) => sum + child.cost, 0) }
}

function planCondition(condition: Extract<Filter, { kind: 'condition' }>, type: ContentType, collation: string, requested: string): IndexPlan | undefined {
  const slot = indexedFields(type).indexOf(condition.field)
  if (slot === -1) return undefined
  const collator = collatorFor(collation)
  const kind = keyKindOf(type, condition.field)
  // String ranges follow the request's collation: a list keyed in another one cannot answer them.
  const ordered = ['$lt', '$lte', '$gt', '$gte', '$between'].includes(condition.operator)
  if (ordered && kind === 'collated' && collatorFor(requested).resolvedOptions().locale !== collator.resolvedOptions().locale) return undefined
  const key = (value: FilterValue) => indexKey(kind, value, collator)
  const plan = (ranges: KeyRange[], cost: number): IndexPlan => ({ kind: 'index', parts: [{ slot, ranges }], cost })
  const { values } = condition
  const first = values[0]
  switch (condition.operator) {
    case '$eq':
    case '$in':
      return plan(values.map((value) => ({ lo: key(value), hi: key(value) })), COST.point * Math.max(1, values.length))
    case '$lt':
    case '$lte':
      return first === undefined ? undefined : plan([{ lo: VALUES.lo, hi: key(first) }], COST.range)
    case '$gt':
    case '$gte':
      return first === undefined ? undefined : plan([{ lo: key(first), hi: VALUES.hi }], COST.range)
    case '$between': {
      const [low, high] = values
      if (low === undefined || high === undefined) return undefined
      const range = { lo: key(low), hi: key(high) }
      return plan(range.lo <= range.hi ? [range] : [], COST.between)
    }
    case '$null':
    case '$notNull': {
      const wantsNull = (condition.operator === '$null') === (first === true)
      return wantsNull ? plan([{ lo: NULL_KEY, hi: NULL_KEY }], COST.null) : plan([VALUES], COST.notNull)
    }
    default:
      return undefined
  }
}
