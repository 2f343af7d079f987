// Components and dynamic zones over HTTP on DynamoDB Local (content-model.md §18), on the models
// of test/fixtures/components-project: writing (replace, ids kept or new, nested validation with
// full paths, required/min/max, __component, relations inside), reading (absent unless populated,
// every populate form, fields, private values), storage inside the version, localization.
import { Validator } from '@seriousme/openapi-schema-validator'
import { beforeAll, describe, expect, it } from 'vitest'
import type { ContentType } from '../../lib/content-types.js'
import { loadContentTypes } from '../../lib/schema/load.js'
import { createTestContext, documentItems, json, tableSnapshot, type TestContext } from '../support/context.js'

const FIXTURE = new URL('../fixtures/components-project/src/api/', import.meta.url).pathname
const types: readonly ContentType[] = loadContentTypes(FIXTURE)

const hero = (heading: string, extra: Record<string, unknown> = {}) => ({ __component: 'blocks.hero', heading, ...extra })
const text = (body: string) => ({ __component: 'blocks.text', body })

describe('components and dynamic zones', () => {
  let ctx: TestContext
  let key: string
  const write = (method: 'POST' | 'PUT', path: string, data: Record<string, unknown>) => ctx.request(method, path, { token: key, body: { data } })
  const create = async (data: Record<string, unknown>, query = '') => {
    const response = await write('POST', `/api/pages${query}`, data)
    expect(response.status).toBe(200)
    return (await json(response)).data as Record<string, any>
  }
  const read = async (path: string) => {
    const response = await ctx.request('GET', path, { token: key })
    expect(response.status).toBe(200)
    return (await json(response)).data
  }
  const errorsOf = async (response: Response) => {
    expect(response.status).toBe(400)
    const body = await json(response)
    expect(body.error.name).toBe('ValidationError')
    return body.error.details.errors as { path: (string | number)[]; message: string }[]
  }

  beforeAll(async () => {
    ctx = await createTestContext({}, {}, types)
    key = await ctx.token()
    await ctx.addLocales('fr', 'de')
  })

  it('keeps components out of answers unless populated, and shows them with ids when asked', async () => {
    const page = await create({ title: 'Home', seo: { metaTitle: 'Home page', priority: 3, token: 'hidden' }, links: [{ text: 'Docs', url: '/docs' }], blocks: [hero('Welcome'), text('Hello')] })
    expect(Object.keys(page)).not.toContain('seo')
    expect(Object.keys(page)).not.toContain('blocks')
    const full = await read(`/api/pages/${page.documentId}?populate=*`)
    const doc = full[0]
    expect(doc.seo).toEqual({ id: expect.any(Number), metaTitle: 'Home page', metaDescription: null, priority: 3 })
    expect(doc.links).toEqual([{ id: expect.any(Number), text: 'Docs', url: '/docs', variant: 'primary' }])
    // One level: the hero's nested buttons are not shown by `*`.
    expect(doc.blocks).toEqual([
      { __component: 'blocks.hero', id: expect.any(Number), heading: 'Welcome', subheading: null },
      { __component: 'blocks.text', id: expect.any(Number), body: 'Hello', columns: 1 },
    ])
    const ids = [doc.seo.id, doc.links[0].id, doc.blocks[0].id, doc.blocks[1].id]
    expect(new Set(ids).size).toBe(4)
  })

  it('stores components inside the version: no item besides the document\'s versions', async () => {
    const page = await create({ title: 'Stored', seo: { metaTitle: 'x' }, blocks: [hero('A'), hero('B'), text('C')] })
    const items = await documentItems(ctx, page.documentId)
    const versions = items.filter((item) => !String(item.locale).startsWith('#') && !String(item.locale).startsWith('~'))
    expect(versions.every((item) => typeof item.blocks === 'string')).toBe(true)
    expect(JSON.parse(versions[0]!.blocks as string)).toHaveLength(3)
  })

  it.each([
    ['populate[seo]=true', (d: any) => expect(d.seo.metaTitle).toBe('Forms')],
    ['populate=seo', (d: any) => expect(d.seo.metaTitle).toBe('Forms')],
    ['populate[0]=seo&populate[1]=blocks', (d: any) => expect(d.blocks).toHaveLength(2)],
    ['populate[seo][fields][0]=priority', (d: any) => expect(d.seo).toEqual({ id: expect.any(Number), priority: 7 })],
    ['populate[seo][populate][keywords]=true', (d: any) => expect(d.seo.keywords).toEqual([{ id: expect.any(Number), word: 'api', weight: 2.5 }])],
    ['populate[seo][populate]=*', (d: any) => expect(d.seo.keywords[0].word).toBe('api')],
    ['populate=seo.keywords', (d: any) => expect(d.seo.keywords[0].word).toBe('api')],
    ['populate[blocks]=*', (d: any) => expect(d.blocks[0]).toMatchObject({ __component: 'blocks.hero', heading: 'Hi', ctas: [{ text: 'Go', variant: 'outline' }] })],
    ['populate[blocks][populate]=*', (d: any) => expect(d.blocks[0].ctas).toHaveLength(1)],
    ['populate[blocks][on][blocks.hero][populate][ctas]=true', (d: any) => {
      expect(d.blocks[0].ctas[0].text).toBe('Go')
      // Entries of components not named in `on` keep their scalar attributes.
      expect(d.blocks[1]).toEqual({ __component: 'blocks.text', id: expect.any(Number), body: 'Body', columns: 1 })
    }],
    ['populate[blocks][on][blocks.hero][fields][0]=heading', (d: any) => expect(d.blocks[0]).toEqual({ __component: 'blocks.hero', id: expect.any(Number), heading: 'Hi' })],
  ])('populates with %s', async (query, check) => {
    const page = await create({ title: 'Forms', seo: { metaTitle: 'Forms', priority: 7, keywords: [{ word: 'api', weight: 2.5 }] }, blocks: [hero('Hi', { ctas: [{ text: 'Go', variant: 'outline' }] }), text('Body')] })
    const [doc] = await read(`/api/pages/${page.documentId}?${query}`)
    check(doc)
    const list = await read(`/api/pages?filters[documentId][$eq]=${page.documentId}&${query}`)
    expect(list[0]).toEqual(doc)
  })

  it.each([
    ['an unknown component key', 'populate[seo][populate][nope]=true', 'Invalid key nope'],
    ['a filter inside a component populate', 'populate[seo][filters][metaTitle][$eq]=x', 'Invalid key filters'],
    ['`on` on a component that is not a zone', 'populate[seo][on][shared.seo]=true', 'Invalid key on'],
    ['a fragment for a component the zone does not list', 'populate[blocks][on][shared.seo]=true', 'Invalid key shared.seo: not a component of blocks'],
  ])('refuses %s in populate with a 400', async (_, query, message) => {
    const response = await ctx.request('GET', `/api/pages?${query}`, { token: key })
    expect(response.status).toBe(400)
    expect((await json(response)).error.message).toBe(message)
  })

  it('replaces a value on update, keeping the ids sent back and numbering new entries', async () => {
    const page = await create({ title: 'Ids', blocks: [hero('One'), text('Two')] })
    const [before] = await read(`/api/pages/${page.documentId}?populate=blocks`)
    const [one, two] = before.blocks
    const response = await write('PUT', `/api/pages/${page.documentId}?populate=blocks`, { blocks: [{ __component: 'blocks.text', id: two.id, body: 'Two, edited' }, hero('Three')] })
    expect(response.status).toBe(200)
    const after = (await json(response)).data.blocks
    expect(after[0]).toEqual({ __component: 'blocks.text', id: two.id, body: 'Two, edited', columns: 1 })
    expect(after[1].id).toBeGreaterThan(Math.max(one.id, two.id))
    expect(after.map((entry: any) => entry.id)).not.toContain(one.id)
    // Attributes not sent keep their values; components not sent are unchanged.
    await write('PUT', `/api/pages/${page.documentId}`, { title: 'Ids again' })
    const [kept] = await read(`/api/pages/${page.documentId}?populate=blocks`)
    expect(kept.blocks).toEqual(after)
  })

  it('refuses an id that is not one of this version\'s entries of that attribute, writing nothing', async () => {
    const page = await create({ title: 'Foreign', seo: { metaTitle: 'x' }, blocks: [hero('A')] })
    const [doc] = await read(`/api/pages/${page.documentId}?populate=*`)
    const before = await tableSnapshot(ctx)
    const errors = await errorsOf(await write('PUT', `/api/pages/${page.documentId}`, { blocks: [{ __component: 'blocks.hero', id: doc.seo.id, heading: 'B' }] }))
    expect(errors[0]!.path).toEqual(['blocks', 0, 'id'])
    expect(await tableSnapshot(ctx)).toBe(before)
    // An id of another component of the zone is not an entry of that component.
    await errorsOf(await write('PUT', `/api/pages/${page.documentId}`, { blocks: [{ __component: 'blocks.text', id: doc.blocks[0].id }] }))
  })

  it.each([
    ['a nested attribute of the wrong type', { blocks: [text('a'), hero('b'), { __component: 'blocks.hero', heading: 3 }] }, ['blocks', 2, 'heading'], 'blocks[2].heading must be a `string` type, but the final value was: `3`.'],
    ['a missing required nested attribute', { blocks: [{ __component: 'blocks.hero' }] }, ['blocks', 0, 'heading'], 'blocks[0].heading must be defined'],
    ['a nested component beyond its max', { blocks: [hero('a', { ctas: [{ text: '1' }, { text: '2' }, { text: '3' }] })] }, ['blocks', 0, 'ctas'], 'blocks[0].ctas must contain at most 2 items'],
    ['a regex inside a nested component', { blocks: [hero('a', { ctas: [{ text: 'x', url: 'ftp://x' }] })] }, ['blocks', 0, 'ctas', 0, 'url'], 'blocks[0].ctas[0].url must match the following: "/^(https?:\\/\\/|\\/)/"'],
    ['a zone entry without __component', { blocks: [{ heading: 'x' }] }, ['blocks', 0, '__component'], 'blocks[0].__component must be defined: one of blocks.hero, blocks.text, blocks.related'],
    ['a zone entry of a component the zone does not list', { blocks: [{ __component: 'shared.seo', metaTitle: 'x' }] }, ['blocks', 0, '__component'], "blocks[0].__component: 'shared.seo' is not one of the components of blocks (blocks.hero, blocks.text, blocks.related)"],
    ['an unknown key inside a component', { seo: { metaTitle: 'x', colour: 'red' }, blocks: [hero('a')] }, ['seo', 'colour'], 'Invalid key colour'],
    ['too few zone entries', { blocks: [] }, ['blocks'], 'blocks must contain at least 1 items'],
    ['too many repeatable entries', { blocks: [hero('a')], links: [1, 2, 3, 4].map((n) => ({ text: String(n) })) }, ['links'], 'links must contain at most 3 items'],
    ['a component that is not an object', { seo: 'x', blocks: [hero('a')] }, ['seo'], 'seo must be an object'],
    ['a zone that is not an array', { blocks: hero('a') }, ['blocks'], 'blocks must be an array'],
    ['a float DynamoDB cannot store (was a 500)', { seo: { metaTitle: 'x', keywords: [{ word: 'w', weight: -5e-324 }] }, blocks: [hero('a')] }, ['seo', 'keywords', 0, 'weight'], 'seo.keywords[0].weight is out of range'],
    ['a value beyond a nested bound', { seo: { metaTitle: 'x', priority: 11 }, blocks: [hero('a')] }, ['seo', 'priority'], 'seo.priority must be less than or equal to 10'],
  ])('refuses %s with its full path, writing nothing', async (_, data, path, message) => {
    const before = await tableSnapshot(ctx)
    const errors = await errorsOf(await write('POST', '/api/pages', { title: 'Bad', ...data }))
    expect(errors).toContainEqual({ path, message, name: 'ValidationError' })
    expect(await tableSnapshot(ctx)).toBe(before)
  })

  it('lists every problem of a body in one 400', async () => {
    const errors = await errorsOf(await write('POST', '/api/pages', { title: 'Bad', seo: { priority: -1 }, blocks: [{ __component: 'blocks.hero' }] }))
    expect(errors.map((error) => error.path)).toEqual([['seo', 'metaTitle'], ['seo', 'priority'], ['blocks', 0, 'heading']])
  })

  it('keeps a shared (non-localized) component equal in every locale, and a localized one per locale', async () => {
    const page = await create({ title: 'Shared', seo: { metaTitle: 'English' }, links: [{ text: 'One' }], blocks: [hero('EN')] })
    const response = await write('PUT', `/api/pages/${page.documentId}?locale=fr`, { title: 'Partagé', seo: { metaTitle: 'Français' }, blocks: [hero('FR')] })
    expect(response.status).toBe(200)
    await write('PUT', `/api/pages/${page.documentId}?locale=fr`, { links: [{ text: 'Deux' }] })
    const [en] = await read(`/api/pages/${page.documentId}?populate=*`)
    const [fr] = await read(`/api/pages/${page.documentId}?locale=fr&populate=*`)
    expect(en.links).toEqual(fr.links)
    expect(en.links[0].text).toBe('Deux')
    expect([en.seo.metaTitle, fr.seo.metaTitle]).toEqual(['English', 'Français'])
    expect(en.blocks[0].id).not.toBe(fr.blocks[0].id)
    // A shared component cannot be set when creating a localization.
    const other = await create({ title: 'Other', blocks: [hero('x')] })
    const errors = await errorsOf(await write('PUT', `/api/pages/${other.documentId}?locale=fr`, { title: 'Autre', links: [], blocks: [hero('y')] }))
    expect(errors[0]!.path).toEqual(['links'])
  })

  it('keeps a draft\'s components apart from the published version until it is published', async () => {
    const page = await create({ title: 'Drafts', blocks: [hero('Published')] })
    await write('PUT', `/api/pages/${page.documentId}?status=draft`, { blocks: [hero('Draft only')] })
    const [published] = await read(`/api/pages/${page.documentId}?populate=blocks`)
    const [draft] = await read(`/api/pages/${page.documentId}?status=draft&populate=blocks`)
    expect(published.blocks[0].heading).toBe('Published')
    expect(draft.blocks[0].heading).toBe('Draft only')
    expect((await ctx.request('POST', `/api/pages/${page.documentId}/actions/publish`, { token: key })).status).toBe(200)
    const [republished] = await read(`/api/pages/${page.documentId}?populate=blocks`)
    expect(republished.blocks).toEqual(draft.blocks)
  })

  it('links relations inside components, checks their targets and populates them when asked', async () => {
    const article = (await json(await write('POST', '/api/articles', { title: 'Linked', secret: 's' }))).data
    const missing = await errorsOf(await write('POST', '/api/pages', { title: 'R', blocks: [{ __component: 'blocks.related', articles: ['nosuchdocumentid0000000'] }] }))
    expect(missing[0]).toMatchObject({ path: ['blocks', 0, 'articles'], message: 'Document with id "nosuchdocumentid0000000", locale "en" not found' })
    const page = await create({ title: 'Related', blocks: [{ __component: 'blocks.related', heading: 'See also', articles: [article.documentId], lead: article.documentId }] })
    const [plain] = await read(`/api/pages/${page.documentId}?populate=blocks`)
    expect(plain.blocks[0]).toEqual({ __component: 'blocks.related', id: expect.any(Number), heading: 'See also' })
    const [doc] = await read(`/api/pages/${page.documentId}?populate[blocks][on][blocks.related][populate][articles][fields][0]=title&populate[blocks][on][blocks.related][populate][lead]=true`)
    expect(doc.blocks[0].articles).toEqual([{ id: article.id, documentId: article.documentId, title: 'Linked' }])
    expect(doc.blocks[0].lead).toMatchObject({ documentId: article.documentId, title: 'Linked' })
    expect(doc.blocks[0].lead).not.toHaveProperty('secret')
    // A deleted target is no longer shown.
    expect((await ctx.request('DELETE', `/api/articles/${article.documentId}`, { token: key })).status).toBe(204)
    const [after] = await read(`/api/pages/${page.documentId}?populate[blocks][populate]=*`)
    expect(after.blocks[0].articles).toEqual([])
    expect(after.blocks[0].lead).toBeNull()
  })

  it('never shows private attributes inside components, not with fields either', async () => {
    const page = await create({ title: 'Private', seo: { metaTitle: 'x', token: 'secret-token' }, blocks: [hero('a')] })
    const [doc] = await read(`/api/pages/${page.documentId}?populate=*`)
    expect(doc.seo).not.toHaveProperty('token')
    const response = await ctx.request('GET', `/api/pages/${page.documentId}?populate[seo][fields][0]=token`, { token: key })
    expect(response.status).toBe(400)
  })

  describe('filters and sort through components', () => {
    let ids: Record<string, string>
    const titles = async (query: string) => {
      const response = await ctx.request('GET', `/api/pages?locale=de&${query}`, { token: key })
      expect(response.status).toBe(200)
      return ((await json(response)).data as { title: string }[]).map((doc) => doc.title).sort()
    }

    beforeAll(async () => {
      // In their own locale, so the other tests' pages are not among them.
      const make = async (title: string, seo: unknown, links: unknown) => {
        const en = await create({ title: `${title} (en)`, links, blocks: [hero(title)] })
        const response = await write('PUT', `/api/pages/${en.documentId}?locale=de`, { title, seo, blocks: [hero(title)] })
        expect(response.status).toBe(200)
        return en.documentId as string
      }
      ids = {
        a: await make('A', { metaTitle: 'Zeta', priority: 1, keywords: [{ word: 'red', weight: 1 }, { word: 'blue', weight: 5 }] }, [{ text: 'x', variant: 'outline' }]),
        b: await make('B', { metaTitle: 'alpha', priority: 5, keywords: [{ word: 'red', weight: 5 }] }, [{ text: 'y' }]),
        c: await make('C', null, []),
      }
    })

    it.each([
      ['filters[seo][metaTitle][$eq]=Zeta', ['A']],
      ['filters[seo][priority][$gte]=2', ['B']],
      ['filters[seo][metaTitle][$containsi]=A', ['A', 'B']],
      ['filters[seo][keywords][word][$eq]=red', ['A', 'B']],
      // One entry must hold every condition under one key: A's red keyword weighs 1, B's 5.
      ['filters[seo][keywords][word][$eq]=red&filters[seo][keywords][weight][$gte]=5', ['B']],
      ['filters[seo][keywords][$and][0][word][$eq]=blue&filters[seo][keywords][$and][1][weight][$eq]=5', ['A']],
      ['filters[links][variant][$eq]=outline', ['A']],
      ['filters[$or][0][seo][priority][$eq]=1&filters[$or][1][title][$eq]=C', ['A', 'C']],
      ['filters[$not][seo][metaTitle][$eq]=Zeta', ['B', 'C']],
      // The component itself, as Strapi's join on it: null, or a repeatable one without entries.
      ['filters[seo][$null]=true', ['C']],
      ['filters[seo][$notNull]=true', ['A', 'B']],
      ['filters[seo][$null]=false&filters[seo][priority][$eq]=5', ['B']],
      ['filters[links][$null]=1', ['C']],
      // A condition inside holds on an entry only: C, without seo, has no metaDescription to be null.
      ['filters[seo][metaDescription][$null]=true', ['A', 'B']],
    ])('keeps the versions %s matches', async (query, expected) => {
      expect(await titles(query)).toEqual(expected)
      // The same filter answers a get one.
      const one = await ctx.request('GET', `/api/pages/${ids[expected[0]!.toLowerCase()]}?locale=de&${query}`, { token: key })
      expect(one.status).toBe(200)
    })

    it.each([
      ['a dynamic zone', 'filters[blocks][heading][$eq]=x', 'Invalid key blocks'],
      ['a dynamic zone itself', 'filters[blocks][$null]=true', 'Invalid key blocks'],
      ['a private attribute inside a component', 'filters[seo][token][$eq]=x', 'Invalid key token'],
      ['an unknown attribute inside a component', 'filters[seo][nope][$eq]=x', 'Invalid key nope'],
      ['a component compared to a value', 'filters[seo]=x', 'Invalid value for seo: seo is a component; filter on its fields, e.g. filters[seo][<field>][$eq]=<value>'],
      ['a sort by a repeatable component', 'sort=links.text', 'Invalid key links.text: sort by a field of a non-repeatable component (links is a repeatable component)'],
      ['a sort by a dynamic zone', 'sort=blocks.heading', 'Invalid key blocks.heading: sort by a field of a non-repeatable component (blocks is a dynamic zone)'],
      ['a sort by a component itself', 'sort=seo', 'Invalid key seo'],
    ])('refuses %s with a 400', async (_, query, message) => {
      const response = await ctx.request('GET', `/api/pages?${query}`, { token: key })
      expect(response.status).toBe(400)
      expect((await json(response)).error.message).toBe(message)
    })

    it('sorts by a non-repeatable component\'s field, nulls first ascending, with the locale\'s collation', async () => {
      const order = async (query: string) => (((await json(await ctx.request('GET', `/api/pages?locale=de&${query}`, { token: key }))).data) as { title: string }[]).map((doc) => doc.title)
      expect(await order('sort=seo.metaTitle')).toEqual(['C', 'B', 'A'])
      expect(await order('sort[0]=seo.priority:desc')).toEqual(['B', 'A', 'C'])
      expect(await order('sort=seo.metaTitle:desc&pagination[pageSize]=1&pagination[page]=2')).toEqual(['B'])
    })

    it('does not search inside components with _q', async () => {
      expect(await titles('_q=Zeta')).toEqual([])
    })
  })

  it('describes each component as a schema and each zone as a oneOf with a __component discriminator in a valid OpenAPI document', async () => {
    const response = await ctx.request('GET', '/api/openapi.json')
    expect(response.status).toBe(200)
    const document = await json(response)
    expect((await new Validator().validate(structuredClone(document))).valid).toBe(true)
    const schemas = document.components.schemas
    expect(schemas.ComponentSharedSeo.properties.metaTitle).toBeDefined()
    expect(schemas.ComponentSharedSeo.properties).not.toHaveProperty('token')
    expect(schemas.ComponentBlocksHero.required).toEqual(['__component'])
    const page = schemas[Object.keys(schemas).find((name) => schemas[name].properties?.blocks !== undefined && schemas[name].properties?.createdAt !== undefined)!]
    expect(page.properties.blocks.items.discriminator).toEqual({ propertyName: '__component', mapping: {
      'blocks.hero': '#/components/schemas/ComponentBlocksHero', 'blocks.text': '#/components/schemas/ComponentBlocksText', 'blocks.related': '#/components/schemas/ComponentBlocksRelated',
    } })
    expect(page.properties.seo.anyOf[0]).toEqual({ $ref: '#/components/schemas/ComponentSharedSeo' })
  })
})
