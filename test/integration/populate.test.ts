// Populate (content-model.md §16), through HTTP against DynamoDB Local: every form (`*`, names,
// arrays, `[x]=true/false`, dot paths, the object form with fields, filters, sort, start/limit and
// count, nesting to 5 levels), its 400s, private attributes, the maxDocuments bound, who may
// populate what, and populated targets following the request's locale, fallback and status.
import { beforeAll, describe, expect, it } from 'vitest'
import { createTestContext, json } from '../support/context.js'
import { dataOf, draftClient, isolatedPeer, type Doc } from '../support/drafts.js'
import { expect400, expectQuery400, getOne, idsOf, relationLimits, shop, type Shop } from '../support/relations.js'

const RELATION_KEYS = ['author', 'tags', 'localizations']
/** Which of article's relation keys (and localizations) an answer holds. */
const relationKeysOf = (doc: Doc) => RELATION_KEYS.filter((name) => name in doc)

interface World {
  s: Shop
  ann: Doc
  bob: Doc
  /** alpha, beta, gamma, delta */
  t: Doc[]
  /** a1: ann, tags [gamma, alpha, beta], with a fr version; a2: bob, tags [alpha]; a3: no links. */
  a1: Doc
  a2: Doc
  a3: Doc
}

async function world(overrides: Parameters<typeof shop>[0] = {}): Promise<World> {
  const s = await shop(overrides)
  const ann = await s.author('Ann')
  await dataOf(await s.authors.put(ann.documentId, { name: 'Anne' }, { locale: 'fr' }))
  const bob = await s.author('Bob')
  const t: Doc[] = []
  for (const name of ['alpha', 'beta', 'gamma', 'delta']) t.push(await s.tag(name))
  const a1 = await s.article({ title: 'one', author: ann.documentId, tags: [t[2]!.documentId, t[0]!.documentId, t[1]!.documentId] })
  await dataOf(await s.articles.put(a1.documentId, { title: 'un', author: ann.documentId }, { locale: 'fr' }))
  const a2 = await s.article({ title: 'two', author: bob.documentId, tags: [t[0]!.documentId] })
  const a3 = await s.article({ title: 'three' })
  return { s, ann, bob, t, a1, a2, a3 }
}

