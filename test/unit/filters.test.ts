import qs from 'qs'
import { describe, expect, it } from 'vitest'
import type { ContentType } from '../../lib/content-types.js'
import { errorOf } from '../support/errors.js'
import { matchesFilter, parseFilters, type Filter } from '../../lib/query/filters.js'
import { parseSearch } from '../../lib/query/parse.js'

const product: ContentType = {
  uid: 'api::product.product',
  kind: 'collection',
  singularName: 'product',
  pluralName: 'products',
  displayName: 'Product',
  localized: true,
  draftAndPublish: false,
  relations: {},
  components: {},
  attributes: {
    title: { type: 'string', localized: true },
    summary: { type: 'text', localized: true },
    body: { type: 'blocks', localized: true },
    extra: { type: 'json', localized: false },
    views: { type: 'integer', localized: false },
    big: { type: 'biginteger', localized: false },
    price: { type: 'float', localized: false },
    rate: { type: 'decimal', localized: false },
    active: { type: 'boolean', localized: false },
    day: { type: 'date', localized: false },
    at: { type: 'time', localized: false },
    when: { type: 'datetime', localized: false },
    kind: { type: 'enumeration', localized: false, enum: ['a', 'b'] },
  },
}

/** The filter of a query string, parsed as the routes do (qs with the API's limits). */
const parse = (search: string) => parseFilters(parseSearch(`http://x/?${search}`).filters, product)
const cond = (field: string, operator: string, values: unknown[]) => ({ kind: 'condition', field, operator, values })
const version = (values: Record<string, unknown> = {}) => ({
  id: 1, documentId: 'abc', locale: 'en', createdAt: '2024-01-01T00:00:00.000Z', updatedAt: '2024-01-02T00:00:00.000Z',
  publishedAt: '2024-01-03T00:00:00.000Z', title: 'Hello', views: 10, ...values,
})
const matches = (search: string, values: Record<string, unknown>, collation = 'en') =>
  matchesFilter(parse(search) as Filter, version(values), collation, product)

describe('parseFilters: shapes', () => {
  it.each([
    ['filters[title]=x', cond('title', '$eq', ['x'])],
    ['filters[title][$eq]=x', cond('title', '$eq', ['x'])],
    ['filters[title]', cond('title', '$eq', [''])],
    ['filters[views][0]=1&filters[views][1]=2', cond('views', '$in', [1, 2])],
    ['filters[views][$eq][0]=1&filters[views][$eq][1]=2', cond('views', '$in', [1, 2])],
    ['filters[views][$ne][0]=1&filters[views][$ne][1]=2', cond('views', '$notIn', [1, 2])],
    ['filters[views][$in]=3', cond('views', '$in', [3])],
    ['filters[views][$notIn]=3', cond('views', '$notIn', [3])],
    ['filters[views][$between][0]=1&filters[views][$between][1]=5', cond('views', '$between', [1, 5])],
    ['filters[title][$null]=true', cond('title', '$null', [true])],
    ['filters[title][$notNull]=yes', cond('title', '$notNull', [true])],
    ['filters[title][$not][$eq]=x', { kind: 'not', filter: cond('title', '$eq', ['x']) }],
    ['filters[title][$not]=x', { kind: 'not', filter: cond('title', '$eq', ['x']) }],
    ['filters[$not][title]=x', { kind: 'not', filter: cond('title', '$eq', ['x']) }],
    ['filters[title]=x&filters[views]=1', { kind: 'and', filters: [cond('title', '$eq', ['x']), cond('views', '$eq', [1])] }],
    ['filters[views][$gt]=1&filters[views][$lt]=9', { kind: 'and', filters: [cond('views', '$gt', [1]), cond('views', '$lt', [9])] }],
    ['filters[$or][0][title]=a&filters[$or][1][title]=b', { kind: 'or', filters: [cond('title', '$eq', ['a']), cond('title', '$eq', ['b'])] }],
    ['filters[$and][0][title]=a', { kind: 'and', filters: [cond('title', '$eq', ['a'])] }],
    ['filters[$or][3][title]=a&filters[$or][7][title]=b', { kind: 'or', filters: [cond('title', '$eq', ['a']), cond('title', '$eq', ['b'])] }],
    ['filters[$or][0][0][title]=a&filters[$or][0][1][views]=1&filters[$or][1][title]=b', {
      kind: 'or', filters: [{ kind: 'and', filters: [cond('title', '$eq', ['a']), cond('views', '$eq', [1])] }, cond('title', '$eq', ['b'])],
    }],
  ])('normalizes %s', (search, expected) => {
    expect(parse(search)).toEqual(expected)
  })

  it('accepts $and/$or given as an object with numeric keys (a sparse list)', () => {
    expect(parseFilters({ $or: { 2: { title: 'a' }, 10: { title: 'b' } } }, product))
      .toEqual({ kind: 'or', filters: [cond('title', '$eq', ['a']), cond('title', '$eq', ['b'])] })
  })

  it('is undefined when filters is absent', () => {
    expect(parseFilters(undefined, product)).toBeUndefined()
  })

  it.each([
    ['false', false], ['0', false], ['f', false], ['', false], ['true', true], ['1', true], ['yes', true], ['x', true],
  ])('reads $null=%j as %s', (raw, expected) => {
    expect(parse(`filters[title][$null]=${raw}`)).toEqual(cond('title', '$null', [expected]))
    expect(parse(`filters[title][$notNull]=${raw}`)).toEqual(cond('title', '$notNull', [expected]))
  })
})

