import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { type ContentType } from '../../lib/content-types.js'
import { article } from '../support/types.js'
import { sortComparator } from '../../lib/query/sort.js'
import { KEY_VERSION, collationKey, encodeBigInteger, encodeNumber, indexKey, keyKindOf } from '../../lib/storage/index-keys.js'

const LOCALES = ['en', 'fr', 'de', 'sv', 'cs', 'da', 'es', 'tr', 'ja', 'und']
const PIECES = [
  'a', 'A', 'b', 'c', 'C', 'h', 'H', 'i', 'I', 'o', 'z', 'Z', '0', '1', '9', ' ', '  ', '-', '.', ',', '!', '?', "'",
  'é', 'É', 'è', 'à', 'ç', 'ñ', 'ü', 'ö', 'ä', 'å', 'ø', 'æ', 'œ', 'ß', 'ı', 'İ', 'č', 'ch', 'aa',
  'ж', 'Ж', 'я', 'й', 'α', 'Ω', '東', '京', '日本', '🎉', '👍🏽',
  '\u0301', '\u0308', '\u200b', '\u200d', '\u00ad',
]
const text = fc.array(fc.constantFrom(...PIECES), { maxLength: 10 }).map((pieces) => pieces.join(''))
/** Pairs sharing a prefix, so that many comparisons are decided deep in the strings. */
const pair = fc.tuple(text, text, text).map(([prefix, x, y]) => [prefix + x, prefix + y] as const)
/** Pairs that often compare equal: the same text with ignorables, decomposition or case changed. */
const variant = fc.tuple(text, fc.constantFrom('NFD', 'NFC', 'zw', 'shy', 'upper')).map(([s, how]) => {
  const other = how === 'NFD' || how === 'NFC' ? s.normalize(how) : how === 'zw' ? `\u200b${s}\u200d` : how === 'shy' ? s.replace(/a/g, 'a\u00ad') : s.toUpperCase()
  return [s, other] as const
})

function bytewise(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0
}

describe.each(LOCALES)('collationKey in %s', (locale) => {
  const collator = new Intl.Collator(locale)
  const key = (s: string) => collationKey(s, collator)

  function assertMonotone(a: string, b: string): void {
    const order = Math.sign(collator.compare(a, b))
    const keyOrder = bytewise(key(a), key(b))
    if (order === 0) expect(keyOrder).toBe(0)
    else expect(keyOrder * order).toBeGreaterThanOrEqual(0)
  }

  it('never orders two values against the collator, and gives equal values equal keys', () => {
    fc.assert(fc.property(pair, ([a, b]) => assertMonotone(a, b)), { numRuns: 400 })
    fc.assert(fc.property(variant, ([a, b]) => assertMonotone(a, b)), { numRuns: 200 })
  })

  it('gives canonically equivalent and ignorable-only differences the same key', () => {
    expect(collator.compare('e\u0301te\u0301', 'été')).toBe(0)
    expect(key('e\u0301te\u0301')).toBe(key('été'))
    expect(key('ab\u200bc')).toBe(key('abc'))
  })

  it('orders a list exactly when sorted by key, then by the comparator within equal keys', () => {
    const compare = sortComparator([{ field: 'title', order: 'asc' }], article, locale)
    const rows = fc.array(fc.option(text, { nil: null, freq: 8 }), { minLength: 2, maxLength: 30 })
    fc.assert(fc.property(rows, (titles) => {
      const documents = titles.map((title, id) => ({ id, title, key: indexKey('collated', title, collator) }))
      const byKey = [...documents].sort((a, b) => bytewise(a.key, b.key) || compare(a, b))
      expect(byKey.map((d) => d.id)).toEqual([...documents].sort(compare).map((d) => d.id))
    }), { numRuns: 60 })
  })

  it('tells apart Latin strings that differ at primary strength within 30 characters', () => {
    const base = new Intl.Collator(locale, { sensitivity: 'base' })
    const latin = fc.array(fc.constantFrom(...'abcxyzABXZ019 '), { maxLength: 30 }).map((c) => c.join(''))
    fc.assert(fc.property(latin, latin, (a, b) => {
      fc.pre(base.compare(a, b) !== 0)
      expect(key(a)).not.toBe(key(b))
    }), { numRuns: 300 })
  })

  it('writes printable ASCII keys of at most 32 characters, none a prefix of another', () => {
    fc.assert(fc.property(text, text, (a, b) => {
      const [x, y] = [key(a), key(b)]
      expect(x).toMatch(/^[!-~]{1,32}$/)
      if (x !== y) expect(y.startsWith(x)).toBe(false)
    }), { numRuns: 200 })
  })

  it('stops discriminating after 32 levels', () => {
    const prefix = 'the same forty characters of a long title'
    expect(key(`${prefix} one`)).toBe(key(`${prefix} two`))
    expect(key(`${prefix} one`)).toHaveLength(32)
  })
})