describe('populate forms', () => {
  let w: World
  beforeAll(async () => {
    w = await world()
  })
  const one = (query: Record<string, string>) => getOne(w.s.articles, w.a1.documentId, query)

  it('shows no relation without populate, on get one and lists', async () => {
    expect(relationKeysOf(await one({}))).toEqual([])
    const list = await dataOf(await w.s.articles.list())
    for (const doc of list) expect(relationKeysOf(doc)).toEqual([])
  })

  it('populate=* shows each relation one level, and localizations', async () => {
    const doc = await one({ populate: '*' })
    expect(relationKeysOf(doc)).toEqual(RELATION_KEYS)
    expect(doc.author).toEqual(await getOne(w.s.authors, w.ann.documentId))
    expect(doc.tags).toEqual([await getOne(w.s.tags, w.t[2]!.documentId), await getOne(w.s.tags, w.t[0]!.documentId), await getOne(w.s.tags, w.t[1]!.documentId)])
    expect(doc.localizations).toHaveLength(1)
    expect(doc.localizations[0]).toMatchObject({ documentId: w.a1.documentId, locale: 'fr', title: 'un', id: expect.any(Number) })
    expect(doc.localizations[0]).not.toHaveProperty('author')
    expect(doc.localizations[0]).not.toHaveProperty('tags')
    const author = await getOne(w.s.authors, w.ann.documentId, { populate: '*' })
    expect(idsOf(author.articles)).toEqual([w.a1.documentId])
    expect(author.articles[0]).not.toHaveProperty('author')
    expect(author.localizations.map((doc: Doc) => [doc.locale, doc.name])).toEqual([['fr', 'Anne']])
    expect(author.localizations[0]).not.toHaveProperty('email')
  })

  it('populate=localizations shows the other locale versions of the same status alone', async () => {
    const doc = await one({ populate: 'localizations' })
    expect(relationKeysOf(doc)).toEqual(['localizations'])
    expect(doc.localizations.map((entry: Doc) => entry.locale)).toEqual(['fr'])
    expect(typeof doc.localizations[0].publishedAt).toBe('string')
    const drafts = await one({ populate: 'localizations', status: 'draft' })
    expect(drafts.localizations.map((entry: Doc) => [entry.locale, entry.publishedAt])).toEqual([['fr', null]])
  })

  it.each([
    ['populate=author,tags', { populate: 'author,tags' }, ['author', 'tags']],
    ['populate[0]=author&populate[1]=tags', { 'populate[0]': 'author', 'populate[1]': 'tags' }, ['author', 'tags']],
    ['populate=tags', { populate: 'tags' }, ['tags']],
    ['populate[author]=true', { 'populate[author]': 'true' }, ['author']],
    ['populate[author]=false', { 'populate[author]': 'false' }, []],
    ['populate[author]=true&populate[tags]=false', { 'populate[author]': 'true', 'populate[tags]': 'false' }, ['author']],
    ['populate[author][fields][0]=name', { 'populate[author][fields][0]': 'name' }, ['author']],
  ])('%s populates exactly the named relations, on get one and lists', async (_, query, keys) => {
    expect(relationKeysOf(await one(query))).toEqual(keys)
    const list = await dataOf(await w.s.articles.list(Object.entries(query).map(([name, value]) => `${name}=${value}`).join('&')))
    expect(list).toHaveLength(3)
    for (const doc of list) expect(relationKeysOf(doc)).toEqual(keys)
  })

  it('shows a to-one as null and a to-many as [] when nothing is linked, on lists', async () => {
    const list: Doc[] = await dataOf(await w.s.articles.list('populate=author,tags&sort=title'))
    expect(list.map((doc) => [doc.title, doc.author?.documentId ?? null, idsOf(doc.tags)])).toEqual([
      ['one', w.ann.documentId, [w.t[2]!.documentId, w.t[0]!.documentId, w.t[1]!.documentId]],
      ['three', null, []],
      ['two', w.bob.documentId, [w.t[0]!.documentId]],
    ])
  })

  it('populate=author.articles follows the dot path', async () => {
    const doc = await one({ populate: 'author.articles' })
    expect(relationKeysOf(doc)).toEqual(['author'])
    expect(idsOf(doc.author.articles)).toEqual([w.a1.documentId])
    expect(doc.author.articles[0]).toEqual(await getOne(w.s.articles, w.a1.documentId))
  })

  it('populate[author][fields] selects the target\'s fields', async () => {
    const doc = await one({ 'populate[author][fields][0]': 'name' })
    expect(doc.author).toEqual({ id: expect.any(Number), documentId: w.ann.documentId, name: 'Ann' })
    const tags = (await one({ 'populate[tags][fields]': 'slug' })).tags
    expect(tags).toEqual([w.t[2], w.t[0], w.t[1]].map((tag) => ({ id: tag!.id, documentId: tag!.documentId, slug: tag!.slug })))
  })

  it('populate[tags][filters] keeps the matching targets; a to-one that does not match is null', async () => {
    expect(idsOf((await one({ 'populate[tags][filters][slug][$eq]': w.t[0]!.slug })).tags)).toEqual([w.t[0]!.documentId])
    expect(idsOf((await one({ 'populate[tags][filters][name][$in][0]': 'alpha', 'populate[tags][filters][name][$in][1]': 'gamma' })).tags))
      .toEqual([w.t[2]!.documentId, w.t[0]!.documentId])
    expect((await one({ 'populate[author][filters][name][$eq]': 'Nobody' })).author).toBeNull()
    expect((await one({ 'populate[author][filters][name][$eq]': 'Ann' })).author?.documentId).toBe(w.ann.documentId)
  })

  it('populate[tags][sort] orders the targets instead of link order', async () => {
    expect((await one({ 'populate[tags][sort]': 'name:asc' })).tags.map((tag: Doc) => tag.name)).toEqual(['alpha', 'beta', 'gamma'])
    expect((await one({ 'populate[tags][sort][0]': 'name:desc' })).tags.map((tag: Doc) => tag.name)).toEqual(['gamma', 'beta', 'alpha'])
  })

  it('populate[tags][start] and [limit] page the links in link order', async () => {
    expect(idsOf((await one({ 'populate[tags][start]': '1', 'populate[tags][limit]': '1' })).tags)).toEqual([w.t[0]!.documentId])
    expect(idsOf((await one({ 'populate[tags][limit]': '2' })).tags)).toEqual([w.t[2]!.documentId, w.t[0]!.documentId])
    expect(idsOf((await one({ 'populate[tags][start]': '2' })).tags)).toEqual([w.t[1]!.documentId])
    expect(idsOf((await one({ 'populate[tags][start]': '5' })).tags)).toEqual([])
  })

  it('populate[tags][count]=true answers { count: n }', async () => {
    expect((await one({ 'populate[tags][count]': 'true' })).tags).toEqual({ count: 3 })
    expect((await getOne(w.s.articles, w.a3.documentId, { 'populate[tags][count]': 'true' })).tags).toEqual({ count: 0 })
    expect((await getOne(w.s.tags, w.t[0]!.documentId, { 'populate[articles][count]': 'true' })).articles).toEqual({ count: 2 })
  })

  it('nests populate 5 levels deep, through a cycle, with relations absent past the last level', async () => {
    const nested = 'populate[author][populate][articles][populate][author][populate][articles][populate][author]'
    const doc = await one({ [nested]: 'true' })
    const level5 = doc.author.articles[0].author.articles[0].author
    expect(level5).toEqual(await getOne(w.s.authors, w.ann.documentId))
    expect(idsOf(doc.author.articles)).toEqual([w.a1.documentId])
    const dotted = await one({ populate: 'author.articles.author.articles.author' })
    expect(dotted.author.articles[0].author.articles[0].author).toEqual(level5)
    const star = await one({ 'populate[author][populate]': '*' })
    expect(idsOf(star.author.articles)).toEqual([w.a1.documentId])
    expect(star.author.articles[0]).not.toHaveProperty('author')
  })

  it('answers 400 past 5 levels of populate, writing nothing', async () => {
    const nested = 'populate[author][populate][articles][populate][author][populate][articles][populate][author][populate][articles]'
    await expectQuery400(w.s.ctx, () => w.s.articles.get(w.a1.documentId, { [nested]: 'true' }), 'populate')
    await expectQuery400(w.s.ctx, () => w.s.articles.get(w.a1.documentId, { populate: 'author.articles.author.articles.author.articles' }), 'populate')
    await expectQuery400(w.s.ctx, () => w.s.articles.list('populate=author.articles.author.articles.author.articles'), 'populate')
  })

  it.each([
    ['populate[author][status]=draft', { 'populate[author][status]': 'draft' }],
    ['populate[author][locale]=fr', { 'populate[author][locale]': 'fr' }],
    ['populate[tags][locale]=fr', { 'populate[tags][locale]': 'fr' }],
    ['populate[author][populate][articles][status]=draft', { 'populate[author][populate][articles][status]': 'draft' }],
  ])('answers 400 for %s', async (_, query) => {
    await expectQuery400(w.s.ctx, () => w.s.articles.get(w.a1.documentId, query), 'populate')
    await expectQuery400(w.s.ctx, () => w.s.articles.list(Object.entries(query).map(([name, value]) => `${name}=${value}`).join('&')), 'populate')
  })

  it.each([
    ['an unknown name', { populate: 'nope' }, 'nope'],
    ['a scalar attribute', { populate: 'title' }, 'title'],
    ['a system field', { populate: 'documentId' }, 'documentId'],
    ['an unknown name in a list', { populate: 'author,nope' }, 'nope'],
    ['an unknown object key', { 'populate[nope]': 'true' }, 'nope'],
    ['an unknown name deeper', { populate: 'author.nope' }, 'nope'],
    ['a scalar of the target', { 'populate[author][populate]': 'name' }, 'name'],
    ['a private attribute of the target', { 'populate[author][populate][0]': 'email' }, 'email'],
    ['an unknown key in a populate object', { 'populate[author][nope]': 'x' }, 'nope'],
  ])('answers 400 Invalid key for %s', async (_, query, name) => {
    const error = await expectQuery400(w.s.ctx, () => w.s.articles.get(w.a1.documentId, query), 'populate')
    expect(error.message).toBe(`Invalid key ${name}`)
  })

  it('never shows private attributes of targets (author.email)', async () => {
    const withEmail = await dataOf(await w.s.authors.post({ name: 'Private', email: 'private@example.com' }))
    const x = await w.s.article({ author: withEmail.documentId })
    const queries: Record<string, string>[] = [{ populate: 'author' }, { populate: '*' }, { 'populate[author][fields]': '*' }, { 'populate[author][fields][0]': '*' }, { 'populate[author][populate]': '*' }]
    for (const query of queries) {
      const text = JSON.stringify(await getOne(w.s.articles, x.documentId, query))
      expect({ query, leaks: text.includes('private@example.com') || text.includes('"email"') }).toEqual({ query, leaks: false })
    }
    const tag = await w.s.tag('private check')
    await dataOf(await w.s.articles.put(x.documentId, { tags: [tag.documentId] }))
    const deep = JSON.stringify(await getOne(w.s.tags, tag.documentId, { populate: 'articles.author' }))
    expect(deep.includes('private@example.com')).toBe(false)
    expect(deep).toContain(withEmail.documentId)
  })
})

