// The `filters` query parameter (delivery.md §10): parsed into a small normalized tree of typed
// conditions, and evaluated on one version in memory. The storage planner reads the same tree.
import { isPrivate, NUMBER_TYPES, publicRelations, SEARCHABLE_TEXT_TYPES, sortableFields, type ContentType, type TypeOf } from '../content-types.js'
import { badRequest, queryDetails } from '../errors.js'
import { fieldKind, type FieldKind } from './field-kinds.js'
import { typeBelowField } from '../components/types.js'
import { collatorFor } from './sort.js'

export type FilterOperator = '$eq' | '$ne' | '$eqi' | '$nei' | '$lt' | '$lte' | '$gt' | '$gte' | '$in' | '$notIn' | '$between'
  | '$contains' | '$notContains' | '$containsi' | '$notContainsi' | '$startsWith' | '$startsWithi' | '$endsWith' | '$endsWithi' | '$null' | '$notNull'
export type FilterValue = string | number | boolean
export type Filter =
  | { readonly kind: 'and'; readonly filters: readonly Filter[] }
  | { readonly kind: 'or'; readonly filters: readonly Filter[] }
  | { readonly kind: 'not'; readonly filter: Filter }
  | { readonly kind: 'condition'; readonly field: string; readonly operator: FilterOperator; readonly values: readonly FilterValue[] }
  /**
   * Through a relation (content-model.md §16): one and the same linked target matches `filter`
   * (undefined: any target), or with `empty` set, it links no target (`$null`: true) or some
   * (`$null`: false). Resolved before reading (lib/relations/filters.ts) into `linked`.
   */
  | { readonly kind: 'relation'; readonly field: string; readonly filter: Filter | undefined; readonly empty?: boolean }
  /**
   * A resolved relation condition: `field` (a relation's links, or `documentId`) holds one of `ids`
   * (or, with `none`, none of them).
   */
  | { readonly kind: 'linked'; readonly field: string; readonly ids: ReadonlySet<string>; readonly none: boolean }
  /**
   * Through a component (content-model.md §18): its entry (one of a repeatable one's) matches
   * `filter`, read on the entry's values as the component's attributes.
   */
  | { readonly kind: 'component'; readonly field: string; readonly filter: Filter }

export const MAX_CONDITIONS = 50
export const MAX_IN_VALUES = 100
export const MAX_NESTING = 5

/** Operators that take one string and compare text (exactly, or lowercased for the `i` forms). */
const TEXT_OPERATORS: ReadonlySet<string> = new Set(['$eqi', '$nei', '$contains', '$notContains', '$containsi',
  '$notContainsi', '$startsWith', '$startsWithi', '$endsWith', '$endsWithi'])
const SINGLE_OPERATORS: ReadonlySet<string> = new Set(['$lt', '$lte', '$gt', '$gte'])
const OPERATORS: ReadonlySet<string> = new Set([...TEXT_OPERATORS, ...SINGLE_OPERATORS,
  '$eq', '$ne', '$in', '$notIn', '$between', '$null', '$notNull'])
const FALSE_FLAGS: ReadonlySet<string> = new Set(['false', '0', 'f', ''])
const BOOLEANS: ReadonlyMap<string, boolean> = new Map([['true', true], ['t', true], ['1', true], ['false', false], ['f', false], ['0', false]])
const DATE = /^\d{4}-\d\d-\d\d$/
const TIME = /^([01]\d|2[0-3]):[0-5]\d(:[0-5]\d(\.\d{1,3})?)?$/
const DATETIME = /^\d{4}-\d\d-\d\d(T\d\d:\d\d(:\d\d(\.\d+)?)?(Z|[+-]\d\d:?\d\d)?)?$/

const EXPECTED: Record<FieldKind, string> = {
  integer: 'an integer', number: 'a decimal number', biginteger: 'an integer of at most 19 digits',
  boolean: 'a boolean (true, false, 1, 0, t, f)', date: 'an ISO 8601 date (YYYY-MM-DD)', time: 'a time (HH:mm:ss.SSS)',
  datetime: 'an ISO 8601 date-time', collated: 'a string', plain: 'a string',
}

interface Context {
  readonly type: ContentType
  readonly fields: ReadonlySet<string>
  /** Public relations of `type`, and how to find their targets (none without `typeOf`). */
  readonly relations: ReadonlySet<string>
  readonly typeOf: TypeOf | undefined
  /** Relations crossed to reach this level. */
  readonly hops: number
  conditions: { count: number }
}

export type { TypeOf }

/** Relations a filter may cross (`filters[author][articles][tags][name]`). */
export const MAX_RELATION_HOPS = 5

