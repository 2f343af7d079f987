import { describe, expect, it } from 'vitest'
import { parseBody, parseJson } from '../../lib/body.js'
import { type ContentType } from '../../lib/content-types.js'
import { article } from '../support/types.js'
import { errorOf } from '../support/errors.js'

const paragraph = [{ type: 'paragraph', children: [{ type: 'text', text: 'Hi' }] }]

describe('parseBody', () => {
  it('returns the attributes of a valid body and ignores locale', () => {
    expect(parseBody({ data: { title: 'T', body: paragraph, views: 3, locale: 'fr' } }, article, 'create')).toEqual({ title: 'T', body: paragraph, views: 3 })
  })

  it('keeps null to clear an attribute', () => {
    expect(parseBody({ data: { slug: null } }, article, 'update')).toEqual({ slug: null })
  })

  it.each([undefined, {}, { data: null }, { data: [] }, { data: 'x' }, []])('rejects %j as a missing data payload', (body) => {
    expect(errorOf(() => parseBody(body, article, 'create')).message).toBe('Missing "data" payload in the request body')
  })

  it('ignores publishedAt, and refuses publishedAt: null on a write that publishes, pointing to status=draft (content-model.md §15)', () => {
    expect(parseBody({ data: { title: 'T', publishedAt: '2024-01-01T00:00:00.000Z' } }, article, 'update')).toEqual({ title: 'T' })
    expect(parseBody({ data: { title: 'T', publishedAt: null } }, article, 'update', { draft: true })).toEqual({ title: 'T' })
    const error = errorOf(() => parseBody({ data: { publishedAt: null } }, article, 'update'))
    expect(error.message).toMatch(/\bstatus=draft\b/)
    expect(error.details).toEqual({ errors: [{ path: ['publishedAt'], message: error.message, name: 'ValidationError' }] })
  })

  it.each(['id', 'documentId', 'createdAt', 'updatedAt', 'nope'])('rejects the key %s', (key) => {
    const error = errorOf(() => parseBody({ data: { [key]: 'x' } }, article, 'update'))
    expect(error.message).toBe(`Invalid key ${key}`)
    expect(error.details).toEqual({ errors: [{ path: [key], message: `Invalid key ${key}`, name: 'ValidationError' }] })
  })

  it('lists every problem, not only the first', () => {
    const error = errorOf(() => parseBody({ data: { title: 5, views: '42', nope: 1 } }, article, 'create'))
    expect((error.details.errors as unknown[]).length).toBe(3)
  })

  it.each([
    ['views', '42'], ['views', 1.5], ['views', 2 ** 40], ['title', 'x'.repeat(256)], ['title', 7], ['body', 'text'],
    ['body', [{ type: 'paragraph' }]], ['body', [{ children: [] }]], ['category', true], ['title', '\ud800'],
  ])('rejects %s = %j without coercion', (name, value) => {
    expect(errorOf(() => parseBody({ data: { [name]: value } }, article, 'update')).status).toBe(400)
  })

  it('counts string length in code points', () => {
    expect(parseBody({ data: { title: '😀'.repeat(255) } }, article, 'update').title).toHaveLength(510)
  })

  it.each(['create', 'update', 'localization'] as const)('accepts data: {} in %s mode, setting nothing', (mode) => {
    expect(parseBody({ data: {} }, article, mode)).toEqual({})
  })

  it('still requires required attributes when data is {}', () => {
    const withRequired: ContentType = { ...article, attributes: { ...article.attributes, title: { type: 'string', localized: true, required: true } } }
    expect(errorOf(() => parseBody({ data: {} }, withRequired, 'create')).message).toBe('title must be defined.')
  })

  it('rejects non-localized attributes in a new localization', () => {
    const error = errorOf(() => parseBody({ data: { title: 'T', views: 1 } }, article, 'localization'))
    expect((error.details.errors as { path: string[] }[])[0]?.path).toEqual(['views'])
  })

  it('requires required attributes on create but not on update', () => {
    const withRequired: ContentType = { ...article, attributes: { ...article.attributes, title: { type: 'string', localized: true, required: true } } }
    expect(errorOf(() => parseBody({ data: { slug: 's' } }, withRequired, 'create')).message).toBe('title must be defined.')
    expect(parseBody({ data: { slug: 's' } }, withRequired, 'update')).toEqual({ slug: 's' })
    expect(errorOf(() => parseBody({ data: { title: null } }, withRequired, 'update')).status).toBe(400)
  })
})

describe('parseJson', () => {
  it('parses JSON and reads an empty body as undefined', () => {
    expect(parseJson('{"a":1}')).toEqual({ a: 1 })
    expect(parseJson('  ')).toBeUndefined()
  })

  it.each([
    ['1e309', 'overflows to Infinity'],
    ['-1e309', 'overflows to -Infinity'],
    ['123456789012345678901234567890', 'a 30-digit integer'],
    ['9007199254740993', 'an integer past 2^53'],
    ['0.1000000000000000055511151231257827', 'more digits than a double holds'],
    ['1e-400', 'underflows to 0'],
  ])('rejects %s (%s) wherever it is', (number) => {
    for (const text of [`{"data":{"views":${number}}}`, `{"data":{"body":[{"type":"p","children":[],"n":[${number}]}]}}`]) {
      const error = errorOf(() => parseJson(text))
      expect(error.status).toBe(400)
      expect(error.message).toContain(number)
    }
  })

  it.each(['0', '-0', '1.50', '15e-1', '2147483647', '9007199254740991', '1.7976931348623157e308', '5e-324', '0.1', '-2.5E+3'])('keeps %s, which a double holds exactly', (number) => {
    expect(parseJson(`{"n":${number},"s":"1e309 123456789012345678901234567890"}`)).toEqual({ n: Number(number), s: '1e309 123456789012345678901234567890' })
  })

  it('does not mistake digits inside strings, escaped quotes included, for numbers', () => {
    expect(parseJson('{"a":"x\\"1e999","b":["\\\\",2]}')).toEqual({ a: 'x"1e999', b: ['\\', 2] })
  })

  it('answers 400 Invalid JSON body', () => {
    expect(errorOf(() => parseJson('{nope')).message).toBe('Invalid JSON body')
  })
})