describe('populated to-many bounds', () => {
  it('shows at most 100 links unless asked, the rest with start, read in batches', async () => {
    const s = await shop({}, [])
    const tags: string[] = []
    for (let i = 0; i < 101; i++) tags.push((await s.tag(`bulk ${String(i).padStart(3, '0')}`)).documentId)
    const x = await s.article({ tags })
    // Read by another process whose DynamoDB calls are counted: batched key reads, never one call per link, never a Scan.
    const peer = isolatedPeer(s.ctx)
    const calls: string[] = []
    peer.db.middlewareStack.add((next: any, context: any) => async (args: any) => {
      calls.push(context.commandName)
      return next(args)
    }, { step: 'initialize', name: 'count-calls' })
    const read = await getOne(s.articles, x.documentId, { populate: 'tags' }, peer)
    expect(idsOf(read.tags)).toEqual(tags.slice(0, 100))
    expect({ calls: calls.length < 30, scans: calls.filter((name) => name === 'ScanCommand') }).toEqual({ calls: true, scans: [] })
    expect(idsOf((await getOne(s.articles, x.documentId, { 'populate[tags][start]': '100' })).tags)).toEqual(tags.slice(100))
    expect((await getOne(s.articles, x.documentId, { 'populate[tags][count]': 'true' })).tags).toEqual({ count: 101 })
  }, 60_000)

  it('answers 400 naming api.rest.populate.maxDocuments before returning anything past it', async () => {
    const w = await world(relationLimits({ maxDocuments: 4 }))
    // a1 holds 3 tags and an author, a2 one tag and an author: 4 populated documents fit, 6 do not.
    expect((await dataOf(await w.s.articles.list('populate=tags'))).length).toBe(3)
    const limit = /\b4\b|maxDocuments/
    await expect400(w.s.ctx, () => w.s.articles.list('populate=author,tags'), limit)
    expect(relationKeysOf(await getOne(w.s.articles, w.a1.documentId, { populate: 'author,tags' }))).toEqual(['author', 'tags'])
    await expect400(w.s.ctx, () => w.s.articles.list('populate[author][populate]=articles&populate[tags]=true'), limit)
  })
})

