// Writing relations (content-model.md §16, §17), through HTTP against DynamoDB Local: every relation
// of the shipped types written in every form (documentId, null, arrays, connect / disconnect / set,
// positions), the stricter 400s writing nothing, inverse sides kept in step and writable, the "one"
// side moving a target, links per locale version and per status, and writes answering populate and
// fields. Every outcome is read back through populate.
import { beforeAll, describe, expect, it } from 'vitest'
import { dataOf, oneOf, type Doc } from '../support/drafts.js'
import { countedPeer, expect400, getOne, idsOf, keysOf, notFoundIn, relationLimits, shop, type Shop } from '../support/relations.js'

/** The documentIds of an article's tags, in link order (status and locale as asked). */
async function tagsOf(s: Shop, documentId: string, query: Record<string, string> = {}): Promise<string[]> {
  return idsOf((await getOne(s.articles, documentId, { populate: 'tags', ...query })).tags)
}

/** The documentId of an article's author, or null. */
async function authorOf(s: Shop, documentId: string, query: Record<string, string> = {}): Promise<string | null> {
  const author = (await getOne(s.articles, documentId, { populate: 'author', ...query })).author
  return author === null ? null : author.documentId
}

/** The documentIds of an author's articles, in the order they were linked. */
async function articlesOf(s: Shop, authorId: string, query: Record<string, string> = {}): Promise<string[]> {
  return idsOf((await getOne(s.authors, authorId, { populate: 'articles', ...query })).articles)
}

/** The documentIds of a tag's articles. */
async function taggedOf(s: Shop, tagId: string, query: Record<string, string> = {}): Promise<string[]> {
  return idsOf((await getOne(s.tags, tagId, { populate: 'articles', ...query })).articles)
}

describe('a to-one (article.author, manyToOne)', () => {
  let s: Shop
  let ann: Doc
  let bob: Doc
  beforeAll(async () => {
    s = await shop()
    ann = await s.author('Ann')
    bob = await s.author('Bob')
  })

  it('links by documentId; the answer shows no relation; populate shows the target as its get one does', async () => {
    const answer = await s.article({ author: ann.documentId })
    expect(answer).not.toHaveProperty('author')
    expect(answer).not.toHaveProperty('tags')
    const read = await getOne(s.articles, answer.documentId, { populate: 'author' })
    expect(read.author).toEqual(await getOne(s.authors, ann.documentId))
    expect(read.author).not.toHaveProperty('email')
    expect(read.author).not.toHaveProperty('articles')
    expect(await authorOf(s, answer.documentId, { status: 'draft' })).toBe(ann.documentId)
  })

  it('unlinks with null', async () => {
    const { documentId } = await s.article({ author: ann.documentId })
    await dataOf(await s.articles.put(documentId, { author: null }))
    expect(await authorOf(s, documentId)).toBeNull()
    expect(await articlesOf(s, ann.documentId)).not.toContain(documentId)
  })

  it('replaces the author with another documentId, and each author lists only its own articles', async () => {
    const { documentId } = await s.article({ author: ann.documentId })
    await dataOf(await s.articles.put(documentId, { author: bob.documentId }))
    expect(await authorOf(s, documentId)).toBe(bob.documentId)
    expect(await articlesOf(s, ann.documentId)).not.toContain(documentId)
    expect(await articlesOf(s, bob.documentId)).toContain(documentId)
  })

  it('accepts connect, disconnect and set, with documentIds or { documentId, locale }', async () => {
    const { documentId } = await s.article()
    expect(await authorOf(s, documentId)).toBeNull()
    await dataOf(await s.articles.put(documentId, { author: { connect: [ann.documentId] } }))
    expect(await authorOf(s, documentId)).toBe(ann.documentId)
    await dataOf(await s.articles.put(documentId, { author: { connect: [{ documentId: bob.documentId }] } }))
    expect(await authorOf(s, documentId)).toBe(bob.documentId)
    await dataOf(await s.articles.put(documentId, { author: { disconnect: [bob.documentId] } }))
    expect(await authorOf(s, documentId)).toBeNull()
    await dataOf(await s.articles.put(documentId, { author: { set: [{ documentId: ann.documentId, locale: 'en' }] } }))
    expect(await authorOf(s, documentId)).toBe(ann.documentId)
    await dataOf(await s.articles.put(documentId, { author: { set: [] } }))
    expect(await authorOf(s, documentId)).toBeNull()
  })

  it('answers 400 for several targets, set with connect, unknown keys and a missing target, writing nothing', async () => {
    const { documentId } = await s.article({ author: ann.documentId })
    const put = (data: Doc) => () => s.articles.put(documentId, data)
    await expect400(s.ctx, put({ author: { connect: [ann.documentId, bob.documentId] } }), /author/)
    await expect400(s.ctx, put({ author: { set: [ann.documentId, bob.documentId] } }), /author/)
    await expect400(s.ctx, put({ author: { set: [bob.documentId], connect: [bob.documentId] } }), /set/)
    await expect400(s.ctx, put({ author: { set: [bob.documentId], disconnect: [ann.documentId] } }), /set/)
    await expect400(s.ctx, put({ author: { connect: [bob.documentId], nope: true } }), /nope/)
    await expect400(s.ctx, put({ author: { connect: [{ documentId: bob.documentId, nope: 1 }] } }), /nope/)
    await expect400(s.ctx, put({ author: 'zzzzzzzzzzzzzzzzzzzzzzzz' }), notFoundIn('zzzzzzzzzzzzzzzzzzzzzzzz', 'en'))
    await expect400(s.ctx, put({ author: { connect: ['zzzzzzzzzzzzzzzzzzzzzzzz'] } }), notFoundIn('zzzzzzzzzzzzzzzzzzzzzzzz', 'en'))
    await expect400(s.ctx, () => s.articles.post({ title: 'x', author: 'zzzzzzzzzzzzzzzzzzzzzzzz' }), notFoundIn('zzzzzzzzzzzzzzzzzzzzzzzz', 'en'))
    expect(await authorOf(s, documentId)).toBe(ann.documentId)
  })

  it('refuses a target of the wrong type (a tag as author) as a missing author', async () => {
    const tag = await s.tag('wrong type')
    const { documentId } = await s.article()
    await expect400(s.ctx, () => s.articles.put(documentId, { author: tag.documentId }), notFoundIn(tag.documentId, 'en'))
  })
})