describe('collationKey with contractions and locale letters', () => {
  it('ranks Czech "ch" as the letter after h, and tells its words apart', () => {
    const cs = new Intl.Collator('cs')
    expect(bytewise(collationKey('hrad', cs), collationKey('chata', cs))).toBe(-1)
    expect(bytewise(collationKey('chata', cs), collationKey('iglú', cs))).toBe(-1)
    expect(collationKey('chata', cs)).not.toBe(collationKey('chyba', cs))
  })

  it('tells apart Swedish words starting with å, ä, ö, which sort after z', () => {
    const sv = new Intl.Collator('sv')
    const words = ['zebra', 'åka', 'åsa', 'ära', 'ärm', 'öra', 'örn', 'østen']
    expect([...words].sort(sv.compare)).toEqual(words)
    const keys = words.map((w) => collationKey(w, sv))
    expect(new Set(keys).size).toBe(words.length)
    expect([...keys].sort()).toEqual(keys)
  })

  it('tells apart Russian words', () => {
    const ru = new Intl.Collator('ru')
    expect(collationKey('книга', ru)).not.toBe(collationKey('кино', ru))
  })
})

describe('encodeNumber', () => {
  const special = [-Number.MAX_VALUE, -(2 ** 53) - 2, -(2 ** 31), -1, -Number.MIN_VALUE, -0, 0, Number.MIN_VALUE, 2.2250738585072014e-308, 0.1, 1, 2 ** 31, 2 ** 53 - 1, 2 ** 53 + 2, Number.MAX_VALUE]

  it('orders encodings as the numbers, with 16 hex digits', () => {
    const encoded = special.map(encodeNumber)
    for (const e of encoded) expect(e).toMatch(/^[0-9a-f]{16}$/)
    expect(encoded.slice(0, 5)).toEqual([...encoded.slice(0, 5)].sort())
    expect(new Set(encoded).size).toBe(special.length - 1)
    expect([...encoded].sort()).toEqual(encoded)
  })

  it('encodes -0 as 0', () => {
    expect(encodeNumber(-0)).toBe(encodeNumber(0))
  })

  it('keeps the order of random doubles, subnormals included', () => {
    const double = fc.oneof(fc.double({ noNaN: true, noDefaultInfinity: true }), fc.constantFrom(...special), fc.integer().map((n) => n * 2 ** 20))
    fc.assert(fc.property(double, double, (a, b) => {
      expect(bytewise(encodeNumber(a), encodeNumber(b))).toBe(Math.sign(a - b) || 0)
    }), { numRuns: 5000 })
  })

  it('rejects NaN', () => {
    expect(() => encodeNumber(Number.NaN)).toThrow(RangeError)
  })
})

describe('encodeBigInteger', () => {
  const limit = 10n ** 19n - 1n

  it('keeps numeric order of 1 to 19 digit values, negatives included', () => {
    const value = fc.oneof(fc.bigInt({ min: -limit, max: limit }), fc.bigInt({ min: -999n, max: 999n }), fc.constantFrom(limit, -limit, 0n))
    fc.assert(fc.property(value, value, (a, b) => {
      expect(bytewise(encodeBigInteger(String(a)), encodeBigInteger(String(b)))).toBe(a < b ? -1 : a > b ? 1 : 0)
    }), { numRuns: 5000 })
  })

  it('normalizes -0 and leading zeros', () => {
    expect(encodeBigInteger('-0')).toBe(encodeBigInteger('0'))
    expect(encodeBigInteger('-000')).toBe(encodeBigInteger('0'))
    expect(encodeBigInteger('0000000000000000042')).toBe(encodeBigInteger('42'))
    expect(encodeBigInteger('-007')).toBe(encodeBigInteger('-7'))
  })

  it.each(['', '-', '1.5', '12345678901234567890', '+1', ' 1'])('rejects %j', (raw) => {
    expect(() => encodeBigInteger(raw)).toThrow(RangeError)
  })
})