// Issue 33, point 2: nested levels were charged once per distinct document but rendered once per
// occurrence, so a cycle through a clique answered 200 with many times maxDocuments documents.
describe('maxDocuments counts every document the answer renders', () => {
  it('refuses nesting through a clique once its occurrences pass the limit, and answers what fits', async () => {
    // Prepare: 6 articles each linked to the same 6 tags (each tag's articles are all 6).
    const ctx = await createTestContext(relationLimits({ maxDocuments: 300 }) as never)
    const key = await ctx.token()
    const tags: string[] = []
    for (let i = 0; i < 6; i++) tags.push((await json(await ctx.request('POST', '/api/tags', { token: key, body: { data: { name: `clique ${i}` } } }))).data.documentId)
    for (let i = 0; i < 6; i++) expect((await ctx.request('POST', '/api/articles', { token: key, body: { data: { title: `clique ${i}`, tags } } })).status).toBe(200)
    const read = (populate: string) => ctx.request('GET', `/api/articles?pagination[pageSize]=6&${populate}`, { token: key })
    // Act, Assess: 36 tags then 216 articles rendered (252) fit; a third level renders 1,296 more.
    const fits = await read('populate[tags][populate][articles]=true')
    expect(fits.status).toBe(200)
    const rendered = (await json(fits)).data.flatMap((article: Doc) => article.tags.flatMap((tag: Doc) => [tag, ...tag.articles]))
    expect(rendered).toHaveLength(252)
    const past = await read('populate[tags][populate][articles][populate][tags]=true')
    expect(past.status).toBe(400)
    expect((await json(past)).error).toMatchObject({ name: 'ValidationError', message: expect.stringContaining('api.rest.populate.maxDocuments'), details: { maxDocuments: 300 } })
  })
})