describe('a to-many (article.tags, manyToMany)', () => {
  let s: Shop
  let t: Doc[]
  beforeAll(async () => {
    s = await shop()
    t = []
    for (const name of ['t0', 't1', 't2', 't3', 't4', 't5']) t.push(await s.tag(name))
  })
  const ids = (...indexes: number[]) => indexes.map((index) => t[index]!.documentId as string)

  it('writes an array as set, keeping its order; [] unlinks every tag', async () => {
    const { documentId } = await s.article({ tags: ids(2, 0, 1) })
    expect(await tagsOf(s, documentId)).toEqual(ids(2, 0, 1))
    await dataOf(await s.articles.put(documentId, { tags: ids(1, 3) }))
    expect(await tagsOf(s, documentId)).toEqual(ids(1, 3))
    await dataOf(await s.articles.put(documentId, { tags: [] }))
    expect(await tagsOf(s, documentId)).toEqual([])
  })

  it('populates a to-many with each target as its get one shows it', async () => {
    const { documentId } = await s.article({ tags: ids(0) })
    const [tag] = (await getOne(s.articles, documentId, { populate: 'tags' })).tags
    expect(tag).toEqual(await getOne(s.tags, ids(0)[0]!))
  })

  it('connect appends at the end, disconnect removes, set replaces; connect and disconnect together', async () => {
    const { documentId } = await s.article({ tags: ids(0) })
    await dataOf(await s.articles.put(documentId, { tags: { connect: ids(2, 1) } }))
    expect(await tagsOf(s, documentId)).toEqual(ids(0, 2, 1))
    await dataOf(await s.articles.put(documentId, { tags: { disconnect: ids(2) } }))
    expect(await tagsOf(s, documentId)).toEqual(ids(0, 1))
    await dataOf(await s.articles.put(documentId, { tags: { connect: [{ documentId: ids(3)[0] }], disconnect: [{ documentId: ids(0)[0] }] } }))
    expect(await tagsOf(s, documentId)).toEqual(ids(1, 3))
    await dataOf(await s.articles.put(documentId, { tags: { set: ids(4, 5) } }))
    expect(await tagsOf(s, documentId)).toEqual(ids(4, 5))
    await dataOf(await s.articles.put(documentId, { tags: { set: [] } }))
    expect(await tagsOf(s, documentId)).toEqual([])
  })

  it('places a connected target before, after, at the start or at the end', async () => {
    const { documentId } = await s.article({ tags: ids(0, 1, 2) })
    const connect = async (documentIdOfTag: string, position: Doc) =>
      dataOf(await s.articles.put(documentId, { tags: { connect: [{ documentId: documentIdOfTag, position }] } }))
    await connect(ids(3)[0]!, { before: ids(1)[0] })
    expect(await tagsOf(s, documentId)).toEqual(ids(0, 3, 1, 2))
    await connect(ids(4)[0]!, { after: ids(0)[0] })
    expect(await tagsOf(s, documentId)).toEqual(ids(0, 4, 3, 1, 2))
    await connect(ids(5)[0]!, { start: true })
    expect(await tagsOf(s, documentId)).toEqual(ids(5, 0, 4, 3, 1, 2))
    await dataOf(await s.articles.put(documentId, { tags: { disconnect: ids(2) } }))
    await connect(ids(2)[0]!, { end: true })
    expect(await tagsOf(s, documentId)).toEqual(ids(5, 0, 4, 3, 1, 2))
  })

  it('moves an already linked target to its position, and leaves it where it is without one', async () => {
    const { documentId } = await s.article({ tags: ids(0, 1, 2, 3) })
    await dataOf(await s.articles.put(documentId, { tags: { connect: [{ documentId: ids(0)[0], position: { end: true } }] } }))
    expect(await tagsOf(s, documentId)).toEqual(ids(1, 2, 3, 0))
    await dataOf(await s.articles.put(documentId, { tags: { connect: [{ documentId: ids(3)[0], position: { start: true } }] } }))
    expect(await tagsOf(s, documentId)).toEqual(ids(3, 1, 2, 0))
    await dataOf(await s.articles.put(documentId, { tags: { connect: [{ documentId: ids(0)[0], position: { before: ids(1)[0] } }] } }))
    expect(await tagsOf(s, documentId)).toEqual(ids(3, 0, 1, 2))
    await dataOf(await s.articles.put(documentId, { tags: { connect: [{ documentId: ids(3)[0], position: { after: ids(2)[0] } }] } }))
    expect(await tagsOf(s, documentId)).toEqual(ids(0, 1, 2, 3))
    await dataOf(await s.articles.put(documentId, { tags: { connect: ids(1) } }))
    expect(await tagsOf(s, documentId)).toEqual(ids(0, 1, 2, 3))
  })

  it('answers 400 for set with connect or disconnect, a duplicate in connect, a position relative to an unlinked target, unknown keys and missing targets, writing nothing', async () => {
    const { documentId } = await s.article({ tags: ids(0, 1) })
    const put = (tags: unknown) => () => s.articles.put(documentId, { tags })
    await expect400(s.ctx, put({ set: ids(2), connect: ids(3) }), /set/)
    await expect400(s.ctx, put({ set: ids(2), disconnect: ids(0) }), /set/)
    const twice = new RegExp(`${ids(2)[0]}|twice|duplicate|more than once|repeated`, 'i')
    await expect400(s.ctx, put({ connect: [...ids(2), ...ids(2)] }), twice)
    await expect400(s.ctx, put({ connect: [{ documentId: ids(2)[0] }, { documentId: ids(2)[0], position: { end: true } }] }), twice)
    const unlinked = new RegExp(`${ids(4)[0]}|not linked|position`, 'i')
    await expect400(s.ctx, put({ connect: [{ documentId: ids(2)[0], position: { before: ids(4)[0] } }] }), unlinked)
    await expect400(s.ctx, put({ connect: [{ documentId: ids(2)[0], position: { after: ids(4)[0] } }] }), unlinked)
    await expect400(s.ctx, put({ connect: ids(2), replace: ids(3) }), /replace/)
    await expect400(s.ctx, put({ connect: [{ documentId: ids(2)[0], position: { middle: true } }] }), /middle|position/)
    await expect400(s.ctx, put({ connect: [{ documentId: ids(2)[0], extra: 1 }] }), /extra/)
    await expect400(s.ctx, put([...ids(2), 'zzzzzzzzzzzzzzzzzzzzzzzz']), notFoundIn('zzzzzzzzzzzzzzzzzzzzzzzz', 'en'))
    await expect400(s.ctx, put({ connect: [{ documentId: 'zzzzzzzzzzzzzzzzzzzzzzzz' }] }), notFoundIn('zzzzzzzzzzzzzzzzzzzzzzzz', 'en'))
    expect(await tagsOf(s, documentId)).toEqual(ids(0, 1))
    expect(await taggedOf(s, ids(2)[0]!)).not.toContain(documentId)
  })
})

