// Sort keys for the generic GSI slots: one ASCII string per sortable field whose byte order is
// MONOTONE (non-strict) with respect to lib/query/sort.ts's comparator. Entries with equal keys
// (a run) are then ordered exactly in memory, so a key only has to never contradict the
// comparator; the finer it discriminates, the shorter the runs. Pure: no SDK, no I/O.
import { SCALAR_TYPES, SYSTEM_FIELDS, type ContentType } from '../content-types.js'
import { fieldKind, plainOrdered } from '../query/field-kinds.js'

export type KeyKind = 'collated' | 'plain' | 'number' | 'biginteger' | 'boolean'

/**
 * Candidates appended at each collation level (part of the key version): ASCII letters, digits
 * and common punctuation; then letters that are letters of their own in some locales (Nordic,
 * Turkish, Central European, Russian Cyrillic) and contractions that sort as letters (Czech "ch",
 * Danish "aa"). A collator keeps an extra only where it is a letter of its own (see alphabetOf):
 * a letter sorting within a kept one would be picked as the pivot without being a prefix.
 * Strings in other scripts get keys only as fine as this alphabet.
 */
const BASE = ` -,.:'(&0123456789abcdefghijklmnopqrstuvwxyz`
const LETTERS = 'æøåäöçğışüčřšžñабвгдежзийклмнопрстуфхцчшщъыьэюя'
const CONTRACTIONS = ['ch', 'aa']
const ALPHABET: readonly string[] = [...BASE, ...LETTERS, ...CONTRACTIONS]
/** Rank digits: printable ASCII, ascending; a rank lies in 0..ALPHABET.length. */
const DIGITS = Array.from({ length: 94 }, (_, i) => String.fromCharCode(0x21 + i)).join('')
const MAX_DEPTH = 32
/** Trailing characters of the prefix that decide the candidate order (contractions are short). */
const CONTEXT = 2

interface CollatorState {
  readonly alphabet: readonly string[]
  /** Candidate orders by context. */
  readonly orders: Map<string, readonly string[]>
}

/** Collators with the same resolved options compare alike, so they share one state. */
const byCollator = new WeakMap<Intl.Collator, CollatorState>()
const byOptions = new Map<string, CollatorState>()

/** True when strings starting with `letter` sort among those starting with `kept` (ä, æ in en). */
function within(collator: Intl.Collator, kept: string, letter: string): boolean {
  return collator.compare(kept, letter) <= 0 && collator.compare(letter + 'a', kept + 'zz') < 0
}

function alphabetOf(collator: Intl.Collator): readonly string[] {
  const alphabet = [...BASE]
  // In collation order, so a letter's smallest variant is the one kept.
  for (const letter of [...LETTERS].sort((x, y) => collator.compare(x, y))) {
    if (!alphabet.some((kept) => within(collator, kept, letter))) alphabet.push(letter)
  }
  for (const pair of CONTRACTIONS) {
    if (collator.compare(pair, `${pair[0]}zz`) > 0) alphabet.push(pair)
  }
  return alphabet
}

function stateOf(collator: Intl.Collator): CollatorState {
  let state = byCollator.get(collator)
  if (state !== undefined) return state
  const signature = JSON.stringify(collator.resolvedOptions())
  state = byOptions.get(signature) ?? { alphabet: alphabetOf(collator), orders: new Map() }
  byOptions.set(signature, state)
  byCollator.set(collator, state)
  return state
}

/**
 * The order in which to try the candidates prefix + c: the alphabet sorted as context + c, the
 * context being the last CONTEXT characters of the prefix. It is exact unless a contraction
 * spans more than CONTEXT + 1 characters; keys stay monotone either way (see collationKey).
 */
function candidateOrder(collator: Intl.Collator, prefix: string): readonly string[] {
  const { alphabet, orders } = stateOf(collator)
  const context = prefix.slice(-CONTEXT)
  let order = orders.get(context)
  if (order === undefined) {
    order = [...alphabet].sort((x, y) => collator.compare(context + x, context + y))
    orders.set(context, order)
  }
  return order
}

/**
 * The partition point of "prefix + order[i] <= value" by binary search. If a <= b, every
 * candidate <= a is <= b, so at each probe b goes right whenever a does: rank(a) <= rank(b),
 * whether or not the candidates are sorted (sorted, the rank is their count below the value).
 */
function rank(collator: Intl.Collator, prefix: string, order: readonly string[], value: string): number {
  let low = 0
  let high = order.length
  while (low < high) {
    const middle = (low + high) >>> 1
    if (collator.compare(prefix + order[middle], value) <= 0) low = middle + 1
    else high = middle
  }
  return low
}

