import { describe, expect, it } from 'vitest'
import { article } from '../../lib/content-types.js'
import { errorOf } from '../support/errors.js'
import { MAX_QUERY_LENGTH, parseItemQuery, parseListQuery } from '../../lib/query/parse.js'

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
    expect(error.message).toMatch(/limit exceeded/)
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
