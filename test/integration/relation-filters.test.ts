// Filters and sort through relations, and deletes of linked documents (content-model.md §16),
// through HTTP against DynamoDB Local: to-one and to-many conditions, `$null`, `documentId`,
// several relations deep, one target under one key against any target under separate keys, the
// request's locale and status, the 400s and 403s; `sort=author.name`; and a deleted document (or
// locale version) leaving populate, counts and filters at once, without ever failing the delete.
import { GetCommand } from '@aws-sdk/lib-dynamodb'
import { beforeAll, describe, expect, it } from 'vitest'
import { countKey } from '../../lib/storage/items.js'
import { SETTLE_MS } from '../../lib/storage/lists/validator.js'
import { indexedFields, META, slotIndex, WIDE_CHANGES } from '../../lib/table.js'
import { json } from '../support/context.js'
import { dataOf, draftClient, type Doc } from '../support/drafts.js'
import { countedPeer, expectQuery400, getOne, idsOf, shop, type Shop } from '../support/relations.js'
import { shippedType } from '../support/types.js'

interface World {
  s: Shop
  ann: Doc
  bob: Doc
  cy: Doc
  alpha: Doc
  beta: Doc
  gamma: Doc
  /** one: Ann [alpha, beta] (and fr "un": Ann); two: Bob [beta]; three: no author [gamma]; four: Cy []; five: Ann []. */
  a: Record<'one' | 'two' | 'three' | 'four' | 'five', Doc>
}

async function world(): Promise<World> {
  const s = await shop()
  const ann = await s.author('Ann')
  await dataOf(await s.authors.put(ann.documentId, { name: 'Anne' }, { locale: 'fr' }))
  const bob = await s.author('Bob')
  const cy = await s.author('Cy')
  const [alpha, beta, gamma] = [await s.tag('alpha'), await s.tag('beta'), await s.tag('gamma')]
  const one = await s.article({ title: 'one', author: ann.documentId, tags: [alpha.documentId, beta.documentId] })
  await dataOf(await s.articles.put(one.documentId, { title: 'un', author: ann.documentId }, { locale: 'fr' }))
  const two = await s.article({ title: 'two', author: bob.documentId, tags: [beta.documentId] })
  const three = await s.article({ title: 'three', tags: [gamma.documentId] })
  const four = await s.article({ title: 'four', author: cy.documentId })
  const five = await s.article({ title: 'five', author: ann.documentId })
  return { s, ann, bob, cy, alpha, beta, gamma, a: { one, two, three, four, five } }
}

/** The titles a list query answers (every page), sorted unless `ordered`. */
async function titles(s: Shop, query: string, ordered = false): Promise<string[]> {
  const response = await s.articles.list(`${query}&pagination[pageSize]=100`)
  const body = await json(response)
  expect({ query, status: response.status, error: body.error }).toEqual({ query, status: 200, error: undefined })
  expect(body.meta.pagination.total).toBe(body.data.length)
  const found = body.data.map((doc: Doc) => doc.title as string)
  return ordered ? found : found.sort()
}