describe('at most api.rest.relations.maxLinks links per version', () => {
  let s: Shop
  let t: string[]
  beforeAll(async () => {
    s = await shop(relationLimits({ maxLinks: 3 }))
    t = []
    for (const name of ['m0', 'm1', 'm2', 'm3']) t.push((await s.tag(name)).documentId)
  })

  it('accepts the limit and answers 400 naming it past it, on create, set and connect, writing nothing', async () => {
    const { documentId } = await s.article({ tags: t.slice(0, 3) })
    expect(await tagsOf(s, documentId)).toEqual(t.slice(0, 3))
    const limit = /\b3\b|maxLinks/
    await expect400(s.ctx, () => s.articles.post({ title: 'too many', tags: t }), limit)
    await expect400(s.ctx, () => s.articles.put(documentId, { tags: t }), limit)
    await expect400(s.ctx, () => s.articles.put(documentId, { tags: { connect: [t[3]] } }), limit)
    await dataOf(await s.articles.put(documentId, { tags: { connect: [t[3]], disconnect: [t[0]] } }))
    expect(await tagsOf(s, documentId)).toEqual([t[1], t[2], t[3]])
  })
})

describe('inverse sides', () => {
  let s: Shop
  beforeAll(async () => {
    s = await shop()
  })

  it('shows an author\'s articles in the order they were linked, a later link after', async () => {
    const ann = await s.author('Ann')
    const bob = await s.author('Bob')
    const x = await s.article({ title: 'x', author: ann.documentId })
    const y = await s.article({ title: 'y', author: ann.documentId })
    const z = await s.article({ title: 'z' })
    await dataOf(await s.articles.put(z.documentId, { author: ann.documentId }))
    expect(await articlesOf(s, ann.documentId)).toEqual([x.documentId, y.documentId, z.documentId])
    await dataOf(await s.articles.put(x.documentId, { author: bob.documentId }))
    await dataOf(await s.articles.put(x.documentId, { author: ann.documentId }))
    expect(await articlesOf(s, ann.documentId)).toEqual([y.documentId, z.documentId, x.documentId])
    expect(await articlesOf(s, bob.documentId)).toEqual([])
    const populated = (await getOne(s.authors, ann.documentId, { populate: 'articles' })).articles
    expect(populated[0]).toEqual(await getOne(s.articles, y.documentId))
  })

  it('keeps tag.articles in step with article.tags', async () => {
    const [a, b] = [await s.tag('in step a'), await s.tag('in step b')]
    const x = await s.article({ tags: [a.documentId, b.documentId] })
    const y = await s.article({ tags: [b.documentId] })
    expect(await taggedOf(s, a.documentId)).toEqual([x.documentId])
    expect(await taggedOf(s, b.documentId)).toEqual([x.documentId, y.documentId])
    await dataOf(await s.articles.put(x.documentId, { tags: { disconnect: [b.documentId] } }))
    expect(await taggedOf(s, b.documentId)).toEqual([y.documentId])
  })

  it('writes author.articles: the articles name the author in their draft and published versions', async () => {
    const ann = await s.author('Ann')
    const x = await s.article({ title: 'x' })
    const y = await s.article({ title: 'y' })
    await dataOf(await s.authors.put(ann.documentId, { articles: [x.documentId, y.documentId] }))
    for (const status of ['published', 'draft']) {
      expect({ status, x: await authorOf(s, x.documentId, { status }), y: await authorOf(s, y.documentId, { status }) })
        .toEqual({ status, x: ann.documentId, y: ann.documentId })
    }
    expect((await articlesOf(s, ann.documentId)).sort()).toEqual([x.documentId, y.documentId].sort())
    await dataOf(await s.authors.put(ann.documentId, { articles: { disconnect: [x.documentId] } }))
    expect(await authorOf(s, x.documentId)).toBeNull()
    expect(await authorOf(s, x.documentId, { status: 'draft' })).toBeNull()
    expect(await articlesOf(s, ann.documentId)).toEqual([y.documentId])
  })

  it('writes author.articles on a draft-only article: its draft names the author, and it stays unpublished', async () => {
    const ann = await s.author('Ann')
    const x = await dataOf(await s.articles.post({ title: 'draft only' }, { status: 'draft' }))
    await dataOf(await s.authors.put(ann.documentId, { articles: { connect: [x.documentId] } }))
    expect(await authorOf(s, x.documentId, { status: 'draft' })).toBe(ann.documentId)
    expect((await s.articles.get(x.documentId)).status).toBe(404)
  })

  it('moves an article between authors: connecting it to one author unlinks it from the other (the "one" side)', async () => {
    const ann = await s.author('Ann')
    const bob = await s.author('Bob')
    const x = await s.article({ title: 'x', author: ann.documentId })
    const y = await s.article({ title: 'y', author: ann.documentId })
    await dataOf(await s.authors.put(bob.documentId, { articles: { connect: [x.documentId] } }))
    expect(await articlesOf(s, ann.documentId)).toEqual([y.documentId])
    expect(await articlesOf(s, bob.documentId)).toEqual([x.documentId])
    expect(await authorOf(s, x.documentId)).toBe(bob.documentId)
    expect(await authorOf(s, x.documentId, { status: 'draft' })).toBe(bob.documentId)
    await dataOf(await s.authors.put(bob.documentId, { articles: [y.documentId] }))
    expect(await articlesOf(s, ann.documentId)).toEqual([])
    expect(await articlesOf(s, bob.documentId)).toEqual([y.documentId])
    expect(await authorOf(s, x.documentId)).toBeNull()
  })

  it('writes tag.articles: the articles list the tag', async () => {
    const tag = await s.tag('written from the tag')
    const other = await s.tag('already there')
    const x = await s.article({ tags: [other.documentId] })
    await dataOf(await s.tags.put(tag.documentId, { articles: { connect: [x.documentId] } }))
    expect(await tagsOf(s, x.documentId)).toEqual(expect.arrayContaining([other.documentId, tag.documentId]))
    expect(await tagsOf(s, x.documentId, { status: 'draft' })).toEqual(expect.arrayContaining([other.documentId, tag.documentId]))
    expect(await taggedOf(s, tag.documentId)).toEqual([x.documentId])
    await dataOf(await s.tags.put(tag.documentId, { articles: [] }))
    expect(await tagsOf(s, x.documentId)).toEqual([other.documentId])
  })

  it('accepts position { end: true } on an inverse side, and answers 400 naming the owning side for before, after and start', async () => {
    const ann = await s.author('Ann')
    const x = await s.article({ author: ann.documentId })
    const y = await s.article()
    await dataOf(await s.authors.put(ann.documentId, { articles: { connect: [{ documentId: y.documentId, position: { end: true } }] } }))
    expect(await articlesOf(s, ann.documentId)).toEqual([x.documentId, y.documentId])
    const z = await s.article()
    for (const position of [{ before: x.documentId }, { after: x.documentId }, { start: true }]) {
      await expect400(s.ctx, () => s.authors.put(ann.documentId, { articles: { connect: [{ documentId: z.documentId, position }] } }), /article\.author|api::article\.article|owning/i)
    }
    expect(await authorOf(s, z.documentId)).toBeNull()
  })

  it('answers 400 for a missing article on an inverse side, writing nothing', async () => {
    const ann = await s.author('Ann')
    await expect400(s.ctx, () => s.authors.put(ann.documentId, { articles: ['zzzzzzzzzzzzzzzzzzzzzzzz'] }), notFoundIn('zzzzzzzzzzzzzzzzzzzzzzzz', 'en'))
    await expect400(s.ctx, () => s.authors.post({ name: 'Cy', articles: ['zzzzzzzzzzzzzzzzzzzzzzzz'] }), notFoundIn('zzzzzzzzzzzzzzzzzzzzzzzz', 'en'))
  })

  it('writes homepage.featured one way, in order; articles have no side pointing back', async () => {
    const x = await s.article({ title: 'first' })
    const y = await s.article({ title: 'second' })
    await dataOf(await s.home.put(undefined, { title: 'Home', featured: [y.documentId, x.documentId] }))
    const home = await dataOf(await s.home.get(undefined, { populate: 'featured' }))
    expect(idsOf(home.featured)).toEqual([y.documentId, x.documentId])
    expect(home.featured[0]).toEqual(await getOne(s.articles, y.documentId))
    const article = await getOne(s.articles, x.documentId, { populate: '*' })
    expect(Object.keys(article).filter((name) => ['author', 'tags', 'localizations', 'homepage', 'homepages', 'featured'].includes(name)).sort())
      .toEqual(['author', 'localizations', 'tags'])
    // One way: the same article may be featured by the homepage of every locale, and stays linkable anywhere.
    await dataOf(await s.home.put(undefined, { featured: { connect: [{ documentId: x.documentId, position: { start: true } }] } }))
    expect(idsOf((await dataOf(await s.home.get(undefined, { populate: 'featured' }))).featured)).toEqual([x.documentId, y.documentId])
  })
})

