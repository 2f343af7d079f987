// Relation kinds the shipped types do not hold (content-model.md §16), on types loaded from schema
// files made here: a bidirectional oneToOne moves its target from either side, a one-way oneToOne
// or oneToMany does not make its target exclusive, an inverse write between two draft & publish types follows
// its status, a to-one whose target is unpublished reads null in published
// reads, and a link to the document itself is kept, published included.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { loadContentTypes } from '../../lib/schema/load.js'
import { createTestContext, type TestContext } from '../support/context.js'
import { dataOf, draftClient, type DraftClient } from '../support/drafts.js'
import { getOne, idsOf } from '../support/relations.js'

const dirs: string[] = []
afterAll(() => dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })))

const schema = (singularName: string, pluralName: string, attributes: Record<string, unknown>, draftAndPublish = false) => ({
  kind: 'collectionType',
  info: { singularName, pluralName, displayName: singularName },
  options: { draftAndPublish },
  pluginOptions: { i18n: { localized: true } },
  attributes: { name: { type: 'string', pluginOptions: { i18n: { localized: true } } }, ...attributes },
})

const SCHEMAS: Record<string, unknown> = {
  person: schema('person', 'people', {
    passport: { type: 'relation', relation: 'oneToOne', target: 'api::passport.passport', inversedBy: 'holder' },
    badge: { type: 'relation', relation: 'oneToOne', target: 'api::badge.badge' },
    awards: { type: 'relation', relation: 'oneToMany', target: 'api::badge.badge' },
  }),
  passport: schema('passport', 'passports', {
    holder: { type: 'relation', relation: 'oneToOne', target: 'api::person.person', mappedBy: 'passport' },
  }),
  badge: schema('badge', 'badges', {}),
  page: schema('page', 'pages', {
    related: { type: 'relation', relation: 'manyToMany', target: 'api::page.page' },
    parent: { type: 'relation', relation: 'oneToOne', target: 'api::page.page' },
  }, true),
  show: schema('show', 'shows', {
    episodes: { type: 'relation', relation: 'oneToMany', target: 'api::episode.episode', mappedBy: 'show' },
  }, true),
  episode: schema('episode', 'episodes', {
    show: { type: 'relation', relation: 'manyToOne', target: 'api::show.show', inversedBy: 'episodes' },
  }, true),
}