describe('filters through relations', () => {
  let w: World
  beforeAll(async () => {
    w = await world()
  })

  it.each([
    ['a to-one field', 'filters[author][name][$eq]=Ann', ['five', 'one']],
    ['a to-one field with $containsi', 'filters[author][name][$containsi]=b', ['two']],
    ['a to-many field, one linked target matching', 'filters[tags][name][$eq]=beta', ['one', 'two']],
    ['a to-many $in', 'filters[tags][slug][$in][0]=alpha&filters[tags][slug][$in][1]=gamma', ['one', 'three']],
    ['a to-one $null=true', 'filters[author][$null]=true', ['three']],
    ['a to-one $null=false', 'filters[author][$null]=false', ['five', 'four', 'one', 'two']],
    ['a to-one $notNull=true', 'filters[author][$notNull]=true', ['five', 'four', 'one', 'two']],
    ['two relations deep', 'filters[author][articles][tags][name][$eq]=alpha', ['five', 'one']],
    ['one tag that is both alpha and beta (one key)', 'filters[tags][$and][0][name][$eq]=alpha&filters[tags][$and][1][name][$eq]=beta', []],
    ['a tag alpha and a tag beta (separate keys)', 'filters[$and][0][tags][name][$eq]=alpha&filters[$and][1][tags][name][$eq]=beta', ['one']],
    ['one tag that is alpha or gamma (one key)', 'filters[tags][$or][0][name][$eq]=alpha&filters[tags][$or][1][name][$eq]=gamma', ['one', 'three']],
    ['a relation condition and a scalar one', 'filters[author][name][$eq]=Ann&filters[title][$eq]=five', ['five']],
    ['a relation condition under $or with a scalar one', 'filters[$or][0][author][name][$eq]=Bob&filters[$or][1][title][$eq]=three', ['three', 'two']],
    ['$not of a relation condition', 'filters[$not][author][name][$eq]=Ann', ['four', 'three', 'two']],
  ])('filters by %s', async (_, query, expected) => {
    expect(await titles(w.s, query)).toEqual(expected)
  })

  it('filters by a target\'s documentId', async () => {
    expect(await titles(w.s, `filters[author][documentId][$eq]=${w.bob.documentId}`)).toEqual(['two'])
    expect(await titles(w.s, `filters[tags][documentId][$in][0]=${w.gamma.documentId}&filters[tags][documentId][$in][1]=${w.alpha.documentId}`)).toEqual(['one', 'three'])
  })

  it('filters the inverse sides: authors by their articles, tags by their articles', async () => {
    const authors = await dataOf(await w.s.authors.list('filters[articles][title][$eq]=two'))
    expect(idsOf(authors)).toEqual([w.bob.documentId])
    const tags = await dataOf(await w.s.tags.list('filters[articles][author][name][$eq]=Ann&sort=name'))
    expect(idsOf(tags)).toEqual([w.alpha.documentId, w.beta.documentId])
  })

  it('takes related documents in the request\'s locale', async () => {
    expect(await titles(w.s, 'locale=fr&filters[author][name][$eq]=Anne')).toEqual(['un'])
    expect(await titles(w.s, 'locale=fr&filters[author][name][$eq]=Ann')).toEqual([])
    expect(await titles(w.s, 'filters[author][name][$eq]=Anne')).toEqual([])
  })

  it('takes related documents in the request\'s status', async () => {
    const s = await shop()
    const ann = await s.author('Ann')
    const x = await s.article({ title: 'x' })
    await dataOf(await s.articles.put(x.documentId, { title: 'x draft', author: ann.documentId }, { status: 'draft' }))
    expect(await titles(s, 'filters[author][name][$eq]=Ann')).toEqual([])
    expect(await titles(s, 'status=draft&filters[author][name][$eq]=Ann')).toEqual(['x draft'])
    const authors = await dataOf(await s.authors.list('filters[articles][title][$eq]=x'))
    expect(idsOf(authors)).toEqual([])
  })

  it('reads a to-one filter in three calls: the target\'s index entries, its links, then the sources by key (those not kept in the process) with the count items of both types\' lists and wide commits', async () => {
    // Two other processes on the table: one keeping no documents, one keeping them (the default).
    const shapeOf = async (cacheBytes?: number) => {
      const peer = countedPeer({ ...w.s.ctx, config: { ...w.s.ctx.config, rest: { ...w.s.ctx.config.rest, pageCache: 0, populate: { ...w.s.ctx.config.rest.populate, ...(cacheBytes === undefined ? {} : { cacheBytes }) } } } })
      const answer = async () => {
        peer.calls.length = 0
        const response = await w.s.articles.list('filters[author][name][$eq]=Ann&pagination[pageSize]=100', {}, peer)
        expect((await json(response)).data.map((doc: Doc) => doc.title).sort()).toEqual(['five', 'one'])
        // Settings lookups (registry, role, index state) come and go with their cache: not counted.
        return peer.calls.filter((call) => call.command !== 'GetItemCommand' || call.input.Key?.documentId === META.count).map((call) => {
          const keys = Object.values((call.input.RequestItems ?? {}) as Record<string, { Keys: { documentId: string; locale: string }[] }>)[0]?.Keys.map((key) => (key.documentId === META.count ? `count ${key.locale}` : 'version'))
          return [call.command, call.input.IndexName ?? (call.command === 'QueryCommand' ? 'links' : undefined), keys?.sort().join(',')].filter((part) => part !== undefined).join(' ')
        })
      }
      await answer()
      return answer()
    }
    // What is read within SETTLE_MS of a list's last change is not kept: wait until the lists read have settled.
    const changes = await Promise.all(['api::article.article', 'api::author.author'].map(async (uid) => Number((await w.s.ctx.db.send(new GetCommand({ TableName: w.s.ctx.config.tableName, Key: countKey(uid, 'en') }))).Item?.at ?? 0)))
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, Math.max(...changes) + SETTLE_MS + 50 - Date.now())))
    const counts = `count api::article.article#${WIDE_CHANGES},count api::article.article#en,count api::author.author#${WIDE_CHANGES},count api::author.author#en`
    const targets = `QueryCommand ${slotIndex(indexedFields(shippedType('author')).indexOf('name'))}`
    expect(await shapeOf(0)).toEqual([targets, 'QueryCommand links', `BatchGetItemCommand ${counts},version,version`])
    expect(await shapeOf()).toEqual([targets, 'QueryCommand links', `BatchGetItemCommand ${counts}`])
  })

  it('reads the links of every matching target at once', async () => {
    let inFlight = 0
    let most = 0
    w.s.ctx.db.middlewareStack.add((next, context) => async (args) => {
      const input = args.input as { IndexName?: string }
      if (context.commandName !== 'QueryCommand' || input.IndexName !== undefined) return next(args)
      most = Math.max(most, ++inFlight)
      try {
        return await next(args)
      } finally {
        inFlight -= 1
      }
    }, { step: 'initialize', name: 'links' })
    try {
      expect(await titles(w.s, 'filters[author][name][$in][0]=Ann&filters[author][name][$in][1]=Bob&filters[author][name][$in][2]=Cy')).toEqual(['five', 'four', 'one', 'two'])
    } finally {
      w.s.ctx.db.middlewareStack.remove('links')
    }
    expect(most).toBe(3)
  })

  it('applies to get one: a version that does not match is a 404', async () => {
    expect((await w.s.articles.get(w.a.one.documentId, { 'filters[author][name][$eq]': 'Ann' })).status).toBe(200)
    expect((await w.s.articles.get(w.a.one.documentId, { 'filters[author][name][$eq]': 'Bob' })).status).toBe(404)
  })

  it('nests through 5 relations, and answers 400 deeper', async () => {
    expect(await titles(w.s, 'filters[author][articles][author][articles][author][name][$eq]=Bob')).toEqual(['two'])
    await expectQuery400(w.s.ctx, () => w.s.articles.list('filters[author][articles][author][articles][author][articles][title][$eq]=one'), 'filters')
  })

  it('answers 400 with a hint to [documentId][$eq] for a relation compared to a value', async () => {
    await expectQuery400(w.s.ctx, () => w.s.articles.list(`filters[author]=${w.ann.documentId}`), 'filters', /\[documentId\]\[\$eq\]/)
    await expectQuery400(w.s.ctx, () => w.s.articles.list(`filters[tags]=${w.alpha.documentId}`), 'filters', /documentId/)
    await expectQuery400(w.s.ctx, () => w.s.articles.list(`filters[author][$eq]=${w.ann.documentId}`), 'filters')
  })

  it.each([
    ['a private attribute of the target', 'filters[author][email][$eq]=a@example.com', 'email'],
    ['an unknown attribute of the target', 'filters[author][nope][$eq]=x', 'nope'],
    ['an unknown attribute two relations deep', 'filters[author][articles][nope][$eq]=x', 'nope'],
  ])('answers 400 Invalid key for %s', async (_, query, name) => {
    const error = await expectQuery400(w.s.ctx, () => w.s.articles.list(query), 'filters')
    expect(error.message).toBe(`Invalid key ${name}`)
  })

  it('answers 403 for a filter through a relation whose target the caller may not find', async () => {
    const key = await w.s.ctx.token('custom', ['api::article.article.find', 'api::article.article.findOne'])
    const api = draftClient(w.s.ctx, key)
    expect((await api.list('filters[author][name][$eq]=Ann')).status).toBe(403)
    expect((await api.list('filters[tags][name][$eq]=alpha')).status).toBe(403)
    expect((await api.list('filters[title][$eq]=one')).status).toBe(200)
    const withAuthors = draftClient(w.s.ctx, await w.s.ctx.token('custom', ['api::article.article.find', 'api::author.author.find']))
    expect((await withAuthors.list('filters[author][name][$eq]=Ann')).status).toBe(200)
    expect((await withAuthors.list('filters[author][articles][tags][name][$eq]=alpha')).status).toBe(403)
  })
})