describe('links per locale version', () => {
  let s: Shop
  beforeAll(async () => {
    s = await shop()
  })

  it('links the fr version independently; populate from fr shows fr versions', async () => {
    const ann = await s.author('Ann')
    await dataOf(await s.authors.put(ann.documentId, { name: 'Anne' }, { locale: 'fr' }))
    const bob = await s.author('Bob')
    await dataOf(await s.authors.put(bob.documentId, { name: 'Robert' }, { locale: 'fr' }))
    const x = await s.article({ title: 'en', author: ann.documentId })
    await dataOf(await s.articles.put(x.documentId, { title: 'fr', author: bob.documentId }, { locale: 'fr' }))
    expect((await getOne(s.articles, x.documentId, { populate: 'author' })).author).toMatchObject({ documentId: ann.documentId, name: 'Ann', locale: 'en' })
    const fr = await getOne(s.articles, x.documentId, { populate: 'author', locale: 'fr' })
    expect(fr.author).toEqual(await getOne(s.authors, bob.documentId, { locale: 'fr' }))
    expect(await articlesOf(s, ann.documentId)).toEqual([x.documentId])
    expect(await articlesOf(s, ann.documentId, { locale: 'fr' })).toEqual([])
    expect(await articlesOf(s, bob.documentId, { locale: 'fr' })).toEqual([x.documentId])
    expect(await articlesOf(s, bob.documentId)).toEqual([])
  })

  it('answers 400 naming the locale when the target has no version in the version\'s locale', async () => {
    const enOnly = await s.author('English only')
    const tag = await s.tag('english tag')
    const x = await s.article()
    const put = (data: Doc) => () => s.articles.put(x.documentId, { title: 'fr', ...data }, { locale: 'fr' })
    await expect400(s.ctx, put({ author: enOnly.documentId }), notFoundIn(enOnly.documentId, 'fr'))
    await expect400(s.ctx, put({ tags: [tag.documentId] }), notFoundIn(tag.documentId, 'fr'))
    expect((await s.articles.get(x.documentId, { locale: 'fr', fallback: 'false' })).status).toBe(404)
  })

  it('answers 400 naming fr for a homepage fr featuring an article without a fr version', async () => {
    const enOnly = await s.article({ title: 'en only' })
    await expect400(s.ctx, () => s.home.put(undefined, { title: 'Accueil', featured: [enOnly.documentId] }, { locale: 'fr' }), notFoundIn(enOnly.documentId, 'fr'))
    await dataOf(await s.articles.put(enOnly.documentId, { title: 'brouillon' }, { locale: 'fr', status: 'draft' }))
    await dataOf(await s.home.put(undefined, { title: 'Accueil', featured: [enOnly.documentId] }, { locale: 'fr' }))
    expect(idsOf((await dataOf(await s.home.get(undefined, { locale: 'fr', populate: 'featured', status: 'draft' }))).featured)).toEqual([enOnly.documentId])
    expect(idsOf((await dataOf(await s.home.get(undefined, { locale: 'fr', populate: 'featured', fallback: 'false' }))).featured)).toEqual([])
  })

  it('checks a connect item\'s { documentId, locale } in that locale', async () => {
    const enOnly = await s.author('English only')
    await dataOf(await s.authors.put(enOnly.documentId, { name: 'Deutsch' }, { locale: 'de' }))
    const x = await s.article()
    await expect400(s.ctx, () => s.articles.put(x.documentId, { author: { connect: [{ documentId: enOnly.documentId, locale: 'fr' }] } }), notFoundIn(enOnly.documentId, 'fr'))
    await dataOf(await s.articles.put(x.documentId, { author: { connect: [{ documentId: enOnly.documentId, locale: 'de' }] } }))
    expect(await authorOf(s, x.documentId)).toBe(enOnly.documentId)
  })

  it('writes author.articles per locale: the fr author links the fr article versions only', async () => {
    const ann = await s.author('Ann')
    await dataOf(await s.authors.put(ann.documentId, { name: 'Anne' }, { locale: 'fr' }))
    const x = await s.article({ title: 'en' })
    await dataOf(await s.articles.put(x.documentId, { title: 'fr' }, { locale: 'fr' }))
    const enOnly = await s.article({ title: 'en only' })
    await dataOf(await s.authors.put(ann.documentId, { articles: [x.documentId] }, { locale: 'fr' }))
    expect(await authorOf(s, x.documentId, { locale: 'fr' })).toBe(ann.documentId)
    expect(await authorOf(s, x.documentId, { locale: 'fr', status: 'draft' })).toBe(ann.documentId)
    expect(await authorOf(s, x.documentId)).toBeNull()
    await expect400(s.ctx, () => s.authors.put(ann.documentId, { articles: [enOnly.documentId] }, { locale: 'fr' }), notFoundIn(enOnly.documentId, 'fr'))
  })
})

