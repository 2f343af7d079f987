// The `populate` query parameter (content-model.md §16), parsed into a tree of what to populate
// at each level: every form Strapi takes (`*`, names, lists, dot paths, objects with `fields`,
// `filters`, `sort`, nested `populate`), plus `start`, `limit` and `count` on a to-many.
import { publicRelations, type ContentType } from '../content-types.js'
import { typeBelowField } from '../components/types.js'
import { badRequest, queryDetails } from '../errors.js'
import { parseFields } from '../query/fields.js'
import { parseFilters, type Filter } from '../query/filters.js'
import { parseSort, type SortEntry } from '../query/sort.js'

/** What to show of one populated relation (or of `localizations`). */
export interface PopulateNode {
  readonly fields: readonly string[] | undefined
  readonly filters: Filter | undefined
  readonly sort: readonly SortEntry[]
  /** A to-many's window of links: from `start`, at most `limit` (100 unless asked). */
  readonly start: number
  readonly limit: number
  /** `{ count: n }` instead of the documents. */
  readonly count: boolean
  /** The level below; empty for none. */
  readonly populate: PopulateTree
  /** Asked by `*`: left out (not a 403) when the caller may not read its target. */
  readonly wildcard: boolean
  /** A dynamic zone's fragments: what to show of the entries of each component named (content-model.md §18). */
  readonly on?: ReadonlyMap<string, PopulateNode>
}

/** Relation names (and `localizations`) to populate, with what to show of each. */
export type PopulateTree = ReadonlyMap<string, PopulateNode>

/** Levels `populate` may nest (a deeper one is a 400). */
export const MAX_POPULATE_DEPTH = 5
/** Links a populated to-many shows unless `limit` asks otherwise. */
export const DEFAULT_POPULATE_LIMIT = 100
export const LOCALIZATIONS = 'localizations'

const treeKeys = new WeakMap<PopulateTree, string>()

/** A tree as text, for a cached answer's key (its maps and sets as arrays); made once per tree, which is never changed. */
export function treeKey(tree: PopulateTree): string {
  let key = treeKeys.get(tree)
  if (key === undefined) {
    key = JSON.stringify(tree, (_key, value: unknown) => (value instanceof Map || value instanceof Set ? [...value] : value))
    treeKeys.set(tree, key)
  }
  return key
}

const NODE_KEYS = new Set(['fields', 'filters', 'sort', 'populate', 'start', 'limit', 'count'])

const invalid = (message: string, key: string) => badRequest(message, queryDetails('populate', key, 'populate'))

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/** The types a tree is parsed against: the type itself, and any type by uid (relation targets). */
export type TypeOf = (uid: string) => ContentType

const leaf = (wildcard = false): PopulateNode => ({ fields: undefined, filters: undefined, sort: [], start: 0, limit: DEFAULT_POPULATE_LIMIT, count: false, populate: new Map(), wildcard })

/** The names `type` may populate: its public relations, components and zones, and `localizations` where it is localized. */
function populatable(type: ContentType): string[] {
  return [...publicRelations(type), ...Object.keys(type.components), ...(type.localized ? [LOCALIZATIONS] : [])]
}

/** The type a populated name shows: the relation's target, a component's attributes, or `type` itself for `localizations`. */
function typeBelow(type: ContentType, name: string, typeOf: TypeOf): ContentType {
  const field = type.components[name]
  if (field !== undefined) return typeBelowField(field)
  return name === LOCALIZATIONS ? type : typeOf((type.relations[name] as { target: string }).target)
}

/** Keys a component's node takes (a zone's `on` too); the others are a relation's. */
const COMPONENT_KEYS = new Set(['fields', 'populate', 'on'])

/** A component or zone's options object: `{ fields, populate }`, and for a zone `on: { <uid>: { fields, populate } }`. */
function readComponentNode(raw: Record<string, unknown>, type: ContentType, name: string, depth: number, typeOf: TypeOf): PopulateNode {
  const field = type.components[name]
  if (field === undefined) throw invalid(`Invalid key ${name}`, name)
  for (const key of Object.keys(raw)) {
    if (!COMPONENT_KEYS.has(key) || (key === 'on' && field.kind !== 'dynamiczone')) throw invalid(`Invalid key ${key}`, key)
  }
  const below = typeBelowField(field)
  const populate = new Map<string, PopulateNode>()
  if (raw.populate !== undefined) readLevel(populate, raw.populate, below, depth + 1, typeOf)
  let on: Map<string, PopulateNode> | undefined
  if (raw.on !== undefined) {
    if (!isRecord(raw.on)) throw invalid('Invalid value for populate on: expected an object of component uids', 'on')
    on = new Map()
    for (const [uid, value] of Object.entries(raw.on)) {
      const schema = field.components.find((component) => component.uid === uid)
      if (schema === undefined) throw invalid(`Invalid key ${uid}: not a component of ${name}`, uid)
      const fragment = value === 'true' || value === '*' ? {} : value
      if (!isRecord(fragment)) throw invalid(`Invalid value for populate ${name} on ${uid}: expected true or an object`, uid)
      on.set(uid, readComponentNode(fragment, { ...type, components: { [name]: { ...field, kind: 'component', components: [schema] } } }, name, depth, typeOf))
    }
  }
  return { ...leaf(), fields: parseFields(raw.fields, below), populate, ...(on === undefined ? {} : { on }) }
}