describe('parseFilters: values read as the field type', () => {
  it.each([
    ['id', '7', 7], ['views', '-12', -12], ['price', '1.5', 1.5], ['rate', '2e3', 2000], ['price', '-3', -3],
    ['big', '-9223372036854775807', '-9223372036854775807'], ['active', 'true', true], ['active', 't', true], ['active', '1', true],
    ['active', 'false', false], ['active', 'f', false], ['active', '0', false], ['day', '2024-02-29', '2024-02-29'],
    ['at', '10:30', '10:30'], ['at', '10:30:15.123', '10:30:15.123'],
    ['when', '2024-01-01T10:00:00+02:00', '2024-01-01T08:00:00.000Z'], ['when', '2024-01-01T10:00', '2024-01-01T10:00:00.000Z'],
    ['createdAt', '2024-01-01', '2024-01-01T00:00:00.000Z'], ['publishedAt', '2024-01-01T00:00:00Z', '2024-01-01T00:00:00.000Z'],
    ['title', ' 42 ', ' 42 '], ['kind', 'a', 'a'], ['documentId', 'abc', 'abc'], ['locale', 'fr', 'fr'], ['summary', '%_', '%_'],
  ])('reads %s=%j as %j', (field, raw, expected) => {
    expect(parse(`filters[${field}][$eq]=${encodeURIComponent(raw)}`)).toEqual(cond(field, '$eq', [expected]))
  })

  it.each([
    ['id', '1.5', 'an integer'], ['views', 'abc', 'an integer'], ['views', '', 'an integer'], ['views', '1e3', 'an integer'],
    ['views', '9007199254740993', 'an integer'], ['price', 'NaN', 'a decimal number'], ['price', '1e999', 'a decimal number'],
    ['rate', '0x10', 'a decimal number'], ['big', '12345678901234567890', 'an integer of at most 19 digits'], ['big', '1.0', 'an integer of at most 19 digits'],
    ['active', 'yes', 'a boolean'], ['active', 'TRUE', 'a boolean'], ['day', '2024-02-30', 'an ISO 8601 date'], ['day', '2024-1-1', 'an ISO 8601 date'],
    ['at', '25:00', 'a time'], ['when', 'yesterday', 'an ISO 8601 date-time'], ['when', '2024-13-01T00:00:00Z', 'an ISO 8601 date-time'],
    ['createdAt', '1700000000', 'an ISO 8601 date-time'],
  ])('answers 400 for %s=%j naming the field and %s', (field, raw, expected) => {
    const error = errorOf(() => parse(`filters[${field}][$gt]=${encodeURIComponent(raw)}`))
    expect(error.status).toBe(400)
    expect(error.errorName).toBe('ValidationError')
    expect(error.message).toContain(field)
    expect(error.message).toContain(expected)
    expect(error.details).toEqual({ key: field, path: `filters.${field}.$gt`, source: 'query', param: 'filters' })
  })

  it('names the index of a bad value in a list', () => {
    expect(errorOf(() => parse('filters[views][$in][0]=1&filters[views][$in][1]=x')).details)
      .toMatchObject({ key: 'views', path: 'filters.views.$in.1' })
  })

  it.each(['$contains', '$eqi', '$startsWithi'])('answers 400 for the string operator %s on a number field', (operator) => {
    const error = errorOf(() => parse(`filters[views][${operator}]=1`))
    expect(error.status).toBe(400)
    expect(error.details).toMatchObject({ param: 'filters', path: `filters.views.${operator}` })
  })
})