const dotted = (path: readonly string[]) => ['filters', ...path].join('.')
const fail = (message: string, key: string, path: readonly string[]) =>
  badRequest(message, queryDetails('filters', key, dotted(path)))

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/** An array, or an object whose keys are all array indices (qs gives those for sparse lists). */
function listOf(value: unknown): unknown[] | undefined {
  if (Array.isArray(value)) return value
  if (!isRecord(value)) return undefined
  const keys = Object.keys(value)
  if (keys.length === 0 || !keys.every((key) => /^\d+$/.test(key))) return undefined
  return keys.sort((a, b) => Number(a) - Number(b)).map((key) => value[key])
}

/** Reads one query value as the field's type, or a 400 naming the field and the expected type. */
function readValue(raw: unknown, field: string, kind: FieldKind, path: readonly string[]): FilterValue {
  const value = typeof raw === 'string' ? parseAs(raw, kind) : undefined
  if (value === undefined) throw fail(`Invalid value for ${field}: expected ${EXPECTED[kind]}`, field, path)
  return value
}

function parseAs(raw: string, kind: FieldKind): FilterValue | undefined {
  switch (kind) {
    case 'integer':
      return /^-?\d+$/.test(raw) && Number.isSafeInteger(Number(raw)) ? Number(raw) : undefined
    case 'number': {
      const number = Number(raw)
      return /^-?\d+(\.\d+)?([eE][-+]?\d+)?$/.test(raw) && Number.isFinite(number) ? number : undefined
    }
    case 'biginteger':
      return /^-?\d{1,19}$/.test(raw) ? raw : undefined
    case 'boolean':
      return BOOLEANS.get(raw)
    case 'date':
      return DATE.test(raw) && validDate(raw) ? raw : undefined
    case 'time':
      return TIME.test(raw) ? raw : undefined
    case 'datetime': {
      if (!DATETIME.test(raw) || !validDate(raw.slice(0, 10))) return undefined
      // A date-time without a zone is UTC, whatever the server's time zone.
      const zoned = raw.includes('T') && !/(Z|[+-]\d\d:?\d\d)$/.test(raw) ? `${raw}Z` : raw
      const time = Date.parse(zoned)
      return Number.isNaN(time) ? undefined : new Date(time).toISOString()
    }
    default:
      return raw
  }
}

/** True when YYYY-MM-DD names a real day (2024-02-30 does not). */
function validDate(raw: string): boolean {
  const time = Date.parse(`${raw}T00:00:00Z`)
  return !Number.isNaN(time) && new Date(time).toISOString().startsWith(raw)
}

function condition(field: string, operator: FilterOperator, values: FilterValue[]): Filter {
  return { kind: 'condition', field, operator, values }
}

const combine = (filters: Filter[]): Filter => (filters.length === 1 && filters[0] !== undefined ? filters[0] : { kind: 'and', filters })

/** One operator use on a field: `[$gt]=3`, `[$in][0]=a`, `[$null]=true`. */
function parseOperator(field: string, operator: string, raw: unknown, path: readonly string[], context: Context): Filter {
  if (++context.conditions.count > MAX_CONDITIONS) {
    throw fail(`Too many filter conditions: at most ${MAX_CONDITIONS} per request`, operator, path)
  }
  const kind = fieldKind(field, context.type)
  const list = listOf(raw)
  const read = (items: unknown[]) => items.map((item, index) => readValue(item, field, kind, [...path, String(index)]))
  if (operator === '$null' || operator === '$notNull') {
    // Strapi's truthiness: only false, 0, f and empty read as false; any list or object is true.
    return condition(field, operator, [typeof raw !== 'string' || !FALSE_FLAGS.has(raw.trim().toLowerCase())])
  }
  if (operator === '$in' || operator === '$notIn' || ((operator === '$eq' || operator === '$ne') && list !== undefined)) {
    const items = list ?? [raw]
    if (items.length > MAX_IN_VALUES) throw fail(`Too many values in ${operator}: at most ${MAX_IN_VALUES}`, operator, path)
    return condition(field, operator === '$eq' || operator === '$in' ? '$in' : '$notIn', read(items))
  }
  if (operator === '$between') {
    if (list?.length !== 2) throw fail(`Invalid value for $between: expected exactly 2 values`, operator, path)
    return condition(field, '$between', read(list))
  }
  if (TEXT_OPERATORS.has(operator) && kind !== 'collated' && kind !== 'plain') {
    throw fail(`Invalid operator ${operator} for ${field}: it applies to string fields only`, operator, path)
  }
  // Any other operator given a list is the OR of the operator over each value (Strapi's implicit OR).
  if (list !== undefined) {
    if (list.length > MAX_IN_VALUES) throw fail(`Too many values in ${operator}: at most ${MAX_IN_VALUES}`, operator, path)
    return { kind: 'or', filters: read(list).map((value) => condition(field, operator as FilterOperator, [value])) }
  }
  return condition(field, operator as FilterOperator, [readValue(raw, field, kind, path)])
}

