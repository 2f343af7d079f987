import qs from 'qs'
import { describe, expect, it } from 'vitest'
import { article } from '../support/types.js'
import { errorOf } from '../support/errors.js'
import { MAX_QUERY_LENGTH, parseItemQuery, parseSearch, parseListQuery, parseReadQuery, parseWriteQuery } from '../../lib/query/parse.js'

const rest = { defaultLimit: 25, maxLimit: 100, findOneShape: 'array' as const }
const list = (search: string) => parseListQuery(`http://x/api/articles?${search}`, article, rest)

describe('parseListQuery', () => {
  it('reads bracket syntax for sort and pagination', () => {
    const query = list('sort[0]=title&sort[1]=views:desc&pagination[page]=2&pagination[pageSize]=5&locale=fr')
    expect(query).toEqual({
      locale: 'fr',
      sort: [{ field: 'title', order: 'asc' }, { field: 'views', order: 'desc' }],
      pagination: { mode: 'page', page: 2, pageSize: 5, withCount: true },
    })
  })

  it('reads percent-encoded brackets', () => {
    expect(list('sort%5B0%5D=title%3Adesc&pagination%5Bstart%5D=3').sort).toEqual([{ field: 'title', order: 'desc' }])
  })

  it('treats an empty locale as the default', () => {
    expect(list('locale=').locale).toBeUndefined()
  })

  it.each(['locale[0]=en', 'locale[a]=en', 'locale=en&locale=fr'])('rejects the locale in %s', (search) => {
    expect(errorOf(() => list(search)).status).toBe(400)
  })

  it('rejects an unknown parameter with its name', () => {
    const error = errorOf(() => list('nope=1'))
    expect(error.message).toBe('Invalid key nope')
    expect(error.details).toMatchObject({ param: 'nope', source: 'query' })
  })

  it.each(['page=2', 'pageSize=2', 'start=1', 'limit=3'])('rejects top-level %s with a hint to pagination[...]', (search) => {
    expect(errorOf(() => list(search)).message).toMatch(/pagination\[/)
  })

  it.each(['__proto__[x]=1&nope=1', 'constructor[prototype][x]=1'])('rejects %s', (search) => {
    expect(errorOf(() => list(search)).status).toBe(400)
  })

  it.each(['sort[__proto__]=desc', 'pagination[__proto__][x]=1', '__proto__[polluted]=1'])('drops the prototype key in %s', (search) => {
    const query = list(search)
    expect(query.sort).toEqual([])
    expect(query.pagination).toEqual({ mode: 'page', page: 1, pageSize: 25, withCount: true })
    expect(({} as Record<string, unknown>).polluted).toBeUndefined()
  })

  it.each([
    ['more than 1000 parameters', Array.from({ length: 1001 }, (_, i) => `p${i}=1`).join('&')],
    ['an array index past 100', 'sort[101]=title'],
    ['more than 100 array elements', Array.from({ length: 101 }, () => 'sort[]=title').join('&')],
  ])('answers 400 for %s', (_, search) => {
    const error = errorOf(() => list(search))
    expect(error.status).toBe(400)
    expect(error.message).toMatch(/limit exceeded|Too many values in sort: at most 100/)
  })

  it('answers 414 past the length limit', () => {
    expect(errorOf(() => list(`sort=${'a'.repeat(MAX_QUERY_LENGTH)}`)).status).toBe(414)
  })
})

describe('parseItemQuery', () => {
  it('accepts locale only', () => {
    expect(parseItemQuery('http://x/api/articles/abc?locale=de')).toEqual({ locale: 'de' })
    expect(errorOf(() => parseItemQuery('http://x/api/articles/abc?sort=title')).message).toBe('Invalid key sort')
  })
})

const read = (search: string) => parseReadQuery(`http://x/api/articles/abc?${search}`, article)
const write = (search: string) => parseWriteQuery(`http://x/api/articles/abc?${search}`, article)
const title = { kind: 'condition', field: 'title', operator: '$eq', values: ['x'] }

describe('the parameters each route accepts', () => {
  it('list reads accept locale, sort, pagination, filters, fields and fallback', () => {
    const query = list('locale=fr&sort=title&pagination[page]=2&filters[title]=x&fields=title&fallback=false')
    expect(query).toEqual({
      locale: 'fr',
      sort: [{ field: 'title', order: 'asc' }],
      pagination: { mode: 'page', page: 2, pageSize: 25, withCount: true },
      filters: title,
      fields: ['title'],
      fallback: false,
    })
  })

  it('get one and single-type GET accept locale, filters, fields and fallback', () => {
    expect(read('locale=fr&filters[title]=x&fields=title&fallback=true'))
      .toEqual({ locale: 'fr', filters: title, fields: ['title'], fallback: true })
    expect(read('')).toEqual({ locale: undefined, filters: undefined, fields: undefined, fallback: undefined })
  })

  it.each(['sort=title', 'pagination[page]=1'])('get one rejects %s', (search) => {
    expect(errorOf(() => read(search)).message).toMatch(/^Invalid key (sort|pagination)$/)
  })

  it('POST and PUT accept locale and fields', () => {
    expect(write('locale=fr&fields=title,slug')).toEqual({ locale: 'fr', fields: ['title', 'slug'] })
  })

  it.each([
    ['filters[title]=x', 'filters'], ['fallback=true', 'fallback'], ['sort=title', 'sort'], ['pagination[page]=1', 'pagination'],
  ])('POST and PUT reject %s', (search, key) => {
    const error = errorOf(() => write(search))
    expect(error.status).toBe(400)
    expect(error.message).toBe(`Invalid key ${key}`)
    expect(error.details).toMatchObject({ param: key, source: 'query' })
  })

  it.each(['filters[title]=x', 'fields=title', 'fallback=true'])('DELETE and the locales route reject %s', (search) => {
    expect(errorOf(() => parseItemQuery(`http://x/api/articles/abc?${search}`)).status).toBe(400)
  })

  it('a write whose fields are invalid is a 400', () => {
    expect(errorOf(() => write('fields=nope')).details).toMatchObject({ param: 'fields', key: 'nope' })
  })
})

describe('fallback', () => {
  it.each([['fallback=true', true], ['fallback=false', false], ['', undefined]])('reads %j as %s', (search, expected) => {
    expect(list(search).fallback).toBe(expected)
  })

  it.each(['fallback=yes', 'fallback=', 'fallback', 'fallback[0]=true', 'fallback=TRUE', 'locale=*&fallback=false'])('answers 400 for %s', (search) => {
    const error = errorOf(() => read(search))
    expect(error.status).toBe(400)
    expect(error.details).toMatchObject({ param: 'fallback', source: 'query' })
  })
})

describe('qs depth for filters', () => {
  it('parses filters nested 5 logical levels deep', () => {
    const search = 'filters[$and][0][$or][0][$and][0][$or][0][$not][title][$in][0]=x'
    expect(list(search).filters).toBeDefined()
  })

  it('answers 400 for a query deeper than qs parses, never truncating it', () => {
    const error = errorOf(() => list(`filters${'[$and][0]'.repeat(10)}[title]=x`))
    expect(error.status).toBe(400)
    expect(error.message).toMatch(/depth/)
  })

  it('answers 400 naming the limit for an $in with 101 values', () => {
    const error = errorOf(() => list(Array.from({ length: 101 }, (_, i) => `filters[views][$in][${i}]=${i}`).join('&')))
    expect(error.status).toBe(400)
    expect(error.message).toMatch(/100/)
  })
})

describe('parseSearch', () => {
  // Plain `key=value` queries skip qs: they must read exactly as qs reads them.
  it.each(['', 'locale=en', 'locale=en&status=draft', 'locale=en&locale=fr', 'locale', 'locale=', '=en', '&', 'locale=en&', 'a=1&&b=2', 'a=b=c',
    'sort=title:desc', 'locale=*', 'a.b=1', 'a=%20', 'a=+', '__proto__=x', 'constructor=x&toString=y'])('reads %j as qs does', (search) => {
    const expected = qs.parse(search, { depth: 20, arrayLimit: 100, parameterLimit: 1000, plainObjects: true, allowPrototypes: false, allowDots: false, comma: false })
    expect(parseSearch(`http://x/?${search}`)).toStrictEqual(expected)
  })
})