/**
 * A key monotone under `collator.compare`, for any collator: hierarchical pivot ranks. Level 1
 * ranks the value among the collator's alphabet (see ALPHABET); each further level ranks it among
 * P + c (c in that alphabet), P the candidate just below the rank of the level before (with sorted
 * candidates: the greatest one <= value); rank 0 or MAX_DEPTH levels end the key.
 * Why it is monotone: let compare(a, b) <= 0. At a level both values are ranked among the same
 * candidates in the same order (a function of P alone), so rank(a) <= rank(b) (see rank). If
 * rank(a) < rank(b) the keys differ first there, in the right direction. If the ranks are equal,
 * both stop (rank 0, or the depth cap, which both reach at the same level) or both take the same
 * P, hence the same candidates next. So key(a) <= key(b), and compare(a, b) = 0 gives equal keys.
 * The stop rule depends only on the ranks so far, so no key is a proper prefix of another.
 */
export function collationKey(value: string, collator: Intl.Collator): string {
  let key = ''
  let prefix = ''
  for (let depth = 0; depth < MAX_DEPTH; depth++) {
    const order = candidateOrder(collator, prefix)
    const r = rank(collator, prefix, order, value)
    key += DIGITS[r]
    if (r === 0) break
    prefix += order[r - 1]
  }
  return key
}

const float = new DataView(new ArrayBuffer(8))

function hex(word: number, width: number): string {
  return word.toString(16).padStart(width, '0')
}

/** 16 hex digits in numeric order for every double but NaN (-0 equals 0): IEEE bits, sign flipped. */
export function encodeNumber(n: number): string {
  if (Number.isNaN(n)) throw new RangeError('NaN has no sort key')
  float.setFloat64(0, n === 0 ? 0 : n)
  let high = float.getUint32(0)
  let low = float.getUint32(4)
  if (high >>> 31 === 1) {
    high = ~high >>> 0
    low = ~low >>> 0
  } else {
    high = (high | 0x80000000) >>> 0
  }
  return hex(high, 8) + hex(low, 8)
}

/** Numeric order for /^-?\d{1,19}$/: 'N'|'P', a length digit, the digits (nines' complement if negative). */
export function encodeBigInteger(digits: string): string {
  const match = /^(-?)(\d{1,19})$/.exec(digits)
  if (match === null) throw new RangeError(`${digits} is not a biginteger`)
  const magnitude = (match[2] as string).replace(/^0+(?=\d)/, '')
  if (match[1] === '' || magnitude === '0') return `P${DIGITS[magnitude.length]}${magnitude}`
  const complement = magnitude.replace(/\d/g, (d) => String(9 - Number(d)))
  return `N${DIGITS[20 - magnitude.length]}${complement}`
}

/** ASCII in JS code-unit order: units below '~' as themselves, the rest as '~' + 4 hex digits. */
export function encodePlain(value: string): string {
  return value.replace(/[\u007e-\uffff]/g, (unit) => `~${hex(unit.charCodeAt(0), 4)}`)
}

function encodeValue(kind: KeyKind, value: unknown, collator: Intl.Collator): string {
  if (kind === 'boolean' && typeof value === 'boolean') return value ? '1' : '0'
  if (kind === 'number' && typeof value === 'number') return encodeNumber(value)
  if (typeof value === 'string') {
    if (kind === 'collated') return collationKey(value, collator)
    if (kind === 'plain') return encodePlain(value)
    if (kind === 'biginteger') return encodeBigInteger(value)
  }
  throw new TypeError(`A ${typeof value} has no ${kind} sort key`)
}

/** The index key of one field value: '0' for null or undefined (before all), else '1' + encoding. */
export function indexKey(kind: KeyKind, value: unknown, collator: Intl.Collator): string {
  if (value === null || value === undefined) return '0'
  return '1' + encodeValue(kind, value, collator)
}

/**
 * The key kind of a sortable field, from its ordering kind (lib/query/field-kinds.ts), so keys and
 * the sort comparator agree by construction. Throws for a field that cannot be sorted on.
 */
export function keyKindOf(type: ContentType, field: string): KeyKind {
  const attribute = Object.hasOwn(type.attributes, field) ? type.attributes[field] : undefined
  if (attribute !== undefined && !SCALAR_TYPES.has(attribute.type)) throw new Error(`${field} is not a sortable field of ${type.uid}`)
  if (attribute === undefined && !SYSTEM_FIELDS.includes(field as (typeof SYSTEM_FIELDS)[number])) throw new Error(`${field} is not a sortable field of ${type.uid}`)
  const kind = fieldKind(field, type)
  if (kind === 'integer' || kind === 'number') return 'number'
  if (kind === 'biginteger' || kind === 'boolean' || kind === 'collated') return kind
  if (plainOrdered(kind)) return 'plain'
  throw new Error(`${field} has no key kind`)
}

function shortHash(text: string): string {
  let hash = 0x811c9dc5
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193) >>> 0
  return hash.toString(36)
}

/** Everything the keys depend on; stored with the index, a change means rebuilding it. */
export const KEY_VERSION = [
  'k1',
  shortHash(ALPHABET.join('|') + DIGITS),
  `d${MAX_DEPTH}`,
  `icu${process.versions.icu ?? '-'}`,
  `u${process.versions.unicode ?? '-'}`,
  `cldr${process.versions.cldr ?? '-'}`,
].join('.')
