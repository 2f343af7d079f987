// `_q` search and the rest of Strapi's query forms (content-model.md §14) on the shipped article
// type, over HTTP against DynamoDB Local: `_q` compared with a brute-force reading of every
// document, its scan budget, implicit OR on every operator, `$null` truthiness, `fields[0]=*`.
import fc from 'fast-check'
import { beforeAll, describe, expect, it } from 'vitest'
import { createTestContext, json, tableSnapshot, type TestContext } from '../support/context.js'
import { articleData } from '../support/factories.js'

const WORDS = ['Alpha', 'beta', 'Gamma', 'delta', 'ÉCLAIR', 'café', 'straße', '42', 'x-ray']

describe('_q search', () => {
  let ctx: TestContext
  let key: string
  let all: Record<string, any>[] = []

  beforeAll(async () => {
    ctx = await createTestContext()
    key = await ctx.token()
    const random = fc.sample(fc.tuple(fc.subarray(WORDS, { minLength: 1, maxLength: 3 }), fc.constantFrom(...WORDS), fc.integer({ min: 0, max: 50 })), { numRuns: 40, seed: 7 })
    for (const [i, [titleWords, category, views]] of random.entries()) {
      const response = await ctx.request('POST', '/api/articles', { token: key, body: { data: articleData({ title: `${titleWords.join(' ')} ${i}`, slug: `s-${i}`, category, views }) } })
      expect(response.status).toBe(200)
    }
    const pages = await Promise.all([1, 2].map(async (page) => (await json(await ctx.request('GET', `/api/articles?pagination[page]=${page}&pagination[pageSize]=25`))).data))
    all = pages.flat()
    expect(all).toHaveLength(40)
  })

  /** What `_q=<text>` keeps, read off every document: title, slug or category contain it ignoring case, or views or id equals it. */
  const bruteForce = (text: string) => all.filter((doc) => {
    const needle = text.trim().toLowerCase()
    const texts = [doc.title, doc.slug, doc.category].filter((value): value is string => typeof value === 'string')
    return texts.some((value) => value.toLowerCase().includes(needle)) || (/^-?\d+$/.test(text.trim()) && (doc.views === Number(text.trim()) || doc.id === Number(text.trim())))
  }).map((doc) => doc.documentId).sort()

  it('keeps exactly the documents a brute-force reading keeps (property)', async () => {
    await fc.assert(fc.asyncProperty(
      fc.oneof(fc.constantFrom(...WORDS), fc.constantFrom(...WORDS).map((word) => word.slice(1, 4).toUpperCase()), fc.integer({ min: 0, max: 50 }).map(String), fc.constantFrom('a 1', 'ÉC', 'zzz')),
      async (text) => {
        const response = await ctx.request('GET', `/api/articles?_q=${encodeURIComponent(text)}&pagination[pageSize]=100`)
        expect(response.status).toBe(200)
        const body = await json(response)
        expect(body.data.map((doc: { documentId: string }) => doc.documentId).sort()).toEqual(bruteForce(text))
        expect(body.meta.pagination.total).toBe(bruteForce(text).length)
      },
    ), { numRuns: 40 })
  })

  it('matches a number to the id of a version, as Strapi\'s search does', async () => {
    const doc = all.find((candidate) => bruteForce(String(candidate.id)).length === 1) ?? (all[0] as Record<string, any>)
    const body = await json(await ctx.request('GET', `/api/articles?_q=${doc.id}&fields[0]=title`))
    expect(body.data.map((found: { id: number }) => found.id)).toContain(doc.id)
    expect(body.data.map((found: { documentId: string }) => found.documentId).sort()).toEqual(bruteForce(String(doc.id)))
  })

  it('keeps every document for an empty _q', async () => {
    const body = await json(await ctx.request('GET', '/api/articles?_q=%20&pagination[pageSize]=1'))
    expect(body.meta.pagination.total).toBe(40)
  })

  it('answers 400 before reading when the list is past api.rest.maxScan, writing nothing', async () => {
    const small = await createTestContext({ rest: { maxScan: 5 } })
    const token = await small.token()
    for (let i = 0; i < 6; i++) await small.request('POST', '/api/articles', { token, body: { data: articleData({ title: `t${i}` }) } })
    const before = await tableSnapshot(small)
    const response = await small.request('GET', '/api/articles?_q=t')
    expect(response.status).toBe(400)
    expect((await json(response)).error.message).toContain('api.rest.maxScan')
    expect(await tableSnapshot(small)).toBe(before)
  })
})