describe('who may populate', () => {
  let w: World
  beforeAll(async () => {
    w = await world()
  })
  const ARTICLE = 'api::article.article'

  it('answers 403 for a relation named in populate without find on its target', async () => {
    const key = await w.s.ctx.token('custom', [`${ARTICLE}.find`, `${ARTICLE}.findOne`])
    const api = draftClient(w.s.ctx, key)
    for (const query of [{ populate: 'author' }, { 'populate[tags]': 'true' }, { populate: 'tags,author' }, { 'populate[author][fields][0]': 'name' }]) {
      const response = await api.get(w.a1.documentId, query)
      expect({ query, status: response.status }).toEqual({ query, status: 403 })
      expect((await json(response)).error).toMatchObject({ status: 403, name: 'ForbiddenError' })
    }
    expect((await api.list('populate=tags')).status).toBe(403)
    const nested = await draftClient(w.s.ctx, await w.s.ctx.token('custom', [`${ARTICLE}.find`, `${ARTICLE}.findOne`, 'api::author.author.find']))
      .get(w.a1.documentId, { populate: 'author.articles' })
    expect(nested.status).toBe(200)
    const deeper = await draftClient(w.s.ctx, await w.s.ctx.token('custom', ['api::tag.tag.find', 'api::tag.tag.findOne', `${ARTICLE}.find`]))
      .get(w.t[0]!.documentId, { populate: 'articles.author' })
    expect(deeper.status).toBe(403)
  })

  it('populate=* leaves out the relations the caller may not read', async () => {
    const key = await w.s.ctx.token('custom', [`${ARTICLE}.find`, `${ARTICLE}.findOne`, 'api::tag.tag.find'])
    const api = draftClient(w.s.ctx, key)
    const doc = await getOne(api, w.a1.documentId, { populate: '*' })
    expect(relationKeysOf(doc)).toEqual(['tags', 'localizations'])
    for (const entry of await dataOf(await api.list('populate=*'))) expect(relationKeysOf(entry)).toEqual(['tags', 'localizations'])
  })

  it('lets the public role populate every shipped relation (find on every type)', async () => {
    const response = await w.s.ctx.request('GET', `/api/articles/${w.a1.documentId}?populate=*`)
    expect(response.status).toBe(200)
    expect(relationKeysOf((await json(response)).data[0])).toEqual(RELATION_KEYS)
  })

  it('answers 403 for populating drafts of a type without findDrafts on it', async () => {
    await dataOf(await w.s.home.put(undefined, { title: 'Home', featured: [w.a1.documentId] }))
    const key = await w.s.ctx.token('custom', ['api::homepage.homepage.find', 'api::homepage.homepage.findDrafts', `${ARTICLE}.find`])
    const home = draftClient(w.s.ctx, key, '/api/homepage')
    expect((await home.get(undefined, { populate: 'featured' })).status).toBe(200)
    expect((await home.get(undefined, { populate: 'featured', status: 'draft' })).status).toBe(403)
    const full = await draftClient(w.s.ctx, await w.s.ctx.token('custom', ['api::homepage.homepage.find', 'api::homepage.homepage.findDrafts', `${ARTICLE}.find`, `${ARTICLE}.findDrafts`]), '/api/homepage')
      .get(undefined, { populate: 'featured', status: 'draft' })
    expect(full.status).toBe(200)
  })
})