describe('parseFilters: errors', () => {
  it.each([
    ['filters[nope]=1', 'Invalid key nope', 'filters.nope'],
    ['filters[body][$null]=true', 'Invalid key body', 'filters.body'],
    ['filters[extra]=1', 'Invalid key extra', 'filters.extra'],
    ['filters[$and][0][nope]=1', 'Invalid key nope', 'filters.$and.0.nope'],
    ['filters[title][$like]=x', 'Invalid key $like', 'filters.title.$like'],
    ['filters[$foo][title]=x', 'Invalid key $foo', 'filters.$foo'],
    ['filters[title][sub]=x', 'Invalid key sub', 'filters.title.sub'],
    ['filters[constructor][$eq]=1', 'Invalid key constructor', 'filters.constructor'],
    ['filters[toString]=1', 'Invalid key toString', 'filters.toString'],
  ])('answers 400 for %s', (search, message, path) => {
    const error = errorOf(() => parse(search))
    expect(error.status).toBe(400)
    expect(error.message).toBe(message)
    expect(error.details).toEqual({ key: message.slice('Invalid key '.length), path, source: 'query', param: 'filters' })
  })

  it.each([
    ['$between with one value', 'filters[views][$between][0]=1'],
    ['$between with three values', 'filters[views][$between][0]=1&filters[views][$between][1]=2&filters[views][$between][2]=3'],
    ['$between with a single value', 'filters[views][$between]=1'],
    ['$and that is not an array', 'filters[$and]=x'],
    ['$or that is an object of fields', 'filters[$or][title]=x'],
    ['an $and element that is not an object', 'filters[$and][0]=x'],
    ['filters that is a string', 'filters=title'],
  ])('answers 400 for %s', (_, search) => {
    const error = errorOf(() => parse(search))
    expect(error.status).toBe(400)
    expect(error.details).toMatchObject({ source: 'query', param: 'filters' })
  })

  it.each(['filters[__proto__][title]=x', 'filters[title][__proto__]=x', 'filters[__proto__]=x'])('never applies the prototype key in %s', (search) => {
    expect(parse(search)).toBeUndefined()
    expect(({} as Record<string, unknown>).title).toBeUndefined()
  })

  it('never reads a prototype key that reaches it (qs without its protection)', () => {
    const raw = qs.parse('filters[__proto__][title]=x&filters[constructor][prototype][x]=1', { allowPrototypes: true })
    expect(errorOf(() => parseFilters(raw.filters, product)).status).toBe(400)
  })
})

describe('parseFilters: limits', () => {
  const conditions = (n: number) => Array.from({ length: n }, (_, i) => `filters[$and][${i}][views][$ne]=${i}`).join('&')
  const nested = (n: number) => `filters${'[$or][0]'.repeat(n)}[title][$eq]=x`

  it('accepts 50 conditions and answers 400 naming the limit at 51', () => {
    expect(parseFilters({ $and: Array.from({ length: 50 }, (_, i) => ({ views: String(i) })) }, product)).toBeDefined()
    expect(parse(conditions(50))).toBeDefined()
    const error = errorOf(() => parse(`${conditions(50)}&filters[title]=x`))
    expect(error.status).toBe(400)
    expect(error.message).toMatch(/at most 50/)
  })

  it('counts each operator use on one field as a condition', () => {
    const search = Array.from({ length: 26 }, (_, i) => `filters[$and][${i}][views][$gt]=1&filters[$and][${i}][views][$lt]=9`).join('&')
    expect(errorOf(() => parse(search)).message).toMatch(/at most 50/)
  })

  it('accepts 100 values in $in and answers 400 naming the limit at 101', () => {
    const values = (n: number) => Array.from({ length: n }, (_, i) => `filters[views][$in][${i}]=${i}`).join('&')
    expect(parse(values(100))).toEqual(cond('views', '$in', Array.from({ length: 100 }, (_, i) => i)))
    expect(errorOf(() => parse(values(101))).message).toMatch(/100/)
    const direct = errorOf(() => parseFilters({ views: { $notIn: Array.from({ length: 101 }, (_, i) => String(i)) } }, product))
    expect(direct.message).toBe('Too many values in $notIn: at most 100')
  })

  it('accepts logical nesting 5 deep and answers 400 naming the limit at 6', () => {
    expect(parse(nested(5))).toBeDefined()
    expect(parse(`filters${'[$and][0]'.repeat(4)}[title][$not][$eq]=x`)).toBeDefined()
    const error = errorOf(() => parse(nested(6)))
    expect(error.status).toBe(400)
    expect(error.message).toMatch(/at most 5/)
    expect(errorOf(() => parse(`filters${'[$and][0]'.repeat(5)}[title][$not][$eq]=x`)).message).toMatch(/at most 5/)
    expect(errorOf(() => parse(`filters${'[$not]'.repeat(6)}[title]=x`)).message).toMatch(/at most 5/)
  })

  it('answers 400 for a query nested past what qs parses, never truncating it', () => {
    expect(errorOf(() => parse(nested(12))).status).toBe(400)
  })
})

