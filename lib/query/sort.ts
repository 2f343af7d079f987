// The `sort` query parameter: parsed into typed entries, and the comparator that orders documents
// by them (nulls first ascending, locale collation for strings, ties by id ascending).
import { typeBelowField } from '../components/types.js'
import { sortableFields, type ContentType, type TypeOf } from '../content-types.js'
import { badRequest, queryDetails } from '../errors.js'
import { fieldKind, plainOrdered, type FieldKind } from './field-kinds.js'

export interface SortEntry {
  readonly field: string
  readonly order: 'asc' | 'desc'
}

const INVALID_ORDER = 'Invalid order. order can only be one of asc|desc|ASC|DESC'

function parseOrder(raw: unknown): 'asc' | 'desc' {
  if (typeof raw !== 'string') throw badRequest(INVALID_ORDER, queryDetails('sort', 'sort', null))
  const order = raw.trim().toLowerCase()
  if (order !== 'asc' && order !== 'desc') throw badRequest(INVALID_ORDER, queryDetails('sort', 'sort', null))
  return order
}

function invalidKey(field: string) {
  return badRequest(`Invalid key ${field}`, queryDetails('sort', field, null))
}

/** `title`, `title:desc`, `title:asc,views:desc`: comma-separated segments, empty ones ignored. */
function parseSortString(raw: string): SortEntry[] {
  return raw
    .split(',')
    .filter((segment) => segment.trim() !== '')
    .map((segment) => {
      const parts = segment.split(':')
      if (parts.length > 2) throw badRequest(INVALID_ORDER, queryDetails('sort', segment.trim(), null))
      const field = (parts[0] ?? '').trim()
      if (field === '') throw invalidKey(segment.trim())
      return { field, order: parts.length === 2 ? parseOrder(parts[1]) : 'asc' }
    })
}

/** `{ title: 'desc', views: 'asc' }`: keys in order; `{ author: { name: 'asc' } }` is `author.name`. */
function parseSortObject(raw: Record<string, unknown>): SortEntry[] {
  return Object.keys(raw).flatMap((field) => {
    if (field.trim() === '') throw invalidKey(field)
    const value = raw[field]
    if (typeof value === 'object' && value !== null && !Array.isArray(value)) {
      return parseSortObject(value as Record<string, unknown>).map((entry) => ({ field: `${field.trim()}.${entry.field}`, order: entry.order }))
    }
    return [{ field: field.trim(), order: parseOrder(value) }]
  })
}

function parseSortValue(raw: unknown): SortEntry[] {
  if (typeof raw === 'string') return parseSortString(raw)
  if (Array.isArray(raw)) return raw.flatMap((item) => parseSortValue(item))
  if (typeof raw === 'object' && raw !== null) return parseSortObject(raw as Record<string, unknown>)
  throw badRequest('Invalid sort parameter', queryDetails('sort', 'sort', null))
}

/**
 * Parses the raw `sort` value from qs into entries, checking every field is sortable on `type`:
 * its own sortable fields, or (given `typeOf`) `<relation>.<field>` through a public to-one
 * relation it owns (content-model.md §16).
 */
export function parseSort(raw: unknown, type: ContentType, typeOf?: TypeOf): SortEntry[] {
  if (raw === undefined) return []
  const entries = parseSortValue(raw)
  const allowed = new Set(sortableFields(type))
  for (const entry of entries) {
    if (allowed.has(entry.field)) continue
    if (Object.hasOwn(type.components, entry.field.split('.')[0] as string)) {
      componentSortKind(type, entry.field)
      continue
    }
    const [name = '', field, ...rest] = entry.field.split('.')
    const relation = Object.hasOwn(type.relations, name) ? type.relations[name] : undefined
    if (relation === undefined || typeOf === undefined || relation.private === true || field === undefined || rest.length > 0) throw invalidKey(entry.field)
    if (relation.many || relation.mappedBy !== undefined) {
      throw badRequest(`Invalid key ${entry.field}: sort through a to-one relation this type stores (${name} ${relation.many ? 'links many documents' : 'is an inverse side'})`, queryDetails('sort', entry.field, null))
    }
    if (!sortableFields(typeOf(relation.target)).includes(field)) throw invalidKey(entry.field)
  }
  return entries
}

/**
 * The kind of `seo.metaTitle` (a scalar inside non-repeatable components, nested ones too), as
 * Strapi allows it (content-model.md §18); 400 through a repeatable component or a zone.
 */
