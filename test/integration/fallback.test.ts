// Locale fallback (delivery.md §12), sentence by sentence, through HTTP on DynamoDB Local. Lists are
// checked in both states of a fallback locale's served list: before the reindex marks it ready (read
// from the chain's own lists) and after (read from the `~<locale>` copies the writes maintained).
import { beforeAll, describe, expect, it } from 'vitest'
import { createTestContext, json, tableSnapshot, type TestContext } from '../support/context.js'

interface Doc { id: number; documentId: string; title: string | null; views: number | null; locale: string }

/** The chain of fr-CA in the reading tests: fr-CA, then fr, then en. */
const CHAIN = ['fr-CA', 'fr', 'en']

async function expectBadRequest(response: Response, key: string): Promise<void> {
  expect(response.status).toBe(400)
  const body = await json(response)
  expect(body.error).toMatchObject({ status: 400, name: 'ValidationError' })
  expect(JSON.stringify(body.error)).toContain(key)
}

describe('locale objects and their fallback (admin API)', () => {
  let ctx: TestContext
  beforeAll(async () => {
    ctx = await createTestContext()
    await ctx.addLocales('fr', 'de')
  })
  const locale = async (code: string) => (await json(await ctx.admin('GET', '/admin/i18n/locales'))).data.find((entry: { code: string }) => entry.code === code)

  it('carries fallback: null on every locale object when unset, on the admin route and on GET /api/i18n/locales', async () => {
    const admin = (await json(await ctx.admin('GET', '/admin/i18n/locales'))).data
    const publicList = await json(await ctx.request('GET', '/api/i18n/locales'))
    for (const list of [admin, publicList]) {
      expect(list.map((entry: { code: string; fallback: unknown }) => [entry.code, entry.fallback])).toEqual([['en', null], ['fr', null], ['de', null]])
    }
  })

  it('accepts fallback on POST and answers it in the locale object', async () => {
    const response = await ctx.admin('POST', '/admin/i18n/locales', { code: 'fr-CA', fallback: 'fr' })
    expect(response.status).toBe(201)
    expect((await json(response)).data).toMatchObject({ code: 'fr-CA', fallback: 'fr' })
    const publicList = await json(await ctx.request('GET', '/api/i18n/locales'))
    expect(publicList.find((entry: { code: string }) => entry.code === 'fr-CA').fallback).toBe('fr')
  })

  it('accepts fallback: "<code>" and fallback: null on PUT', async () => {
    const set = await ctx.admin('PUT', '/admin/i18n/locales/de', { fallback: 'en' })
    expect(set.status).toBe(200)
    expect((await json(set)).data).toMatchObject({ code: 'de', fallback: 'en' })
    expect((await locale('de')).fallback).toBe('en')
    const cleared = await ctx.admin('PUT', '/admin/i18n/locales/de', { fallback: null })
    expect(cleared.status).toBe(200)
    expect((await json(cleared)).data.fallback).toBeNull()
    expect((await locale('de')).fallback).toBeNull()
  })

  describe.each([
    ['POST with a fallback that is not registered', 'POST', '/admin/i18n/locales', { code: 'it', fallback: 'pt' }],
    ['PUT with a fallback that is not registered', 'PUT', '/admin/i18n/locales/de', { fallback: 'pt' }],
    ['PUT that would close a cycle (fr-CA → fr → fr-CA)', 'PUT', '/admin/i18n/locales/fr', { fallback: 'fr-CA' }],
    ['PUT of a locale as its own fallback', 'PUT', '/admin/i18n/locales/de', { fallback: 'de' }],
    ['POST of a locale as its own fallback', 'POST', '/admin/i18n/locales', { code: 'it', fallback: 'it' }],
  ])('%s', (_name, method, path, body) => {
    it('answers 400 and changes nothing', async () => {
      const before = await tableSnapshot(ctx)
      await expectBadRequest(await ctx.admin(method, path, body), 'fallback')
      expect(await tableSnapshot(ctx)).toBe(before)
    })
  })

  it('answers 409 when deleting a locale another one falls back to, and keeps it', async () => {
    const response = await ctx.admin('DELETE', '/admin/i18n/locales/fr')
    expect(response.status).toBe(409)
    expect((await json(response)).error.name).toBe('ConflictError')
    expect((await locale('fr'))?.code).toBe('fr')
  })
})