describe('indexKey', () => {
  const collator = new Intl.Collator('en')

  it('puts null and undefined before every value', () => {
    const values: Array<[Parameters<typeof indexKey>[0], unknown]> = [['collated', ''], ['plain', ''], ['number', -Number.MAX_VALUE], ['biginteger', '-9999999999999999999'], ['boolean', false]]
    for (const [kind, value] of values) {
      expect(indexKey(kind, null, collator)).toBe(indexKey(kind, undefined, collator))
      expect(bytewise(indexKey(kind, null, collator), indexKey(kind, value, collator))).toBe(-1)
    }
  })

  it('orders false before true', () => {
    expect(bytewise(indexKey('boolean', false, collator), indexKey('boolean', true, collator))).toBe(-1)
  })

  it('keeps ISO dates as they are, after the marker', () => {
    expect(indexKey('plain', '2024-05-01T10:00:00.000Z', collator)).toBe('12024-05-01T10:00:00.000Z')
  })

  it('orders plain strings by UTF-16 code units, in ASCII keys', () => {
    const unit = fc.oneof(fc.integer({ min: 0, max: 0x7f }), fc.integer({ min: 0x7e, max: 0xffff }))
    const plain = fc.array(unit, { maxLength: 8 }).map((units) => String.fromCharCode(...units))
    fc.assert(fc.property(plain, plain, (a, b) => {
      const [x, y] = [indexKey('plain', a, collator), indexKey('plain', b, collator)]
      expect(x).toMatch(/^[\x00-\x7f]*$/)
      expect(bytewise(x, y)).toBe(bytewise(a, b))
    }), { numRuns: 3000 })
  })

  it.each([['number', '1'], ['boolean', 1], ['collated', 5], ['biginteger', 5], ['plain', true]] as const)('rejects a %s key of %j', (kind, value) => {
    expect(() => indexKey(kind, value, collator)).toThrow(TypeError)
  })
})

describe('keyKindOf', () => {
  const everything: ContentType = {
    ...article,
    attributes: Object.fromEntries(
      ['string', 'text', 'email', 'uid', 'enumeration', 'integer', 'biginteger', 'float', 'decimal', 'boolean', 'date', 'time', 'datetime', 'json']
        .map((type) => [type, { type, localized: true }]),
    ) as ContentType['attributes'],
  }

  it.each([
    ['id', 'number'], ['documentId', 'plain'], ['createdAt', 'plain'], ['updatedAt', 'plain'], ['publishedAt', 'plain'], ['locale', 'collated'],
    ['string', 'collated'], ['text', 'collated'], ['email', 'collated'], ['uid', 'collated'], ['enumeration', 'collated'],
    ['integer', 'number'], ['float', 'number'], ['decimal', 'number'], ['biginteger', 'biginteger'], ['boolean', 'boolean'],
    ['date', 'plain'], ['time', 'plain'], ['datetime', 'plain'],
  ])('keys %s as %s', (field, kind) => {
    expect(keyKindOf(everything, field)).toBe(kind)
  })

  it.each(['json', 'nope'])('rejects the unsortable field %s', (field) => {
    expect(() => keyKindOf(everything, field)).toThrow()
  })
})

describe('KEY_VERSION', () => {
  it('names the ICU and Unicode versions the collation keys were built with', () => {
    expect(KEY_VERSION).toContain(`icu${process.versions.icu}`)
    expect(KEY_VERSION).toContain(`u${process.versions.unicode}`)
    expect(KEY_VERSION).toMatch(/^[!-~]+$/)
  })
})