describe('relation kinds beyond the shipped types', () => {
  let ctx: TestContext
  let people: DraftClient
  let passports: DraftClient
  let badges: DraftClient
  let pages: DraftClient
  let shows: DraftClient
  let episodes: DraftClient
  beforeAll(async () => {
    const dir = mkdtempSync(join(tmpdir(), 'relation-kinds-'))
    dirs.push(dir)
    for (const [name, content] of Object.entries(SCHEMAS)) {
      mkdirSync(join(dir, name))
      writeFileSync(join(dir, name, 'schema.json'), JSON.stringify(content))
    }
    ctx = await createTestContext({}, {}, loadContentTypes(dir))
    const key = await ctx.token()
    people = draftClient(ctx, key, '/api/people')
    passports = draftClient(ctx, key, '/api/passports')
    badges = draftClient(ctx, key, '/api/badges')
    pages = draftClient(ctx, key, '/api/pages')
    shows = draftClient(ctx, key, '/api/shows')
    episodes = draftClient(ctx, key, '/api/episodes')
  })

  const passportOf = async (personId: string) => (await getOne(people, personId, { populate: 'passport' })).passport?.documentId ?? null
  const holderOf = async (passportId: string) => (await getOne(passports, passportId, { populate: 'holder' })).holder?.documentId ?? null

  it('a bidirectional oneToOne moves its target: linking it to another source unlinks the first', async () => {
    const passport = await dataOf(await passports.post({ name: 'P' }))
    const ann = await dataOf(await people.post({ name: 'Ann', passport: passport.documentId }))
    expect(await holderOf(passport.documentId)).toBe(ann.documentId)
    const bob = await dataOf(await people.post({ name: 'Bob', passport: passport.documentId }))
    expect(await passportOf(ann.documentId)).toBeNull()
    expect(await passportOf(bob.documentId)).toBe(passport.documentId)
    expect(await holderOf(passport.documentId)).toBe(bob.documentId)
  })

  it('a bidirectional oneToOne written from its inverse side moves both ends', async () => {
    const [p1, p2] = [await dataOf(await passports.post({ name: 'P1' })), await dataOf(await passports.post({ name: 'P2' }))]
    const ann = await dataOf(await people.post({ name: 'Ann', passport: p1.documentId }))
    const bob = await dataOf(await people.post({ name: 'Bob', passport: p2.documentId }))
    // p1 now held by Bob: Ann loses p1, and Bob's p2 is released (a person holds one passport).
    await dataOf(await passports.put(p1.documentId, { holder: bob.documentId }))
    expect(await passportOf(ann.documentId)).toBeNull()
    expect(await passportOf(bob.documentId)).toBe(p1.documentId)
    expect(await holderOf(p1.documentId)).toBe(bob.documentId)
    expect(await holderOf(p2.documentId)).toBeNull()
  })

  it('a one-way oneToOne does not make its target exclusive', async () => {
    const badge = await dataOf(await badges.post({ name: 'gold' }))
    const ann = await dataOf(await people.post({ name: 'Ann', badge: badge.documentId }))
    const bob = await dataOf(await people.post({ name: 'Bob', badge: badge.documentId }))
    expect((await getOne(people, ann.documentId, { populate: 'badge' })).badge?.documentId).toBe(badge.documentId)
    expect((await getOne(people, bob.documentId, { populate: 'badge' })).badge?.documentId).toBe(badge.documentId)
  })

  it('a one-way oneToMany keeps every link: two sources list the same target (as Strapi)', async () => {
    const [gold, silver] = [await dataOf(await badges.post({ name: 'gold' })), await dataOf(await badges.post({ name: 'silver' }))]
    const ann = await dataOf(await people.post({ name: 'Ann', awards: [gold.documentId, silver.documentId] }))
    const bob = await dataOf(await people.post({ name: 'Bob', awards: [gold.documentId] }))
    await dataOf(await people.put(bob.documentId, { awards: { connect: [silver.documentId] } }))
    expect(idsOf((await getOne(people, ann.documentId, { populate: 'awards' })).awards)).toEqual([gold.documentId, silver.documentId])
    expect(idsOf((await getOne(people, bob.documentId, { populate: 'awards' })).awards)).toEqual([gold.documentId, silver.documentId])
  })

  it('shows a to-one as null when its target has no version in the status read, and the target once published', async () => {
    const draftOnly = await dataOf(await pages.post({ name: 'unpublished' }, { status: 'draft' }))
    const page = await dataOf(await pages.post({ name: 'child', parent: draftOnly.documentId }))
    expect((await getOne(pages, page.documentId, { populate: 'parent' })).parent).toBeNull()
    expect((await getOne(pages, page.documentId, { populate: 'parent', status: 'draft' })).parent).toMatchObject({ documentId: draftOnly.documentId, publishedAt: null })
    await dataOf(await pages.action(draftOnly.documentId, 'publish'))
    expect((await getOne(pages, page.documentId, { populate: 'parent' })).parent).toMatchObject({ documentId: draftOnly.documentId, name: 'unpublished' })
  })

  it('an inverse write between two draft & publish types changes the owning versions of its status (none: both)', async () => {
    const show = await dataOf(await shows.post({ name: 'show' }))
    const episode = await dataOf(await episodes.post({ name: 'pilot' }))
    const showOf = async (status: string) => (await getOne(episodes, episode.documentId, { populate: 'show', status })).show?.documentId ?? null
    const episodesOf = async (status: string) => idsOf((await getOne(shows, show.documentId, { populate: 'episodes', status })).episodes)
    await dataOf(await shows.put(show.documentId, { episodes: [episode.documentId] }, { status: 'draft' }))
    expect({ draft: await showOf('draft'), published: await showOf('published') }).toEqual({ draft: show.documentId, published: null })
    expect({ draft: await episodesOf('draft'), published: await episodesOf('published') }).toEqual({ draft: [episode.documentId], published: [] })
    await dataOf(await shows.put(show.documentId, { name: 'show, published', episodes: [episode.documentId] }))
    expect({ draft: await showOf('draft'), published: await showOf('published') }).toEqual({ draft: show.documentId, published: show.documentId })
    expect({ draft: await episodesOf('draft'), published: await episodesOf('published') }).toEqual({ draft: [episode.documentId], published: [episode.documentId] })
    await dataOf(await shows.put(show.documentId, { episodes: [] }, { status: 'draft' }))
    expect({ draft: await showOf('draft'), published: await showOf('published') }).toEqual({ draft: null, published: show.documentId })
  })

  it('keeps a link to the document itself, in the draft and the published version', async () => {
    const page = await dataOf(await pages.post({ name: 'home' }))
    await dataOf(await pages.put(page.documentId, { related: [page.documentId], parent: page.documentId }))
    for (const status of ['published', 'draft']) {
      const read = await getOne(pages, page.documentId, { populate: 'related,parent', status })
      expect({ status, related: idsOf(read.related), parent: read.parent?.documentId }).toEqual({ status, related: [page.documentId], parent: page.documentId })
    }
    await dataOf(await pages.put(page.documentId, { name: 'draft' }, { status: 'draft' }))
    const published = await getOne(pages, page.documentId, { populate: 'related' })
    expect(published.related.map((doc: { name: string }) => doc.name)).toEqual(['home'])
    expect((await pages.del(page.documentId)).status).toBe(204)
    expect((await pages.get(page.documentId)).status).toBe(404)
  })
})