describe('reads along the chain (fr-CA → fr → en)', () => {
  let ctx: TestContext
  let key: string
  /** Every version written, by documentId then locale, as the write answers showed it. */
  const written = new Map<string, Map<string, Doc>>()

  const write = async (locale: string, title: string, documentId?: string): Promise<Doc> => {
    const path = documentId === undefined ? `/api/articles?locale=${locale}` : `/api/articles/${documentId}?locale=${locale}`
    const response = await ctx.request(documentId === undefined ? 'POST' : 'PUT', path, { token: key, body: { data: { title } } })
    expect(response.status).toBe(200)
    const doc: Doc = (await json(response)).data
    const versions = written.get(doc.documentId) ?? new Map<string, Doc>()
    versions.set(locale, doc)
    written.set(doc.documentId, versions)
    return doc
  }
  /** What a chain serves, computed from the writes: per document the first version along it. */
  const servedBy = (chain: readonly string[]) =>
    [...written.values()].flatMap((versions) => chain.map((code) => versions.get(code)).filter((doc) => doc !== undefined).slice(0, 1)) as Doc[]
  const byTitle = (locale: string) => {
    const collator = new Intl.Collator(locale)
    return (a: Doc, b: Doc) => collator.compare(a.title ?? '', b.title ?? '') || a.id - b.id
  }
  const list = async (query: string) => {
    const response = await ctx.request('GET', `/api/articles?${query}`)
    expect(response.status).toBe(200)
    return json(response)
  }
  const shortly = (docs: Doc[]) => docs.map((doc) => `${doc.locale}:${doc.title}`)

  let onlyEn: Doc
  let enAndFr: Doc
  let everywhere: Doc
  let onlyDe: Doc
  beforeAll(async () => {
    ctx = await createTestContext()
    key = await ctx.token()
    await ctx.addLocales('fr', 'de')
    expect((await ctx.admin('POST', '/admin/i18n/locales', { code: 'fr-CA', fallback: 'fr' })).status).toBe(201)
    expect((await ctx.admin('PUT', '/admin/i18n/locales/fr', { fallback: 'en' })).status).toBe(200)
    // Written after the fallbacks were set, so the writes maintain the served copies. The titles
    // order differently under fr-CA's collation (côte < coté) than under en's (coté < côte).
    onlyEn = await write('en', 'coté')
    enAndFr = await write('en', 'zèbre')
    await write('fr', 'côte', enAndFr.documentId)
    await write('fr', 'cote')
    await write('fr-CA', 'côté')
    everywhere = await write('en', 'apple')
    await write('fr', 'abricot', everywhere.documentId)
    await write('fr-CA', 'érable', everywhere.documentId)
    await write('en', 'Banana')
    onlyDe = await write('de', 'Apfel')
  })

  it('has the chain of a locale: itself, its fallback, that one\'s fallback, until one has none', async () => {
    expect(await ctx.services.locales.chainOf('fr-CA')).toEqual(CHAIN)
    expect(await ctx.services.locales.chainOf('fr')).toEqual(['fr', 'en'])
    expect(await ctx.services.locales.chainOf('de')).toBeUndefined()
  })

  describe('get one', () => {
    it.each([
      ['only en', () => onlyEn, 'en'],
      ['en and fr', () => enAndFr, 'fr'],
      ['en, fr and fr-CA', () => everywhere, 'fr-CA'],
    ])('answers the first version along the chain for a document in %s', async (_name, doc, expected) => {
      const response = await ctx.request('GET', `/api/articles/${doc().documentId}?locale=fr-CA`)
      expect(response.status).toBe(200)
      const [found] = (await json(response)).data
      expect(found).toEqual(written.get(doc().documentId)?.get(expected))
      expect(found.locale).toBe(expected)
    })

    it('answers Content-Language: <the locale it was found in> when it fell back', async () => {
      const response = await ctx.request('GET', `/api/articles/${onlyEn.documentId}?locale=fr-CA`)
      expect(response.headers.get('content-language')).toBe('en')
    })

    it('answers Content-Language: <the locale it was found in> when that is the requested one', async () => {
      const response = await ctx.request('GET', `/api/articles/${everywhere.documentId}?locale=fr-CA`)
      expect(response.status).toBe(200)
      expect(response.headers.get('content-language')).toBe('fr-CA')
    })

    it('answers the ETag of the version found, the one a direct GET in that locale answers', async () => {
      const fellBack = await ctx.request('GET', `/api/articles/${enAndFr.documentId}?locale=fr-CA`)
      const direct = await ctx.request('GET', `/api/articles/${enAndFr.documentId}?locale=fr`)
      expect(fellBack.headers.get('etag')).toMatch(/^"\d+\.\d+"$/)
      expect(fellBack.headers.get('etag')).toBe(direct.headers.get('etag'))
      expect(fellBack.headers.get('etag')).not.toBe((await ctx.request('GET', `/api/articles/${enAndFr.documentId}?locale=en`)).headers.get('etag'))
    })

    it('answers 404 only when the document has no version in any locale of the chain', async () => {
      expect((await ctx.request('GET', `/api/articles/${onlyDe.documentId}?locale=fr-CA`)).status).toBe(404)
    })

    it('answers the requested locale only with fallback=false', async () => {
      expect((await ctx.request('GET', `/api/articles/${onlyEn.documentId}?locale=fr-CA&fallback=false`)).status).toBe(404)
      const own = await ctx.request('GET', `/api/articles/${everywhere.documentId}?locale=fr-CA&fallback=false`)
      expect((await json(own)).data[0].title).toBe('érable')
    })

    it('answers the same with fallback=true as with no fallback parameter', async () => {
      const explicit = await ctx.request('GET', `/api/articles/${onlyEn.documentId}?locale=fr-CA&fallback=true`)
      const implicit = await ctx.request('GET', `/api/articles/${onlyEn.documentId}?locale=fr-CA`)
      expect(await json(explicit)).toEqual(await json(implicit))
    })

    it('changes nothing for a locale without a configured fallback', async () => {
      expect((await ctx.request('GET', `/api/articles/${onlyEn.documentId}?locale=de`)).status).toBe(404)
      expect((await ctx.request('GET', `/api/articles/${onlyEn.documentId}?locale=de&fallback=true`)).status).toBe(404)
    })
  })

  describe('single-type GET', () => {
    it('answers 404 when the single type has no version in the chain, then the first version along it', async () => {
      expect((await ctx.request('PUT', '/api/homepage?locale=de', { token: key, body: { data: { title: 'Startseite' } } })).status).toBe(200)
      expect((await ctx.request('GET', '/api/homepage?locale=fr-CA')).status).toBe(404)
      const en = await ctx.request('PUT', '/api/homepage?locale=en', { token: key, body: { data: { title: 'Home' } } })
      const response = await ctx.request('GET', '/api/homepage?locale=fr-CA')
      expect(response.status).toBe(200)
      expect((await json(response)).data).toMatchObject({ title: 'Home', locale: 'en' })
      expect(response.headers.get('content-language')).toBe('en')
      expect(response.headers.get('etag')).toBe(en.headers.get('etag'))
      expect((await ctx.request('GET', '/api/homepage?locale=fr-CA&fallback=false')).status).toBe(404)
    })
  })

  /** List answers of the first state, compared with the second's. */
  const firstAnswers = new Map<string, unknown>()
  const LIST_QUERIES = [
    'locale=fr-CA',
    'locale=fr-CA&sort=title',
    'locale=fr-CA&sort=title:desc',
    'locale=fr-CA&sort=title&pagination[pageSize]=2&pagination[page]=2',
    'locale=fr-CA&filters[locale][$eq]=en&sort=title',
    'locale=fr-CA&filters[title][$eq]=zèbre',
    'locale=fr-CA&fallback=false',
    'locale=fr',
  ]

  describe.each([
    { state: 'before the served list is rebuilt (the chain\'s own lists)', ready: false },
    { state: 'after the served list is marked ready (its copies)', ready: true },
  ])('list $state', ({ ready }) => {
    beforeAll(async () => {
      if (ready) {
        const { epoch } = await ctx.services.locales.current()
        expect(await ctx.services.locales.markServedReady(epoch)).toBe(true)
      }
      expect(await ctx.services.locales.servedReady('fr-CA')).toBe(ready)
    })

    it('lists every document with a version in the chain once, as its first version along the chain; total counts documents', async () => {
      const { data, meta } = await list('locale=fr-CA')
      const expected = servedBy(CHAIN).sort((a, b) => a.id - b.id)
      expect(data).toEqual(expected)
      expect(meta.pagination).toEqual({ page: 1, pageSize: 25, pageCount: 1, total: 6 })
    })

    it('sorts with the requested locale\'s collation', async () => {
      const { data } = await list('locale=fr-CA&sort=title')
      expect(shortly(data)).toEqual(shortly(servedBy(CHAIN).sort(byTitle('fr-CA'))))
      expect(shortly(data)).toEqual(['en:Banana', 'fr:cote', 'fr:côte', 'en:coté', 'fr-CA:côté', 'fr-CA:érable'])
      const descending = await list('locale=fr-CA&sort=title:desc')
      expect(shortly(descending.data)).toEqual(shortly(data).reverse())
    })

    it('paginates the served versions', async () => {
      const pages = []
      for (const page of [1, 2, 3, 4]) pages.push(await list(`locale=fr-CA&sort=title&pagination[pageSize]=2&pagination[page]=${page}`))
      expect(pages.flatMap((answer) => shortly(answer.data))).toEqual(shortly(servedBy(CHAIN).sort(byTitle('fr-CA'))))
      expect(pages[3].data).toEqual([])
      expect(pages[1].meta.pagination).toEqual({ page: 2, pageSize: 2, pageCount: 3, total: 6 })
      const offset = await list('locale=fr-CA&sort=title&pagination[start]=4&pagination[limit]=10')
      expect(shortly(offset.data)).toEqual(['fr-CA:côté', 'fr-CA:érable'])
    })

    it('applies filters to the versions served, and total counts the matches', async () => {
      const fromEn = await list('locale=fr-CA&filters[locale][$eq]=en&sort=title')
      expect(shortly(fromEn.data)).toEqual(['en:Banana', 'en:coté'])
      expect(fromEn.meta.pagination.total).toBe(2)
      // zèbre is the title of a version the chain does not serve (the document is served in fr).
      const hidden = await list('locale=fr-CA&filters[title][$eq]=zèbre')
      expect(hidden.data).toEqual([])
      expect(hidden.meta.pagination.total).toBe(0)
      const served = await list('locale=fr-CA&filters[title][$startsWith]=c&sort=title')
      expect(shortly(served.data)).toEqual(['fr:cote', 'fr:côte', 'en:coté', 'fr-CA:côté'])
    })

    it('lists the locale\'s own versions with fallback=false', async () => {
      const { data, meta } = await list('locale=fr-CA&fallback=false')
      expect(shortly(data)).toEqual(['fr-CA:côté', 'fr-CA:érable'])
      expect(meta.pagination.total).toBe(2)
    })

    it('lists a middle locale of the chain along its own chain (fr → en)', async () => {
      const { data } = await list('locale=fr')
      expect(data).toEqual(servedBy(['fr', 'en']).sort((a, b) => a.id - b.id))
    })

    it('answers the same with fallback=true as without the parameter', async () => {
      expect(await list('locale=fr-CA&sort=title&fallback=true')).toEqual(await list('locale=fr-CA&sort=title'))
    })

    it('changes nothing for a locale without a configured fallback', async () => {
      expect(shortly((await list('locale=de')).data)).toEqual(['de:Apfel'])
    })

    it(ready ? 'answers exactly what it answered before the rebuild' : 'records its answers for the state after the rebuild', async () => {
      for (const query of LIST_QUERIES) {
        const answer = await list(query)
        if (ready) expect({ query, answer }).toEqual({ query, answer: firstAnswers.get(query) })
        else firstAnswers.set(query, answer)
      }
    })
  })

  describe('parameter checks', () => {
    it.each([
      ['list', 'GET', '/api/articles?locale=*&fallback=true'],
      ['list', 'GET', '/api/articles?locale=*&fallback=false'],
      ['get one', 'GET', '/api/articles/:id?locale=*&fallback=true'],
      ['list', 'GET', '/api/articles?locale=fr-CA&fallback=yes'],
      ['get one', 'GET', '/api/articles/:id?fallback=1'],
      ['single type', 'GET', '/api/homepage?fallback=maybe'],
    ])('answers 400 for fallback on a %s read: %s %s', async (_route, method, path) => {
      await expectBadRequest(await ctx.request(method, path.replace(':id', onlyEn.documentId)), 'fallback')
    })

    it.each([
      ['POST', '/api/articles?locale=fr-CA&fallback=true', { title: 'x' }],
      ['PUT', '/api/articles/:id?locale=fr-CA&fallback=false', { title: 'x' }],
      ['DELETE', '/api/articles/:id?locale=en&fallback=true', undefined],
      ['PUT', '/api/homepage?locale=fr-CA&fallback=true', { title: 'x' }],
      ['DELETE', '/api/homepage?locale=en&fallback=false', undefined],
    ])('answers 400 for fallback on a write: %s %s, and writes nothing', async (method, path, data) => {
      const before = await tableSnapshot(ctx)
      const body = data === undefined ? undefined : { data }
      await expectBadRequest(await ctx.request(method, path.replace(':id', onlyEn.documentId), { token: key, body }), 'fallback')
      expect(await tableSnapshot(ctx)).toBe(before)
    })
  })

  describe('writes never fall back', () => {
    it('answers 404 to DELETE in fr-CA when only en exists, and keeps en', async () => {
      const response = await ctx.request('DELETE', `/api/articles/${onlyEn.documentId}?locale=fr-CA`, { token: key })
      expect(response.status).toBe(404)
      const en = await ctx.request('GET', `/api/articles/${onlyEn.documentId}?locale=en`)
      expect((await json(en)).data[0]).toEqual(written.get(onlyEn.documentId)?.get('en'))
    })

    it('creates a fr-CA localization on PUT in fr-CA when only en exists, never updating en', async () => {
      const enBefore = await ctx.request('GET', `/api/articles/${onlyEn.documentId}?locale=en`)
      const response = await ctx.request('PUT', `/api/articles/${onlyEn.documentId}?locale=fr-CA`, { token: key, body: { data: { title: 'côté canadien' } } })
      expect(response.status).toBe(200)
      const created = (await json(response)).data
      expect(created).toMatchObject({ documentId: onlyEn.documentId, locale: 'fr-CA', title: 'côté canadien' })
      expect(created.id).not.toBe(onlyEn.id)
      const enAfter = await ctx.request('GET', `/api/articles/${onlyEn.documentId}?locale=en`)
      expect(enAfter.headers.get('etag')).toBe(enBefore.headers.get('etag'))
      expect((await json(enAfter)).data[0]).toEqual(written.get(onlyEn.documentId)?.get('en'))
      written.get(onlyEn.documentId)?.set('fr-CA', created)
    })

    it('keeps the served list right after writes once it is ready: the new localization is served, a deleted one falls back again', async () => {
      expect(await ctx.services.locales.servedReady('fr-CA')).toBe(true)
      expect(shortly((await list(`locale=fr-CA&filters[documentId][$eq]=${onlyEn.documentId}`)).data)).toEqual(['fr-CA:côté canadien'])
      expect((await ctx.request('DELETE', `/api/articles/${everywhere.documentId}?locale=fr-CA`, { token: key })).status).toBe(204)
      written.get(everywhere.documentId)?.delete('fr-CA')
      const { data, meta } = await list('locale=fr-CA&sort=title')
      expect(data).toEqual(servedBy(CHAIN).sort(byTitle('fr-CA')))
      expect(shortly(data)).toContain('fr:abricot')
      expect(meta.pagination.total).toBe(6)
    })
  })
})

describe('lists along a chain while the served list is not ready', () => {
  it('reads the chain\'s own lists within api.rest.maxScan (400 past it), and its served list once ready', async () => {
    const ctx = await createTestContext({ rest: { maxScan: 3 } })
    const key = await ctx.token()
    await ctx.addLocales('fr')
    expect((await ctx.admin('PUT', '/admin/i18n/locales/fr', { fallback: 'en' })).status).toBe(200)
    for (const title of ['a', 'b', 'c', 'd']) {
      expect((await ctx.request('POST', '/api/articles?locale=en', { token: key, body: { data: { title } } })).status).toBe(200)
    }
    const refused = await ctx.request('GET', '/api/articles?locale=fr&sort=title')
    expect(refused.status).toBe(400)
    expect((await json(refused)).error.message).toContain('api.rest.maxScan')
    const { epoch } = await ctx.services.locales.current()
    expect(await ctx.services.locales.markServedReady(epoch)).toBe(true)
    const served = await ctx.request('GET', '/api/articles?locale=fr&sort=title')
    expect(served.status).toBe(200)
    expect((await json(served)).data.map((doc: Doc) => `${doc.locale}:${doc.title}`)).toEqual(['en:a', 'en:b', 'en:c', 'en:d'])
  })
})
