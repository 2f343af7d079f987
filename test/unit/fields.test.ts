import { describe, expect, it } from 'vitest'
import { article } from '../support/types.js'
import { errorOf } from '../support/errors.js'
import { parseFields, selectFields } from '../../lib/query/fields.js'
import { parseSearch } from '../../lib/query/parse.js'

const parse = (search: string) => parseFields(parseSearch(`http://x/?${search}`).fields, article)

describe('parseFields', () => {
  it.each([
    ['fields[0]=title&fields[1]=slug', ['title', 'slug']],
    ['fields=title,slug', ['title', 'slug']],
    ['fields=%20title%20,%20slug%20', ['title', 'slug']],
    ['fields=title', ['title']],
    ['fields[]=title&fields[]=views', ['title', 'views']],
    ['fields=body', ['body']],
    ['fields=createdAt,updatedAt,publishedAt,locale', ['createdAt', 'updatedAt', 'publishedAt', 'locale']],
    ['fields=id,documentId', ['id', 'documentId']],
    ['fields=title,title', ['title']],
  ])('reads %s', (search, expected) => {
    expect(parse(search)).toEqual(expected)
  })

  it.each(['', 'fields=*'])('selects every field for %j', (search) => {
    expect(parse(search)).toBeUndefined()
  })

  it.each(['nope', 'title,nope', 'constructor', '__proto__', 'toString'])('answers 400 naming the unknown field in fields=%s', (raw) => {
    const error = errorOf(() => parse(`fields=${raw}`))
    const name = raw.split(',').at(-1)
    expect(error.status).toBe(400)
    expect(error.message).toBe(`Invalid key ${name}`)
    expect(error.details).toMatchObject({ key: name, source: 'query', param: 'fields' })
  })

  it.each(['fields=', 'fields[0]=', 'fields=,', 'fields=%20', 'fields', 'fields[a]=title', 'fields[0][x]=title'])('answers 400 for %s', (search) => {
    const error = errorOf(() => parse(search))
    expect(error.status).toBe(400)
    expect(error.details).toMatchObject({ source: 'query', param: 'fields' })
  })
})

describe('selectFields', () => {
  const document = {
    id: 3, documentId: 'abc', title: 'T', body: [], slug: 's', views: 1, category: null,
    createdAt: 'c', updatedAt: 'u', publishedAt: 'p', locale: 'en',
  }

  it('keeps id and documentId, then the selected fields in the document order', () => {
    expect(Object.entries(selectFields(document, ['locale', 'slug', 'title']))).toEqual([
      ['id', 3], ['documentId', 'abc'], ['title', 'T'], ['slug', 's'], ['locale', 'en'],
    ])
  })

  it('keeps id and documentId first even when only they are named', () => {
    expect(selectFields(document, ['documentId'])).toEqual({ id: 3, documentId: 'abc' })
  })

  it('keeps a selected field whose value is null', () => {
    expect(selectFields(document, ['category'])).toEqual({ id: 3, documentId: 'abc', category: null })
  })

  it('returns the whole document when fields is undefined', () => {
    expect(selectFields(document, undefined)).toEqual(document)
  })
})