describe('matchesFilter: operators', () => {
  it.each([
    ['filters[title][$eq]=Hello', 'Hello', true], ['filters[title][$eq]=hello', 'Hello', false],
    ['filters[title][$ne]=hello', 'Hello', true], ['filters[title][$ne]=Hello', 'Hello', false],
    ['filters[title][$eqi]=hELLO', 'Hello', true], ['filters[title][$eqi]=äpfel', 'Äpfel', true], ['filters[title][$nei]=äpfel', 'Äpfel', false],
    ['filters[title][$nei]=x', 'Hello', true],
    ['filters[title][$in][0]=a&filters[title][$in][1]=Hello', 'Hello', true], ['filters[title][$in]=hello', 'Hello', false],
    ['filters[title][$notIn][0]=a', 'Hello', true], ['filters[title][$notIn][0]=Hello', 'Hello', false],
    ['filters[title][$contains]=ell', 'Hello', true], ['filters[title][$contains]=ELL', 'Hello', false],
    ['filters[title][$notContains]=ELL', 'Hello', true], ['filters[title][$notContains]=ell', 'Hello', false],
    ['filters[title][$containsi]=ELL', 'Hello', true], ['filters[title][$notContainsi]=ELL', 'Hello', false],
    ['filters[title][$startsWith]=He', 'Hello', true], ['filters[title][$startsWith]=he', 'Hello', false],
    ['filters[title][$startsWithi]=he', 'Hello', true], ['filters[title][$endsWith]=lo', 'Hello', true],
    ['filters[title][$endsWith]=LO', 'Hello', false], ['filters[title][$endsWithi]=LO', 'Hello', true],
    ['filters[title][$contains]=%25', '100%', true], ['filters[title][$contains]=%25', '100', false],
    ['filters[title][$contains]=a_b', 'a_b', true], ['filters[title][$contains]=a_b', 'axb', false],
    ['filters[title][$startsWith]=%25', 'x%', false], ['filters[title][$eq]=H_llo', 'Hello', false],
    ['filters[title][$null]=true', 'Hello', false], ['filters[title][$null]=false', 'Hello', true],
    ['filters[title][$notNull]=true', 'Hello', true], ['filters[title][$notNull]=false', 'Hello', false],
  ])('%s on %j is %s', (search, title, expected) => {
    expect(matches(search, { title })).toBe(expected)
  })

  it.each([
    ['filters[price][$lt]=10', false], ['filters[price][$lte]=10', true], ['filters[price][$gt]=9', true], ['filters[price][$gte]=11', false],
    ['filters[price][$gt]=9.5', true], ['filters[price][$between][0]=10&filters[price][$between][1]=10', true],
    ['filters[price][$between][0]=2&filters[price][$between][1]=9', false], ['filters[price][$eq]=10', true], ['filters[price]=010', true],
    ['filters[price][$gt]=9e0', true], ['filters[views][$gt]=9', true], ['filters[views][$lt]=9', false],
  ])('compares numbers numerically: %s on 10 is %s', (search, expected) => {
    expect(matches(search, { price: 10, views: 10 })).toBe(expected)
  })

  it('compares bigintegers as numbers, not as strings', () => {
    expect(matches('filters[big][$gt]=9', { big: '10' })).toBe(true)
    expect(matches('filters[big][$lt]=-9', { big: '-10' })).toBe(true)
  })

  it('compares booleans (false before true)', () => {
    expect(matches('filters[active]=f', { active: false })).toBe(true)
    expect(matches('filters[active]=t', { active: false })).toBe(false)
    expect(matches('filters[active][$gt]=false', { active: true })).toBe(true)
  })

  it('orders strings by the collation of the request locale', () => {
    expect(matches('filters[title][$lt]=Banana', { title: 'apple' }, 'en')).toBe(true)
    expect(matches('filters[title][$gt]=z', { title: 'ä' }, 'sv')).toBe(true)
    expect(matches('filters[title][$gt]=z', { title: 'ä' }, 'de')).toBe(false)
    expect(matches('filters[title][$between][0]=a&filters[title][$between][1]=c', { title: 'B' }, '*')).toBe(true)
  })

  it('orders dates, times, timestamps and documentId as plain strings', () => {
    expect(matches('filters[documentId][$lt]=b', { documentId: 'B' }, 'en')).toBe(true)
    expect(matches('filters[documentId][$gt]=a', { documentId: 'B' }, 'en')).toBe(false)
    expect(matches('filters[day][$gt]=2024-01-31', { day: '2024-02-01' })).toBe(true)
    expect(matches('filters[at][$lt]=10:30', { at: '09:59:59.999' })).toBe(true)
    expect(matches('filters[createdAt][$gte]=2024-01-01T00:00:00Z', {})).toBe(true)
    expect(matches('filters[createdAt][$gt]=2024-01-01', {})).toBe(false)
  })

  it('compares a stored date-time with an offset chronologically', () => {
    expect(matches('filters[when][$lt]=2024-01-01T09:00:00Z', { when: '2024-01-01T10:00:00+02:00' })).toBe(true)
    expect(matches('filters[when]=2024-01-01T08:00:00.000Z', { when: '2024-01-01T10:00:00+02:00' })).toBe(true)
  })

  it('combines with and, or and not', () => {
    expect(matches('filters[$or][0][title]=x&filters[$or][1][views][$gt]=5', {})).toBe(true)
    expect(matches('filters[$and][0][title]=Hello&filters[$and][1][views][$gt]=50', {})).toBe(false)
    expect(matches('filters[title]=Hello&filters[views]=10', {})).toBe(true)
    expect(matches('filters[$not][title]=Hello', {})).toBe(false)
    expect(matches('filters[views][$not][$lt]=5', {})).toBe(true)
  })
})