describe('links per status', () => {
  let s: Shop
  beforeAll(async () => {
    s = await shop()
  })

  it('links the draft alone with status=draft; a publication copies the draft\'s links', async () => {
    const [ann, bob] = [await s.author('Ann'), await s.author('Bob')]
    const [a, b] = [await s.tag('status a'), await s.tag('status b')]
    const x = await s.article({ author: ann.documentId, tags: [a.documentId] })
    await dataOf(await s.articles.put(x.documentId, { author: bob.documentId, tags: [b.documentId, a.documentId] }, { status: 'draft' }))
    expect(await authorOf(s, x.documentId)).toBe(ann.documentId)
    expect(await tagsOf(s, x.documentId)).toEqual([a.documentId])
    expect(await authorOf(s, x.documentId, { status: 'draft' })).toBe(bob.documentId)
    expect(await tagsOf(s, x.documentId, { status: 'draft' })).toEqual([b.documentId, a.documentId])
    expect(await articlesOf(s, ann.documentId)).toEqual([x.documentId])
    expect(await articlesOf(s, bob.documentId)).toEqual([])
    await dataOf(await s.articles.action(x.documentId, 'publish'))
    expect(await authorOf(s, x.documentId)).toBe(bob.documentId)
    expect(await tagsOf(s, x.documentId)).toEqual([b.documentId, a.documentId])
    expect(await articlesOf(s, bob.documentId)).toEqual([x.documentId])
    expect(await articlesOf(s, ann.documentId)).toEqual([])
  })

  it('discard-draft resets the draft\'s links to the published ones', async () => {
    const [ann, bob] = [await s.author('Ann'), await s.author('Bob')]
    const x = await s.article({ author: ann.documentId })
    await dataOf(await s.articles.put(x.documentId, { author: bob.documentId }, { status: 'draft' }))
    await dataOf(await s.articles.action(x.documentId, 'discard-draft'))
    expect(await authorOf(s, x.documentId, { status: 'draft' })).toBe(ann.documentId)
  })

  it('links a draft-only article (any version is enough); published reads leave it out, draft reads show it', async () => {
    const live = await s.article({ title: 'live' })
    const draft = await dataOf(await s.articles.post({ title: 'draft only' }, { status: 'draft' }))
    await dataOf(await s.home.put(undefined, { title: 'Home', featured: [draft.documentId, live.documentId] }))
    expect(idsOf((await dataOf(await s.home.get(undefined, { populate: 'featured' }))).featured)).toEqual([live.documentId])
    const drafts = (await dataOf(await s.home.get(undefined, { populate: 'featured', status: 'draft' }))).featured
    expect(idsOf(drafts)).toEqual([draft.documentId, live.documentId])
    expect(drafts.map((doc: Doc) => doc.publishedAt)).toEqual([null, null])
    await dataOf(await s.articles.action(draft.documentId, 'publish'))
    expect(idsOf((await dataOf(await s.home.get(undefined, { populate: 'featured' }))).featured)).toEqual([draft.documentId, live.documentId])
  })

  it('leaves out of a published to-many an article that has no published version', async () => {
    const home = await s.article({ title: 'source' })
    const draftOnly = await dataOf(await s.articles.post({ title: 'draft only' }, { status: 'draft' }))
    const ann = await s.author('Ann')
    await dataOf(await s.articles.put(home.documentId, { author: ann.documentId }))
    await dataOf(await s.authors.put(ann.documentId, { articles: { connect: [draftOnly.documentId] } }))
    expect(await articlesOf(s, ann.documentId)).toEqual([home.documentId])
  })
})

