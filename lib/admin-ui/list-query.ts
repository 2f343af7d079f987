// What a list page's address asks for, in words an editor chose (issue 37): filter conditions
// ("title contains news", "views is greater than 3", "slug is empty"), all of which must hold,
// and the columns shown. Parsed from the page's query (anything unknown is dropped), and turned
// into the content API's `filters` parameters.
import { sortableFields, type ContentType } from '../content-types.js'

/** The conditions an editor may choose, in words, with the API operator each stands for. */
export const CONDITIONS = [
  ['contains', '$containsi'], ['does not contain', '$notContainsi'], ['is', '$eq'], ['is not', '$ne'],
  ['starts with', '$startsWithi'], ['ends with', '$endsWithi'], ['is less than', '$lt'], ['is greater than', '$gt'],
  ['is empty', '$null'], ['is not empty', '$notNull'],
] as const

export type Operator = (typeof CONDITIONS)[number][1]
/** Conditions without a value. */
export const VALUELESS: ReadonlySet<string> = new Set(['$null', '$notNull'])
/** How many conditions the form offers at once. */
export const MAX_CONDITIONS = 3

export interface Condition {
  readonly field: string
  readonly op: Operator
  readonly value: string
}

/** The fields a list may filter and sort on: the type's public scalars and system dates. */
export const filterableFields = (type: ContentType) => sortableFields(type).filter((field) => field !== 'locale')

/** The complete conditions of a query (`c0.field`, `c0.op`, `c0.value`, `c1.field` ...); incomplete ones are dropped. */
export function conditionsOf(type: ContentType, query: Readonly<Record<string, string | undefined>>): Condition[] {
  const fields = filterableFields(type)
  const conditions: Condition[] = []
  for (let i = 0; i < MAX_CONDITIONS; i++) {
    const field = query[`c${i}.field`] ?? ''
    const op = CONDITIONS.find(([, operator]) => operator === query[`c${i}.op`])?.[1]
    const value = query[`c${i}.value`] ?? ''
    if (!fields.includes(field) || op === undefined || (value === '' && !VALUELESS.has(op))) continue
    conditions.push({ field, op, value: VALUELESS.has(op) ? '' : value })
  }
  return conditions
}

/** The conditions as the content API's filters (`filters[$and][0][title][$containsi]=news`). */
export function filterParams(conditions: readonly Condition[]): [string, string][] {
  return conditions.map((condition, index) => [`filters[$and][${index}][${condition.field}][${condition.op}]`, VALUELESS.has(condition.op) ? 'true' : condition.value])
}

/** The conditions as the page's own query, to keep them in links (sorting, pages). */
export function conditionQuery(conditions: readonly Condition[]): Record<string, string> {
  return Object.fromEntries(conditions.flatMap((condition, index) => [[`c${index}.field`, condition.field], [`c${index}.op`, condition.op], [`c${index}.value`, condition.value]]))
}

/** The columns a list may show besides the label: the type's public scalars, then its dates. */
export function choosableColumns(type: ContentType, label: string | undefined): string[] {
  const fields = filterableFields(type).filter((field) => field !== label && field !== 'id' && field !== 'documentId')
  return [...fields.filter((field) => !field.endsWith('At')), ...fields.filter((field) => field.endsWith('At'))]
}

/** The columns chosen: from the form (`cols`), else as kept (comma-separated), else the last update only. */
export function columnsOf(choosable: readonly string[], chosen: readonly string[] | undefined, kept: string | undefined): string[] {
  const wanted = chosen ?? (kept === undefined ? ['updatedAt'] : kept.split(','))
  return choosable.filter((column) => wanted.includes(column))
}