describe('sort by a to-one relation\'s field', () => {
  let w: World
  beforeAll(async () => {
    w = await world()
  })

  it('orders by author.name with nulls first ascending and last descending, ties by id', async () => {
    expect(await titles(w.s, 'sort=author.name', true)).toEqual(['three', 'one', 'five', 'two', 'four'])
    expect(await titles(w.s, 'sort=author.name:asc', true)).toEqual(['three', 'one', 'five', 'two', 'four'])
    expect(await titles(w.s, 'sort[author][name]=asc', true)).toEqual(['three', 'one', 'five', 'two', 'four'])
    expect(await titles(w.s, 'sort=author.name:desc', true)).toEqual(['four', 'two', 'one', 'five', 'three'])
    expect(await titles(w.s, 'sort[0][author][name]=desc', true)).toEqual(['four', 'two', 'one', 'five', 'three'])
    expect(await titles(w.s, 'sort=author.name:desc,title:asc', true)).toEqual(['four', 'two', 'five', 'one', 'three'])
  })

  it('pages a relation sort without repeating or skipping', async () => {
    const seen: string[] = []
    for (let page = 1; page <= 3; page++) {
      const body = await json(await w.s.articles.list(`sort=author.name&pagination[pageSize]=2&pagination[page]=${page}`))
      seen.push(...body.data.map((doc: Doc) => doc.title))
    }
    expect(seen).toEqual(['three', 'one', 'five', 'two', 'four'])
  })

  it('combines with filters through the same relation', async () => {
    expect(await titles(w.s, 'sort=author.name:desc&filters[author][$notNull]=true&filters[title][$ne]=four', true)).toEqual(['two', 'one', 'five'])
  })

  it.each([
    ['a to-many relation', 'sort=tags.name'],
    ['a to-many relation (object form)', 'sort[tags][name]=asc'],
    ['the relation itself', 'sort=author'],
    ['the relation itself, descending', 'sort=author:desc'],
    ['a private attribute of the target', 'sort=author.email'],
    ['an unknown attribute of the target', 'sort=author.nope'],
  ])('answers 400 for sorting by %s', async (_, query) => {
    await expectQuery400(w.s.ctx, () => w.s.articles.list(query), 'sort')
  })
})