describe('populated documents follow the request\'s locale, fallback and status', () => {
  let w: World
  beforeAll(async () => {
    w = await world()
    expect((await w.s.ctx.admin('PUT', '/admin/i18n/locales/fr', { fallback: 'en' })).status).toBe(200)
  })

  it('shows targets in the request\'s locale, along its fallback chain', async () => {
    // a2 has no fr version: fr falls back to en for the article; its author is read along fr's chain too.
    const a2 = await getOne(w.s.articles, w.a2.documentId, { locale: 'fr', populate: 'author' })
    expect(a2).toMatchObject({ locale: 'en', title: 'two' })
    expect(a2.author).toMatchObject({ documentId: w.bob.documentId, locale: 'en', name: 'Bob' })
    expect((await w.s.articles.get(w.a2.documentId, { locale: 'fr', populate: 'author', fallback: 'false' })).status).toBe(404)
    // Ann has a fr version: an en article read from fr shows it.
    const x = await w.s.article({ title: 'en only', author: w.ann.documentId })
    expect((await getOne(w.s.articles, x.documentId, { locale: 'fr', populate: 'author' })).author).toMatchObject({ locale: 'fr', name: 'Anne' })
  })

  it('shows a target whose fr version was deleted by its fallback version, and null without fallback', async () => {
    const cy = await w.s.author('Cy')
    await dataOf(await w.s.authors.put(cy.documentId, { name: 'Cyrille' }, { locale: 'fr' }))
    const x = await w.s.article({ title: 'en' })
    await dataOf(await w.s.articles.put(x.documentId, { title: 'fr', author: cy.documentId }, { locale: 'fr' }))
    expect((await getOne(w.s.articles, x.documentId, { locale: 'fr', populate: 'author' })).author).toMatchObject({ locale: 'fr', name: 'Cyrille' })
    expect((await w.s.authors.del(cy.documentId, { locale: 'fr' })).status).toBe(204)
    expect((await getOne(w.s.articles, x.documentId, { locale: 'fr', populate: 'author' })).author).toMatchObject({ locale: 'en', name: 'Cy' })
    expect((await getOne(w.s.articles, x.documentId, { locale: 'fr', populate: 'author', fallback: 'false' })).author).toBeNull()
  })

  it('populates drafts in draft reads and published versions in published reads', async () => {
    const tagged = await getOne(w.s.tags, w.t[0]!.documentId, { populate: 'articles' })
    expect(tagged.articles.every((doc: Doc) => typeof doc.publishedAt === 'string')).toBe(true)
    await dataOf(await w.s.articles.put(w.a2.documentId, { title: 'two, reworked' }, { status: 'draft' }))
    const home = await dataOf(await w.s.home.put(undefined, { title: 'Home', featured: [w.a2.documentId] }))
    expect(home).not.toHaveProperty('featured')
    expect((await dataOf(await w.s.home.get(undefined, { populate: 'featured' }))).featured.map((doc: Doc) => doc.title)).toEqual(['two'])
    const drafts = (await dataOf(await w.s.home.get(undefined, { populate: 'featured', status: 'draft' }))).featured
    expect(drafts.map((doc: Doc) => [doc.title, doc.publishedAt])).toEqual([['two, reworked', null]])
  })
})
