// Properties of components over HTTP on DynamoDB Local (content-model.md §18): a written value
// reads back equal through every populate form, and concurrent writes to one document's
// components leave one of the written values whole, with ids unique among its entries.
import fc from 'fast-check'
import { beforeAll, describe, expect, it } from 'vitest'
import type { ContentType } from '../../lib/content-types.js'
import { loadContentTypes } from '../../lib/schema/load.js'
import { createTestContext, json, type TestContext } from '../support/context.js'
import { rounds } from '../support/rounds.js'

const types: readonly ContentType[] = loadContentTypes(new URL('../fixtures/components-project/src/api/', import.meta.url).pathname)

const text = fc.string({ maxLength: 40 })
const button = fc.record({ text: fc.string({ minLength: 1, maxLength: 20 }), url: fc.option(fc.constantFrom('/a', 'https://x.test/b'), { nil: null }), variant: fc.constantFrom('primary', 'outline') })
const entry = fc.oneof(
  fc.record({ __component: fc.constant('blocks.hero'), heading: fc.string({ minLength: 1, maxLength: 30 }), subheading: fc.option(text, { nil: null }), ctas: fc.array(button, { maxLength: 2 }) }),
  fc.record({ __component: fc.constant('blocks.text'), body: fc.option(text, { nil: null }), columns: fc.integer({ min: -(2 ** 31), max: 2 ** 31 - 1 }) }),
)
const seo = fc.option(fc.record({ metaTitle: fc.string({ minLength: 1, maxLength: 60 }), metaDescription: fc.option(text, { nil: null }), priority: fc.option(fc.integer({ min: 0, max: 10 }), { nil: null }), keywords: fc.array(fc.record({ word: fc.string({ minLength: 1, maxLength: 10 }), weight: fc.option(fc.integer({ min: -4e6, max: 4e6 }).map((n) => n / 4), { nil: null }) }), { maxLength: 3 }) }), { nil: null })

/** A value as written, without the ids the server gives (recursively). */
function withoutIds(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutIds)
  if (typeof value !== 'object' || value === null) return value
  return Object.fromEntries(Object.entries(value).filter(([key]) => key !== 'id').map(([key, inner]) => [key, withoutIds(inner)]))
}

/** Every entry id of a value, nested ones included. */
function idsOf(value: unknown): number[] {
  if (Array.isArray(value)) return value.flatMap(idsOf)
  if (typeof value !== 'object' || value === null) return []
  return Object.entries(value).flatMap(([key, inner]) => (key === 'id' ? [inner as number] : idsOf(inner)))
}

const FULL = 'populate[seo][populate]=*&populate[blocks][populate]=*'
const NESTED = 'populate[seo][populate][keywords]=true&populate[blocks][on][blocks.hero][populate][ctas]=true&populate[blocks][on][blocks.text]=true'
const FORMS = [
  NESTED,
  'populate[0]=seo.keywords&populate[1]=blocks.ctas',
  'populate[seo][populate][keywords][fields][0]=word&populate[seo][populate][keywords][fields][1]=weight&populate[blocks][populate][ctas]=true',
]

describe('component values', () => {
  let ctx: TestContext
  let key: string
  beforeAll(async () => {
    ctx = await createTestContext({}, {}, types)
    key = await ctx.token()
  })

  it('read back equal to what was written through every populate form', async () => {
    await fc.assert(fc.asyncProperty(seo, fc.array(entry, { minLength: 1, maxLength: 8 }), async (seoValue, blocks) => {
      const response = await ctx.request('POST', `/api/pages?${NESTED}`, { token: key, body: { data: { title: 'P', seo: seoValue, blocks } } })
      expect(response.status).toBe(200)
      const written = (await json(response)).data
      const expected = { seo: seoValue === null ? null : { ...seoValue, token: undefined }, blocks }
      expect(withoutIds({ seo: written.seo, blocks: written.blocks })).toEqual(JSON.parse(JSON.stringify(expected)))
      const ids = idsOf([written.seo, written.blocks])
      expect(new Set(ids).size).toBe(ids.length)
      for (const form of FORMS) {
        const [doc] = (await json(await ctx.request('GET', `/api/pages/${written.documentId}?${form}`, { token: key }))).data
        expect({ seo: doc.seo, blocks: doc.blocks }, form).toEqual({ seo: written.seo, blocks: written.blocks })
      }
      // `[populate]=*` shows the media and relations inside too, none linked here.
      const [full] = (await json(await ctx.request('GET', `/api/pages/${written.documentId}?${FULL}`, { token: key }))).data
      const unlinked = (entry: Record<string, unknown>) => (entry.__component === 'blocks.hero' ? { ...entry, image: null } : entry)
      expect({ seo: full.seo, blocks: full.blocks }).toEqual({ seo: written.seo === null ? null : { ...written.seo, image: null, canonical: null }, blocks: written.blocks.map(unlinked) })
    }), { numRuns: rounds(12) })
  })

  it('keeps one written value whole when writes to one document\'s components race, ids unique', async () => {
    for (let round = 0; round < rounds(6); round += 1) {
      const created = (await json(await ctx.request('POST', '/api/pages?populate=blocks', { token: key, body: { data: { title: 'Race', blocks: [{ __component: 'blocks.hero', heading: 'start' }] } } }))).data
      const kept = created.blocks[0].id
      const values = [0, 1, 2, 3].map((n) => [{ __component: 'blocks.hero', id: kept, heading: `kept ${n}` }, ...Array.from({ length: n + 1 }, (_, i) => ({ __component: 'blocks.text', body: `${n}.${i}` }))])
      const answers = await Promise.all(values.map((blocks) => ctx.request('PUT', `/api/pages/${created.documentId}?populate=blocks`, { token: key, body: { data: { blocks } } })))
      expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200, 200])
      const [doc] = (await json(await ctx.request('GET', `/api/pages/${created.documentId}?populate=blocks`, { token: key }))).data
      const texts = (blocks: Record<string, unknown>[]) => JSON.stringify(blocks.map((each) => [each.__component, each.heading ?? each.body]))
      expect(values.map(texts)).toContain(texts(doc.blocks))
      expect(doc.blocks[0].id).toBe(kept)
      const ids = idsOf(doc.blocks)
      expect(new Set(ids).size).toBe(ids.length)
    }
  })
})