describe('deleting linked documents', () => {
  let w: World
  beforeAll(async () => {
    w = await world()
  })

  it('deleting an author removes every link to it at once: populate, inverse, filters and sort', async () => {
    expect((await w.s.authors.del(w.bob.documentId)).status).toBe(204)
    expect((await getOne(w.s.articles, w.a.two.documentId, { populate: 'author' })).author).toBeNull()
    expect((await getOne(w.s.articles, w.a.two.documentId, { populate: 'author', status: 'draft' })).author).toBeNull()
    expect(await titles(w.s, 'filters[author][name][$eq]=Bob')).toEqual([])
    expect(await titles(w.s, `filters[author][documentId][$eq]=${w.bob.documentId}`)).toEqual([])
    expect(await titles(w.s, 'filters[author][$null]=true')).toEqual(['three', 'two'])
    expect((await titles(w.s, 'sort=author.name', true)).slice(0, 2)).toEqual(['two', 'three'])
    // The article itself is still there, with its other links.
    expect(idsOf((await getOne(w.s.articles, w.a.two.documentId, { populate: 'tags' })).tags)).toEqual([w.beta.documentId])
  })

  it('deleting a tag leaves it out of to-manys, counts and filters at once', async () => {
    expect((await w.s.tags.del(w.beta.documentId)).status).toBe(204)
    expect(idsOf((await getOne(w.s.articles, w.a.one.documentId, { populate: 'tags' })).tags)).toEqual([w.alpha.documentId])
    expect((await getOne(w.s.articles, w.a.one.documentId, { 'populate[tags][count]': 'true' })).tags).toEqual({ count: 1 })
    expect((await getOne(w.s.articles, w.a.two.documentId, { 'populate[tags][count]': 'true' })).tags).toEqual({ count: 0 })
    expect(await titles(w.s, 'filters[tags][name][$eq]=beta')).toEqual([])
  })

  it('deleting an article removes it from its author\'s and tags\' articles', async () => {
    expect((await w.s.articles.del(w.a.five.documentId)).status).toBe(204)
    expect(idsOf((await getOne(w.s.authors, w.ann.documentId, { populate: 'articles' })).articles)).toEqual([w.a.one.documentId])
    const authors = await dataOf(await w.s.authors.list('filters[articles][title][$eq]=five'))
    expect(authors).toEqual([])
    expect((await w.s.articles.del(w.a.three.documentId, { locale: '*' })).status).toBe(204)
    expect((await getOne(w.s.tags, w.gamma.documentId, { 'populate[articles][count]': 'true' })).articles).toEqual({ count: 0 })
  })

  it('deleting one locale version of a target hides it from that locale only, and keeps the links', async () => {
    expect((await w.s.authors.del(w.ann.documentId, { locale: 'fr' })).status).toBe(204)
    expect((await getOne(w.s.articles, w.a.one.documentId, { populate: 'author', locale: 'fr' })).author).toBeNull()
    expect(await titles(w.s, 'locale=fr&filters[author][$null]=true')).toEqual(['un'])
    expect((await getOne(w.s.articles, w.a.one.documentId, { populate: 'author' })).author).toMatchObject({ documentId: w.ann.documentId, name: 'Ann' })
    expect(await titles(w.s, 'filters[author][name][$eq]=Ann')).toEqual(['one'])
    // The document's links stay: its fr version, made again, is linked again.
    await dataOf(await w.s.authors.put(w.ann.documentId, { name: 'Anne encore' }, { locale: 'fr' }))
    expect((await getOne(w.s.articles, w.a.one.documentId, { populate: 'author', locale: 'fr' })).author).toMatchObject({ name: 'Anne encore', locale: 'fr' })
  })

  it('deleting one locale version of a source keeps the other versions\' links', async () => {
    const s = await shop()
    const ann = await s.author('Ann')
    await dataOf(await s.authors.put(ann.documentId, { name: 'Anne' }, { locale: 'fr' }))
    const x = await s.article({ title: 'en', author: ann.documentId })
    await dataOf(await s.articles.put(x.documentId, { title: 'fr', author: ann.documentId }, { locale: 'fr' }))
    expect((await s.articles.del(x.documentId)).status).toBe(204)
    expect(idsOf((await getOne(s.authors, ann.documentId, { populate: 'articles' })).articles)).toEqual([])
    expect(idsOf((await getOne(s.authors, ann.documentId, { populate: 'articles', locale: 'fr' })).articles)).toEqual([x.documentId])
  })

  it('never fails a delete because of links, and never deletes another document', async () => {
    const s = await shop()
    const ann = await s.author('Ann')
    const tag = await s.tag('shared')
    const articles = [await s.article({ author: ann.documentId, tags: [tag.documentId] }), await s.article({ author: ann.documentId, tags: [tag.documentId] })]
    await dataOf(await s.home.put(undefined, { title: 'Home', featured: articles.map((doc) => doc.documentId) }))
    expect((await s.articles.del(articles[0]!.documentId)).status).toBe(204)
    expect(idsOf((await dataOf(await s.home.get(undefined, { populate: 'featured' }))).featured)).toEqual([articles[1]!.documentId])
    expect(idsOf((await dataOf(await s.home.get(undefined, { populate: 'featured', status: 'draft' }))).featured)).toEqual([articles[1]!.documentId])
    expect((await s.authors.del(ann.documentId)).status).toBe(204)
    expect((await s.tags.del(tag.documentId, { locale: '*' })).status).toBe(204)
    const left = await getOne(s.articles, articles[1]!.documentId, { populate: 'author,tags' })
    expect(left).toMatchObject({ author: null, tags: [] })
    expect((await s.home.del(undefined)).status).toBe(204)
    expect((await s.articles.get(articles[1]!.documentId)).status).toBe(200)
  })
})