describe("Strapi's remaining query forms", () => {
  let ctx: TestContext
  let key: string
  const titles = async (query: string) => ((await json(await ctx.request('GET', `/api/articles?${query}&sort=title`))).data as { title: string }[]).map((doc) => doc.title)

  beforeAll(async () => {
    ctx = await createTestContext()
    key = await ctx.token()
    for (const [title, category, views] of [['apple pie', 'food', 3], ['banana bread', 'food', 10], ['cherry', null, 20], ['date night', 'life', 30]] as const) {
      await ctx.request('POST', '/api/articles', { token: key, body: { data: articleData({ title, category, views }) } })
    }
  })

  it.each([
    ['$containsi', 'filters[title][$containsi][0]=APPLE&filters[title][$containsi][1]=night', ['apple pie', 'date night']],
    ['$startsWith', 'filters[title][$startsWith][0]=b&filters[title][$startsWith][1]=c', ['banana bread', 'cherry']],
    ['$lt', 'filters[views][$lt][0]=5&filters[views][$lt][1]=15', ['apple pie', 'banana bread']],
    ['$gte', 'filters[views][$gte][0]=30&filters[views][$gte][1]=20', ['cherry', 'date night']],
    ['$eqi', 'filters[title][$eqi][0]=CHERRY&filters[title][$eqi][1]=Apple%20Pie', ['apple pie', 'cherry']],
    ['$notContainsi (each value, ORed)', 'filters[title][$notContainsi][0]=a&filters[title][$notContainsi][1]=i', ['banana bread', 'cherry']],
  ])('reads %s given a list as the OR of the operator over each value', async (_, query, expected) => {
    expect(await titles(query)).toEqual(expected)
  })

  it('keeps $ne and $notIn with a list as the conditions on every value', async () => {
    expect(await titles('filters[views][$ne][0]=3&filters[views][$ne][1]=10')).toEqual(['cherry', 'date night'])
    expect(await titles('filters[views][$notIn][0]=3&filters[views][$notIn][1]=30')).toEqual(['banana bread', 'cherry'])
  })

  it.each([
    ['a list', 'filters[category][$null][0]=x', ['cherry']],
    ['an object', 'filters[category][$null][a]=b', ['cherry']],
    ['a word', 'filters[category][$null]=yes', ['cherry']],
    ['f', 'filters[category][$null]=f', ['apple pie', 'banana bread', 'date night']],
    ['0', 'filters[category][$null]=0', ['apple pie', 'banana bread', 'date night']],
    ['empty', 'filters[category][$null]=', ['apple pie', 'banana bread', 'date night']],
  ])('reads $null given %s with Strapi truthiness', async (_, query, expected) => {
    expect(await titles(query)).toEqual(expected)
    // $notNull is its mirror.
    const mirrored = await titles(query.replace('$null', '$notNull'))
    expect(mirrored.sort()).toEqual(['apple pie', 'banana bread', 'cherry', 'date night'].filter((title) => !expected.includes(title)))
  })

  it('reads fields[0]=* as fields=*', async () => {
    const star = await json(await ctx.request('GET', '/api/articles?fields[0]=*&sort=title'))
    const all = await json(await ctx.request('GET', '/api/articles?sort=title'))
    expect(star.data).toEqual(all.data)
    expect(Object.keys(star.data[0])).toContain('category')
  })
})