export function componentSortKind(type: ContentType, path: string): FieldKind {
  const names = path.split('.')
  let level = type
  for (const [index, name] of names.entries()) {
    const field = level.components[name]
    if (field === undefined) {
      if (index === names.length - 1 && index > 0 && sortableFields(level).includes(name)) return fieldKind(name, level)
      throw invalidKey(path)
    }
    if (field.repeatable) throw badRequest(`Invalid key ${path}: sort by a field of a non-repeatable component (${name} is ${field.kind === 'dynamiczone' ? 'a dynamic zone' : 'a repeatable component'})`, queryDetails('sort', path, null))
    level = typeBelowField(field)
  }
  throw invalidKey(path)
}

/** The value at `path` (`seo.metaTitle`) in a version's component values, or null. */
export function componentValueAt(values: Readonly<Record<string, unknown>>, path: string): unknown {
  let current: unknown = values
  for (const name of path.split('.')) current = typeof current === 'object' && current !== null && !Array.isArray(current) ? (current as Record<string, unknown>)[name] : undefined
  return current ?? null
}

/** True when an entry sorts through a relation (`author.name`). */
export function throughRelation(entry: SortEntry): boolean {
  return entry.field.includes('.')
}

type Comparable = string | number | boolean | null | undefined

function plainCompare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0
}

/** Big integers are digit strings (up to 19 digits, past 2^63): compared as numbers. */
function bigIntegerCompare(a: string, b: string): number {
  const [x, y] = [BigInt(a), BigInt(b)]
  return x < y ? -1 : x > y ? 1 : 0
}

function compareValues(a: Comparable, b: Comparable, compareStrings: (a: string, b: string) => number): number {
  const aNull = a === null || a === undefined
  const bNull = b === null || b === undefined
  if (aNull || bNull) return aNull === bNull ? 0 : aNull ? -1 : 1
  if (typeof a === 'number' && typeof b === 'number') return a - b
  if (typeof a === 'boolean' && typeof b === 'boolean') return Number(a) - Number(b)
  return compareStrings(String(a), String(b))
}

const collators = new Map<string, Intl.Collator>()

/** The collator of a locale's string order (`und`, the root collation, for `*`), made once per process. */
export function collatorFor(locale: string): Intl.Collator {
  let collator = collators.get(locale)
  if (collator === undefined) {
    try {
      collator = new Intl.Collator(locale === '*' ? 'und' : locale)
    } catch {
      collator = new Intl.Collator('und')
    }
    collators.set(locale, collator)
  }
  return collator
}

/**
 * A comparator for the entries: strings by the collation of `collationLocale` (ISO timestamps
 * and dates compare correctly as strings), numbers numerically, nulls first ascending and last
 * descending, ties by `id` ascending so pages never repeat or skip an entry.
 */
export function sortComparator(
  entries: readonly SortEntry[],
  type: ContentType,
  collationLocale: string,
  typeOf?: TypeOf,
): (a: Record<string, unknown>, b: Record<string, unknown>) => number {
  const collator = collatorFor(collationLocale)
  const byCollation = (x: string, y: string) => collator.compare(x, y)
  const keys = entries.map(({ field, order }) => {
    // `author.name` orders as the target's `name` does.
    const [name = '', inner] = field.split('.')
    const kind = inner !== undefined && Object.hasOwn(type.components, name) ? componentSortKind(type, field)
      : inner !== undefined && typeOf !== undefined ? fieldKind(inner, typeOf(type.relations[name]?.target as string)) : fieldKind(field, type)
    return { field, order, compareStrings: kind === 'biginteger' ? bigIntegerCompare : plainOrdered(kind) ? plainCompare : byCollation }
  })
  return (a, b) => {
    for (const { field, order, compareStrings } of keys) {
      const result = compareValues(a[field] as Comparable, b[field] as Comparable, compareStrings)
      if (result !== 0) return order === 'asc' ? result : -result
    }
    return (a.id as number) - (b.id as number)
  }
}

/** True when the entries ask for plain `id` order, which the list index already has. */
export function idOrder(entries: readonly SortEntry[]): 'asc' | 'desc' | undefined {
  if (entries.length === 0) return 'asc'
  const first = entries[0]
  return first !== undefined && first.field === 'id' ? first.order : undefined
}
