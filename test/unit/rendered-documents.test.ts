// The JSON of documents kept beside their versions (lib/delivery/rendered.ts), its bound, the
// joined answer's bytes, and which populate trees show documents from their versions alone
// (lib/components/populate.ts populatesComponentsOnly), on test/fixtures/components-project.
import { describe, expect, it } from 'vitest'
import { joinedAnswer, RenderedDocuments } from '../../lib/delivery/rendered.js'
import { populatesComponentsOnly } from '../../lib/components/populate.js'
import type { ContentType } from '../../lib/content-types.js'
import { parsePopulate, type PopulateTree } from '../../lib/relations/populate-query.js'
import { loadContentTypes } from '../../lib/schema/load.js'
import type { Version } from '../../lib/storage/items.js'

const FIXTURE = new URL('../fixtures/components-project/src/api/', import.meta.url).pathname
const types: readonly ContentType[] = loadContentTypes(FIXTURE)
const typeOf = (uid: string) => types.find((type) => type.uid === uid) as ContentType
const page = typeOf('api::page.page')
const article = typeOf('api::article.article')
const tree = (type: ContentType, raw: unknown) => parsePopulate(raw, type, typeOf) as PopulateTree

const version = (n: number): Version => ({ documentId: `d${n}`, locale: 'en', status: 'published', id: n, rev: 1, createdAt: 'c', updatedAt: 'u', publishedAt: 'p', attributes: { title: `t${n}` } }) as unknown as Version
const decode = (bytes: Uint8Array) => new TextDecoder().decode(bytes)

describe('RenderedDocuments', () => {
  it('keeps a version\'s JSON per shape, found only by that version object and that shape', () => {
    const rendered = new RenderedDocuments(10_000)
    const one = version(1)
    expect(decode(rendered.set(one, 'a', { title: 'é "x"' }))).toBe('{"title":"é \\"x\\""}')
    expect(decode(rendered.get(one, 'a') as Uint8Array)).toBe('{"title":"é \\"x\\""}')
    expect(rendered.get(one, 'b')).toBeUndefined()
    // An equal version read again is another object: not found.
    expect(rendered.get(version(1), 'a')).toBeUndefined()
  })

  it('holds at most its capacity, the least recently used version going first', () => {
    const document = { body: 'x'.repeat(1_000) }
    const rendered = new RenderedDocuments(3_000)
    const versions = [1, 2, 3, 4].map(version)
    rendered.set(versions[0] as Version, 's', document)
    rendered.set(versions[1] as Version, 's', document)
    expect(rendered.get(versions[0] as Version, 's')).toBeDefined()
    rendered.set(versions[2] as Version, 's', document)
    expect(rendered.size).toBeLessThanOrEqual(3_000)
    // Version 2 was used least recently: it went.
    expect(rendered.get(versions[1] as Version, 's')).toBeUndefined()
    expect(rendered.get(versions[0] as Version, 's')).toBeDefined()
    // Too large alone: answered, not kept.
    expect(decode(rendered.set(versions[3] as Version, 's', { body: 'y'.repeat(5_000) })).length).toBeGreaterThan(5_000)
    expect(rendered.get(versions[3] as Version, 's')).toBeUndefined()
    // Set again in the same shape: counted once.
    const size = rendered.size
    rendered.set(versions[0] as Version, 's', document)
    expect(rendered.size).toBe(size)
  })

  it('makes, and does not keep, the JSON of a version that `keeps` refuses (read for one answer only)', () => {
    const kept = version(1)
    const rendered = new RenderedDocuments(10_000, (each) => each === kept)
    const passing = version(2)
    expect(decode(rendered.set(passing, 's', { a: 2 }))).toBe('{"a":2}')
    expect(rendered.get(passing, 's')).toBeUndefined()
    expect(rendered.size).toBe(0)
    rendered.set(kept, 's', { a: 1 })
    expect(rendered.get(kept, 's')).toBeDefined()
  })

  it('keeps nothing with capacity 0', () => {
    const rendered = new RenderedDocuments(0)
    expect(rendered.enabled).toBe(false)
    rendered.set(version(1), 's', { a: 1 })
    expect(rendered.size).toBe(0)
  })

  it('joins documents into the bytes JSON.stringify makes of the whole answer', () => {
    const documents = [{ a: 1, s: 'ü\u2028' }, { b: [null, true] }, {}]
    const meta = { pagination: { page: 2, pageSize: 3, pageCount: 9, total: 25 } }
    const encoder = new TextEncoder()
    expect(decode(joinedAnswer(documents.map((document) => encoder.encode(JSON.stringify(document))), meta))).toBe(JSON.stringify({ data: documents, meta }))
    expect(decode(joinedAnswer([], meta))).toBe(JSON.stringify({ data: [], meta }))
  })
})

describe('populatesComponentsOnly', () => {
  it.each([
    ['seo', true],
    [['seo', 'links', 'blocks'], true],
    [{ seo: { populate: { keywords: 'true' } } }, true],
    [{ blocks: { on: { 'blocks.hero': { populate: { ctas: 'true' } }, 'blocks.text': 'true' } } }, true],
    [{ seo: { populate: { canonical: 'true' } } }, false],
    [{ seo: { populate: { image: 'true' } } }, false],
    [{ blocks: { on: { 'blocks.related': { populate: { lead: 'true' } } } } }, false],
    [{ blocks: { populate: '*' } }, false],
  ])('populate=%j: %s', (raw, expected) => {
    expect(populatesComponentsOnly(page, tree(page, raw))).toBe(expected)
  })

  it('is false for a tree reaching another document at the first level (localizations)', () => {
    expect(populatesComponentsOnly(article, tree(article, 'localizations'))).toBe(false)
  })
})