describe('writes accept populate and fields', () => {
  let s: Shop
  beforeAll(async () => {
    s = await shop()
  })

  it('answers a POST and a PUT with the relations asked for and the fields selected', async () => {
    const ann = await s.author('Ann')
    const tag = await s.tag('answered')
    const created = await dataOf(await s.articles.post({ title: 'with answer', slug: 's', author: ann.documentId, tags: [tag.documentId] }, { populate: 'author', fields: 'title' }))
    expect(created).toEqual({ id: created.id, documentId: created.documentId, title: 'with answer', author: await getOne(s.authors, ann.documentId) })
    const updated = await dataOf(await s.articles.put(created.documentId, { title: 'again' }, { 'populate[tags][fields][0]': 'name' }))
    expect(updated.tags).toEqual([{ id: tag.id, documentId: tag.documentId, name: 'answered' }])
    expect(updated).not.toHaveProperty('author')
    const inverse = await dataOf(await s.authors.put(ann.documentId, { name: 'Ann B' }, { populate: 'articles' }))
    expect(idsOf(inverse.articles)).toEqual([created.documentId])
  })

  it('answers 400 for a bad populate on a write, writing nothing', async () => {
    const x = await s.article()
    await expect400(s.ctx, () => s.articles.put(x.documentId, { title: 'never' }, { populate: 'nope' }), /Invalid key nope/)
    expect((await oneOf(await s.articles.get(x.documentId))).title).toBe('An article')
  })
})

describe('the targets a write links', () => {
  it('are checked in one BatchGetItem, whatever their types (an author and tags)', async () => {
    const s = await shop({}, [])
    const ann = await s.author('Ann')
    const tags = [await s.tag('a'), await s.tag('b')]
    const peer = countedPeer(s.ctx)
    // Warm the peer's cached registry, role and token.
    expect((await peer.request('GET', '/api/articles', { token: s.key })).status).toBe(200)
    peer.calls.length = 0
    const created = await peer.request('POST', '/api/articles', { token: s.key, body: { data: { title: 'linked', author: ann.documentId, tags: tags.map((tag) => tag.documentId) } } })
    expect(created.status).toBe(200)
    const targetIds = new Set([ann.documentId, ...tags.map((tag) => tag.documentId)])
    const checks = peer.calls.filter((call) => keysOf(call).some((key) => targetIds.has(key.documentId)))
    expect(checks.map((call) => [call.command, keysOf(call).filter((key) => targetIds.has(key.documentId)).length])).toEqual([['BatchGetItemCommand', 3]])
  })
})