function checkName(type: ContentType, name: string): void {
  if (!populatable(type).includes(name)) throw invalid(`Invalid key ${name}`, name)
}

function checkDepth(depth: number, name: string): void {
  if (depth > MAX_POPULATE_DEPTH) throw invalid(`populate is nested too deep: at most ${MAX_POPULATE_DEPTH} levels`, name)
}

/** Merges dot paths (`author.articles`) into `tree`, level `depth`. */
function addPath(tree: Map<string, PopulateNode>, type: ContentType, path: readonly string[], depth: number, typeOf: TypeOf): void {
  const [name, ...rest] = path
  if (name === undefined || name === '') return
  checkDepth(depth, name)
  if (name === '*') {
    if (rest.length > 0) throw invalid('populate: * takes no path below it', name)
    for (const each of populatable(type)) if (!tree.has(each)) tree.set(each, leaf(true))
    return
  }
  checkName(type, name)
  const node = tree.get(name) ?? leaf()
  const below = new Map(node.populate)
  addPath(below, typeBelow(type, name, typeOf), rest, depth + 1, typeOf)
  tree.set(name, { ...node, populate: below })
}

function readInteger(raw: unknown, key: string, min: number): number {
  if (typeof raw !== 'string' || !/^\d+$/.test(raw) || Number(raw) < min || !Number.isSafeInteger(Number(raw))) throw invalid(`Invalid value for populate ${key}: expected an integer of at least ${min}`, key)
  return Number(raw)
}

/** One relation's options object: `{ fields, filters, sort, populate, start, limit, count }`. */
function readNode(raw: Record<string, unknown>, type: ContentType, name: string, depth: number, typeOf: TypeOf): PopulateNode {
  const target = typeBelow(type, name, typeOf)
  const many = name === LOCALIZATIONS || type.relations[name]?.many === true
  for (const key of Object.keys(raw)) {
    if (key === 'status' || key === 'locale') throw invalid(`Invalid key ${key} in populate: populated documents follow the request's ${key}`, key)
    if (!NODE_KEYS.has(key)) throw invalid(`Invalid key ${key}`, key)
    if ((key === 'start' || key === 'limit' || key === 'count') && !many) throw invalid(`Invalid key ${key}: ${name} links one document`, key)
  }
  const below = new Map<string, PopulateNode>()
  if (raw.populate !== undefined) readLevel(below, raw.populate, target, depth + 1, typeOf)
  return {
    fields: parseFields(raw.fields, target),
    filters: parseFilters(raw.filters, target, typeOf),
    sort: parseSort(raw.sort, target),
    start: raw.start === undefined ? 0 : readInteger(raw.start, 'start', 0),
    limit: raw.limit === undefined ? DEFAULT_POPULATE_LIMIT : readInteger(raw.limit, 'limit', 1),
    count: raw.count === undefined ? false : raw.count === 'true' ? true : raw.count === 'false' ? false : (() => { throw invalid('Invalid value for populate count: expected true or false', 'count') })(),
    populate: below,
    wildcard: false,
  }
}

/** One level's value: a string of names and paths, a list of them, or an object by name. */
function readLevel(tree: Map<string, PopulateNode>, raw: unknown, type: ContentType, depth: number, typeOf: TypeOf): void {
  if (typeof raw === 'string') {
    for (const part of raw.split(',').map((item) => item.trim()).filter((item) => item !== '')) addPath(tree, type, part.split('.'), depth, typeOf)
    return
  }
  const list = Array.isArray(raw) ? raw : isRecord(raw) && Object.keys(raw).length > 0 && Object.keys(raw).every((key) => /^\d+$/.test(key)) ? Object.values(raw) : undefined
  if (list !== undefined) {
    for (const item of list) {
      if (typeof item !== 'string') throw invalid('Invalid populate: expected relation names', 'populate')
      readLevel(tree, item, type, depth, typeOf)
    }
    return
  }
  if (!isRecord(raw)) throw invalid('Invalid populate: expected relation names or an object', 'populate')
  for (const [name, value] of Object.entries(raw)) {
    checkDepth(depth, name)
    if (name === '*') {
      if (value !== 'true' && value !== '*') throw invalid('Invalid value for populate[*]: expected true', name)
      addPath(tree, type, ['*'], depth, typeOf)
      continue
    }
    checkName(type, name)
    if (value === 'false') continue
    if (value === 'true' || value === '*') {
      addPath(tree, type, [name], depth, typeOf)
      if (value === '*') addPath(tree.get(name)?.populate as Map<string, PopulateNode>, typeBelow(type, name, typeOf), ['*'], depth + 1, typeOf)
      continue
    }
    if (!isRecord(value)) throw invalid(`Invalid value for populate ${name}: expected true, false or an object`, name)
    tree.set(name, Object.hasOwn(type.components, name) ? readComponentNode(value, type, name, depth, typeOf) : readNode(value, type, name, depth, typeOf))
  }
}

/** Parses the raw `populate` value from qs for `type`; undefined when absent or empty. */
export function parsePopulate(raw: unknown, type: ContentType, typeOf: TypeOf): PopulateTree | undefined {
  if (raw === undefined) return undefined
  const tree = new Map<string, PopulateNode>()
  readLevel(tree, raw, type, 1, typeOf)
  return tree.size === 0 ? undefined : tree
}