/** The value of `filters[<field>]`: a value (`$eq`), a list (`$in`) or an object of operators. */
function parseFieldValue(field: string, raw: unknown, path: readonly string[], depth: number, context: Context): Filter {
  if (typeof raw === 'string' || listOf(raw) !== undefined) return parseOperator(field, '$eq', raw, path, context)
  if (!isRecord(raw)) throw fail(`Invalid value for ${field}`, field, path)
  return combine(Object.keys(raw).map((key) => {
    const keyPath = [...path, key]
    if (key === '$not') return { kind: 'not', filter: parseFieldValue(field, raw[key], keyPath, nested(depth, keyPath), context) }
    if (!OPERATORS.has(key)) throw fail(`Invalid key ${key}`, key, keyPath)
    return parseOperator(field, key, raw[key], keyPath, context)
  }))
}

function nested(depth: number, path: readonly string[]): number {
  if (depth + 1 > MAX_NESTING) throw fail(`Filters are nested too deep: at most ${MAX_NESTING} levels of $and, $or and $not`, path.at(-1) ?? 'filters', path)
  return depth + 1
}

/** A filter object (or a list of them, ANDed): fields and logical operators combined with AND. */
function parseGroup(raw: unknown, path: readonly string[], depth: number, context: Context): Filter {
  const list = Array.isArray(raw) ? raw : undefined
  if (list !== undefined) return combine(list.map((item, index) => parseGroup(item, [...path, String(index)], depth, context)))
  if (!isRecord(raw)) throw fail('Invalid filters: expected an object of fields and operators', path.at(-1) ?? 'filters', path)
  return combine(Object.keys(raw).map((key) => {
    const keyPath = [...path, key]
    const value = raw[key]
    if (key === '$and' || key === '$or') {
      const items = listOf(value)
      if (items === undefined) throw fail(`Invalid value for ${key}: expected an array of filters`, key, keyPath)
      const inner = nested(depth, keyPath)
      return { kind: key === '$and' ? 'and' : 'or', filters: items.map((item, index) => parseGroup(item, [...keyPath, String(index)], inner, context)) }
    }
    if (key === '$not') return { kind: 'not', filter: parseGroup(value, keyPath, nested(depth, keyPath), context) }
    if (context.relations.has(key)) return parseRelation(key, value, keyPath, context)
    if (Object.hasOwn(context.type.components, key)) return parseComponent(key, value, keyPath, depth, context)
    if (key.startsWith('$') || !context.fields.has(key)) throw fail(`Invalid key ${key}`, key, keyPath)
    return parseFieldValue(key, value, keyPath, depth, context)
  }))
}

/** `[$null]=<flag>` or `[$notNull]=<flag>` on a relation or a component, counted as a condition: true when it asks for none. */
function asksForNone(key: '$null' | '$notNull', value: unknown, path: readonly string[], context: Context): boolean {
  if (++context.conditions.count > MAX_CONDITIONS) throw fail(`Too many filter conditions: at most ${MAX_CONDITIONS} per request`, key, [...path, key])
  const flag = typeof value !== 'string' || !FALSE_FLAGS.has(value.trim().toLowerCase())
  return key === '$null' ? flag : !flag
}

/** `filters[<relation>]`: `$null`/`$notNull`, and conditions on the target's fields and relations. */
function parseRelation(field: string, raw: unknown, path: readonly string[], context: Context): Filter {
  if (!isRecord(raw) || Object.keys(raw).length === 0) {
    throw fail(`Invalid value for ${field}: ${field} is a relation; filter on its fields, e.g. filters[${field}][documentId][$eq]=<documentId>`, field, path)
  }
  if (context.hops + 1 > MAX_RELATION_HOPS) throw fail(`Filters cross too many relations: at most ${MAX_RELATION_HOPS}`, field, path)
  const target = (context.typeOf as TypeOf)(context.type.relations[field]?.target as string)
  const inner: Context = { ...context, ...contextOf(target, context.typeOf), hops: context.hops + 1, conditions: context.conditions }
  const parts: Filter[] = []
  const rest: Record<string, unknown> = {}
  for (const [key, value] of Object.entries(raw)) {
    if (key === '$null' || key === '$notNull') parts.push({ kind: 'relation', field, filter: undefined, empty: asksForNone(key, value, path, context) })
    else rest[key] = value
  }
  if (Object.keys(rest).length > 0) parts.push({ kind: 'relation', field, filter: parseGroup(rest, path, 0, inner) })
  return combine(parts)
}

