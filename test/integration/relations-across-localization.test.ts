// Links between a type that is not localized and a localized one, in each direction (content-model.md
// §16; issue 33, point 12): the type that is not localized has one version, but its relations are
// read in the request's locale, as every relation is: a category read with locale=fr shows the fr
// versions of its restaurants, in populate, filters and from the inverse side. Strapi 5.54 shows,
// whatever the locale asked, every linked row of any locale (README, differences from Strapi).
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { loadContentTypes } from '../../lib/schema/load.js'
import { createTestContext, json, type TestContext } from '../support/context.js'
import { dataOf, draftClient, type DraftClient } from '../support/drafts.js'

const dirs: string[] = []
afterAll(() => dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })))

const collection = (singularName: string, pluralName: string, localized: boolean, attributes: Record<string, unknown>) => ({
  kind: 'collectionType',
  info: { singularName, pluralName, displayName: singularName },
  options: { draftAndPublish: false },
  pluginOptions: { i18n: { localized } },
  attributes,
})

const SCHEMAS: Record<string, unknown> = {
  category: collection('category', 'categories', false, {
    name: { type: 'string' },
    restaurants: { type: 'relation', relation: 'oneToMany', target: 'api::restaurant.restaurant', mappedBy: 'category' },
  }),
  restaurant: collection('restaurant', 'restaurants', true, {
    name: { type: 'string', pluginOptions: { i18n: { localized: true } } },
    category: { type: 'relation', relation: 'manyToOne', target: 'api::category.category', inversedBy: 'restaurants' },
    chefs: { type: 'relation', relation: 'manyToMany', target: 'api::chef.chef', mappedBy: 'restaurants' },
  }),
  chef: collection('chef', 'chefs', false, {
    name: { type: 'string' },
    restaurants: { type: 'relation', relation: 'manyToMany', target: 'api::restaurant.restaurant', inversedBy: 'chefs' },
  }),
}

describe('relations between a type that is not localized and a localized one', () => {
  let ctx: TestContext
  let categories: DraftClient
  let restaurants: DraftClient
  let chefs: DraftClient
  const ids: Record<string, string> = {}
  beforeAll(async () => {
    const dir = mkdtempSync(join(tmpdir(), 'across-localization-'))
    dirs.push(dir)
    for (const [name, content] of Object.entries(SCHEMAS)) {
      mkdirSync(join(dir, name))
      writeFileSync(join(dir, name, 'schema.json'), JSON.stringify(content))
    }
    ctx = await createTestContext({}, {}, loadContentTypes(dir))
    await ctx.addLocales('fr')
    const key = await ctx.token()
    categories = draftClient(ctx, key, '/api/categories')
    restaurants = draftClient(ctx, key, '/api/restaurants')
    chefs = draftClient(ctx, key, '/api/chefs')
    ids.c1 = (await dataOf(await categories.post({ name: 'C1' }))).documentId
    ids.r1 = (await dataOf(await restaurants.post({ name: 'R1-en', category: ids.c1 }))).documentId
    await dataOf(await restaurants.put(ids.r1, { name: 'R1-fr', category: ids.c1 }, { locale: 'fr' }))
    ids.r2 = (await dataOf(await restaurants.post({ name: 'R2-en', category: ids.c1 }))).documentId
    ids.r3 = (await dataOf(await restaurants.post({ name: 'R3-fr', category: ids.c1 }, { locale: 'fr' }))).documentId
    ids.chef = (await dataOf(await chefs.post({ name: 'H', restaurants: [ids.r1, ids.r2] }))).documentId
  })

  const names = (docs: { name: string }[] | undefined) => (docs ?? []).map((doc) => doc.name).sort()
  const listNames = async (client: DraftClient, query: string) => names((await json(await client.list(query))).data)

  it('populates the inverse side of a category (not localized) with the restaurants of the locale asked', async () => {
    const read = async (query: Record<string, string>) => (await dataOf(await categories.get(ids.c1 as string, { ...query, populate: 'restaurants' })))[0]
    expect(names((await read({})).restaurants)).toEqual(['R1-en', 'R2-en'])
    expect(names((await read({ locale: 'fr' })).restaurants)).toEqual(['R1-fr', 'R3-fr'])
    const fr = await read({ locale: 'fr' })
    expect(fr.locale).toBe('en') // the category's one version, in the default locale
    expect(names((await json(await categories.list('locale=fr&populate=restaurants'))).data[0]?.restaurants)).toEqual(['R1-fr', 'R3-fr'])
  })

  it('populates the links of a chef (not localized) with the restaurants of the locale asked, leaving out those without one', async () => {
    const read = async (query: Record<string, string>) => (await dataOf(await chefs.get(ids.chef as string, { ...query, populate: 'restaurants' })))[0]
    expect(names((await read({})).restaurants)).toEqual(['R1-en', 'R2-en'])
    expect(names((await read({ locale: 'fr' })).restaurants)).toEqual(['R1-fr'])
  })

  it('filters categories and chefs through the restaurants of the locale asked', async () => {
    expect(await listNames(categories, 'filters[restaurants][name][$eq]=R3-fr')).toEqual([])
    expect(await listNames(categories, 'locale=fr&filters[restaurants][name][$eq]=R3-fr')).toEqual(['C1'])
    expect(await listNames(chefs, 'filters[restaurants][name][$eq]=R1-fr')).toEqual([])
    expect(await listNames(chefs, 'locale=fr&filters[restaurants][name][$eq]=R1-fr')).toEqual(['H'])
    expect(await listNames(chefs, 'locale=fr&filters[restaurants][name][$eq]=R1-en')).toEqual([])
  })

  it('shows the category and the chefs (not localized) from every locale version of a restaurant', async () => {
    for (const [locale, name] of [['en', 'R1-en'], ['fr', 'R1-fr']]) {
      const read = (await dataOf(await restaurants.get(ids.r1 as string, { locale: locale as string, populate: 'category,chefs' })))[0]
      expect({ name: read.name, category: read.category?.name, chefs: names(read.chefs) }).toEqual({ name, category: 'C1', chefs: ['H'] })
    }
    expect(await listNames(restaurants, 'locale=fr&filters[category][name][$eq]=C1')).toEqual(['R1-fr', 'R3-fr'])
    expect(await listNames(restaurants, 'locale=fr&filters[chefs][name][$eq]=H')).toEqual(['R1-fr'])
  })

  it('answers a write of a chef with its restaurants in the locale asked, and ignores an unknown locale as the chef does', async () => {
    const written = await dataOf(await chefs.put(ids.chef as string, { name: 'H' }, { locale: 'fr', populate: 'restaurants' }))
    expect(names(written.restaurants)).toEqual(['R1-fr'])
    expect(names((await dataOf(await chefs.get(ids.chef as string, { locale: 'xx', populate: 'restaurants' })))[0].restaurants)).toEqual(['R1-en', 'R2-en'])
  })
})