describe('matchesFilter: nulls', () => {
  const operators = ['$eq', '$ne', '$eqi', '$nei', '$lt', '$lte', '$gt', '$gte', '$in', '$notIn', '$contains', '$notContains',
    '$containsi', '$notContainsi', '$startsWith', '$startsWithi', '$endsWith', '$endsWithi']
  const search = (operator: string) => operator === '$in' || operator === '$notIn'
    ? `filters[title][${operator}][0]=x`
    : `filters[title][${operator}]=x`

  describe.each([['null', null], ['absent', undefined]])('a %s title', (_, title) => {
    it.each(operators)('matches no %s', (operator) => {
      expect(matches(search(operator), { title })).toBe(false)
    })
    it('matches $between on no side', () => {
      expect(matches('filters[title][$between][0]=a&filters[title][$between][1]=z', { title })).toBe(false)
    })
    it.each(operators)('matches $not of %s', (operator) => {
      expect(matches(search(operator).replace('[title]', '[title][$not]'), { title })).toBe(true)
      expect(matches(search(operator).replace('filters[', 'filters[$not]['), { title })).toBe(true)
    })
    it.each([
      ['$null]=true', true], ['$null]=false', false], ['$notNull]=true', false], ['$notNull]=false', true],
    ])('matches $%s: %s', (tail, expected) => {
      expect(matches(`filters[title][${tail}`, { title })).toBe(expected)
    })
  })

  it('matches a null number with no comparison', () => {
    expect(matches('filters[views][$lt]=100', { views: null })).toBe(false)
    expect(matches('filters[views][$ne]=1', { views: null })).toBe(false)
  })
})