/** `filters[<component>]`: `$null`/`$notNull`, and conditions on one entry's fields (nested components too); 400 into a dynamic zone, as Strapi. */
function parseComponent(field: string, raw: unknown, path: readonly string[], depth: number, context: Context): Filter {
  const declared = context.type.components[field]
  if (declared === undefined || declared.kind === 'dynamiczone') throw fail(`Invalid key ${field}`, field, path)
  if (!isRecord(raw) || Object.keys(raw).length === 0) throw fail(`Invalid value for ${field}: ${field} is a component; filter on its fields, e.g. filters[${field}][<field>][$eq]=<value>`, field, path)
  const type = typeBelowField(declared)
  // Relations inside it too, as top-level ones (content-model.md §16): their links are on the entry.
  const inner: Context = { ...context, ...contextOf(type, context.typeOf), conditions: context.conditions }
  const parts: Filter[] = []
  const rest: Record<string, unknown> = {}
  for (const [key, value] of Object.entries(raw)) {
    if (key === '$null' || key === '$notNull') {
      // The component itself, as Strapi's join on it: null (a repeatable one: no entry) or not.
      const some: Filter = { kind: 'component', field, filter: { kind: 'and', filters: [] } }
      parts.push(asksForNone(key, value, path, context) ? { kind: 'not', filter: some } : some)
    } else rest[key] = value
  }
  if (Object.keys(rest).length > 0) parts.push({ kind: 'component', field, filter: parseGroup(rest, path, depth, inner) })
  return combine(parts)
}

function contextOf(type: ContentType, typeOf: TypeOf | undefined): Pick<Context, 'type' | 'fields' | 'relations' | 'typeOf'> {
  return { type, fields: new Set(sortableFields(type)), relations: new Set(typeOf === undefined ? [] : publicRelations(type)), typeOf }
}

/** True when `filter` goes through a relation (its answer then depends on other types' documents too). */
export function crossesRelations(filter: Filter | undefined): boolean {
  if (filter === undefined) return false
  switch (filter.kind) {
    case 'and':
    case 'or': return filter.filters.some(crossesRelations)
    case 'not': return crossesRelations(filter.filter)
    case 'condition': return false
    case 'component': return crossesRelations(filter.filter)
    default: return true
  }
}

/**
 * The filter of `_q=<text>` (content-model.md §14): any searchable text attribute contains the
 * whole text, ignoring case; when the text is a number, numeric attributes and `id` equal to it match too.
 * Undefined for an empty text; a filter matching nothing when no attribute is searchable.
 */
export function searchFilter(raw: unknown, type: ContentType): Filter | undefined {
  if (raw === undefined) return undefined
  if (typeof raw !== 'string') throw badRequest('Invalid _q: expected one search text', queryDetails('_q', '_q', '_q'))
  const text = raw.trim()
  if (text === '') return undefined
  // A number matches the version's `id` too, as Strapi's search does (it also searches `id`).
  const id = parseAs(text, fieldKind('id', type))
  const members: Filter[] = id === undefined ? [] : [condition('id', '$eq', [id])]
  for (const [field, attribute] of Object.entries(type.attributes)) {
    if (isPrivate(attribute) || attribute.searchable === false) continue
    if (SEARCHABLE_TEXT_TYPES.has(attribute.type)) members.push(condition(field, '$containsi', [text]))
    else if (NUMBER_TYPES.has(attribute.type)) {
      const value = parseAs(text, fieldKind(field, type))
      if (value !== undefined) members.push(condition(field, '$eq', [value]))
    }
  }
  return { kind: 'or', filters: members }
}

/** Parses the raw `filters` value from qs for `type`; undefined when absent. 400s as delivery.md §10 says. */
export function parseFilters(raw: unknown, type: ContentType, typeOf?: TypeOf): Filter | undefined {
  if (raw === undefined) return undefined
  const context: Context = { ...contextOf(type, typeOf), hops: 0, conditions: { count: 0 } }
  const filter = parseGroup(raw, [], 0, context)
  return filter.kind === 'and' && filter.filters.length === 0 ? undefined : filter
}

const collators = new Map<string, Intl.Collator>()

/** One collator per collation, kept: building an Intl.Collator costs far more than a comparison. */
function cachedCollator(collation: string): Intl.Collator {
  let collator = collators.get(collation)
  if (collator === undefined) {
    if (collators.size >= 64) collators.clear() // bounded whatever codes reach it
    collator = collatorFor(collation)
    collators.set(collation, collator)
  }
  return collator
}

type Compare = (a: FilterValue, b: FilterValue) => number

const plain = (a: FilterValue, b: FilterValue) => (a < b ? -1 : a > b ? 1 : 0)
const numeric = (a: FilterValue, b: FilterValue) => Number(a) - Number(b)
const bigint = (a: FilterValue, b: FilterValue) => {
  const [x, y] = [BigInt(a), BigInt(b)]
  return x < y ? -1 : x > y ? 1 : 0
}

function comparatorFor(kind: FieldKind, collation: string): Compare {
  if (kind === 'integer' || kind === 'number' || kind === 'boolean') return numeric
  if (kind === 'biginteger') return bigint
  if (kind === 'collated') {
    const collator = cachedCollator(collation)
    return (a, b) => collator.compare(String(a), String(b))
  }
  return plain
}

function includes(haystack: string, needle: string, operator: string): boolean {
  if (operator.startsWith('$startsWith')) return haystack.startsWith(needle)
  if (operator.startsWith('$endsWith')) return haystack.endsWith(needle)
  return haystack.includes(needle)
}

/** A non-null stored value against one operator; `compare` orders values of the field's kind. */
function matchesValue(stored: FilterValue, operator: FilterOperator, values: readonly FilterValue[], compare: Compare): boolean {
  const [first = '', second = ''] = values
  switch (operator) {
    case '$eq': return stored === first
    case '$ne': return stored !== first
    case '$in': return values.includes(stored)
    case '$notIn': return !values.includes(stored)
    case '$null': return first === false
    case '$notNull': return first === true
    case '$lt': return compare(stored, first) < 0
    case '$lte': return compare(stored, first) <= 0
    case '$gt': return compare(stored, first) > 0
    case '$gte': return compare(stored, first) >= 0
    case '$between': return compare(stored, first) >= 0 && compare(stored, second) <= 0
    case '$eqi': return String(stored).toLowerCase() === String(first).toLowerCase()
    case '$nei': return String(stored).toLowerCase() !== String(first).toLowerCase()
    default: {
      const fold = operator.endsWith('i')
      const haystack = fold ? String(stored).toLowerCase() : String(stored)
      const found = includes(haystack, fold ? String(first).toLowerCase() : String(first), operator)
      return operator.startsWith('$not') ? !found : found
    }
  }
}

/** The stored value as the filter reads it: null when absent, date-times as toISOString. */
function storedValue(raw: unknown, kind: FieldKind): FilterValue | null {
  if (raw === null || raw === undefined) return null
  if (kind === 'datetime' && typeof raw === 'string') {
    const time = Date.parse(raw)
    return Number.isNaN(time) ? raw : new Date(time).toISOString()
  }
  return raw as FilterValue
}

/**
 * True when a version's values match. `values` holds id, documentId, locale, createdAt, updatedAt,
 * publishedAt and the attributes of `type`; string ranges use the collation of `collation` (a
 * locale code, or '*' for the root collation), as sortComparator does. Null matches no comparison.
 */
export function matchesFilter(filter: Filter, values: Readonly<Record<string, unknown>>, collation: string, type: ContentType): boolean {
  switch (filter.kind) {
    case 'and': return filter.filters.every((inner) => matchesFilter(inner, values, collation, type))
    case 'or': return filter.filters.some((inner) => matchesFilter(inner, values, collation, type))
    case 'not': return !matchesFilter(filter.filter, values, collation, type)
    case 'relation': throw new Error(`filters[${filter.field}] was not resolved before reading`)
    case 'component': {
      const value = values[filter.field]
      const entries = Array.isArray(value) ? value : typeof value === 'object' && value !== null ? [value] : []
      const declared = type.components[filter.field]
      if (declared === undefined) return false
      return entries.some((entry) => matchesFilter(filter.filter, entry as Record<string, unknown>, collation, typeBelowField(declared)))
    }
    case 'linked': {
      const value = values[filter.field]
      const ids = typeof value === 'string' ? [value] : Array.isArray(value) ? (value as string[]) : []
      return ids.some((id) => filter.ids.has(id)) !== filter.none
    }
    case 'condition': {
      const kind = fieldKind(filter.field, type)
      const stored = storedValue(Object.hasOwn(values, filter.field) ? values[filter.field] : undefined, kind)
      if (stored === null) return (filter.operator === '$null' && filter.values[0] === true) || (filter.operator === '$notNull' && filter.values[0] === false)
      return matchesValue(stored, filter.operator, filter.values, comparatorFor(kind, collation))
    }
  }
}
