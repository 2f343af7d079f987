// How readers resolve the marks of a wide write (lib/storage/wide/overlay.ts): pure functions of
// the items and the change their document's head holds.
import { describe, expect, it } from 'vitest'
import { copyOf, marksOf, markText, overlayVersion, resolveItems, type WideChange } from '../../lib/storage/wide/overlay.js'

const change: WideChange = { id: 'c1', at: '2026-11-26T10:00:00.000Z', statuses: ['published'], values: { views: 7, category: null } }
const version = (locale: string, extra: Record<string, unknown> = {}) => ({
  documentId: 'd', locale, contentType: 'api::article.article', id: 3, rev: 4, title: `t ${locale}`, views: 1, category: 'old', updatedAt: 'then', publishedAt: 'then', listKey: `api::article.article#${locale}`, ...extra,
})
/** `items` as read while the head holds `head` (null: no change). */
const resolve = (items: Record<string, unknown>[], head: WideChange | null = change) => {
  const byLocale = new Map(items.map((item) => [String(item.locale), item]))
  return resolveItems(items, () => head ?? undefined, (key) => byLocale.get(key.locale))
}

describe('wide write marks', () => {
  it('round-trips a mark: a version\'s, a copy\'s, one that goes', () => {
    for (const mark of [{ id: 'a' }, { id: 'a', next: 'fr' }, { id: 'a', next: '' }]) {
      expect(marksOf({ pend: new Set([markText(mark)]) })).toEqual([mark])
    }
  })

  it('overlays the change\'s values on a version of its statuses: revision + 1, timestamps, a null clears', () => {
    expect(overlayVersion(version('en', { pend: new Set(['c1']) }), change)).toEqual({ ...version('en'), views: 7, category: undefined, rev: 5, updatedAt: change.at, publishedAt: change.at })
    expect('category' in overlayVersion(version('en'), change)).toBe(false)
    // A draft is not of the change's statuses: as stored.
    expect(overlayVersion(version('draft:en', { pend: new Set(['c1']) }), change)).toEqual(version('draft:en'))
  })

  it('reads a marked item as stored until the head names its change, and as the change makes it after', () => {
    const marked = version('en', { pend: new Set(['c1', 'lost']) })
    expect(resolve([marked], null)).toEqual([version('en')])
    expect(resolve([marked], { ...change, id: 'other' })).toEqual([version('en')])
    expect(resolve([marked])[0]).toMatchObject({ views: 7, rev: 5 })
    expect(resolve([version('en', { pend: new Set(['lost']) })])).toEqual([version('en')])
  })

  it('reads a marked copy as the version it will hold, resolved; a placeholder is absent until then; one that goes is absent after', () => {
    const fr = version('fr', { pend: new Set(['c1']) })
    const copy = { ...version('~fr-CA', { src: 'en', listKey: 'api::article.article#~fr-CA', pend: new Set(['c1:fr']) }) }
    const [resolved] = resolve([fr, copy]).filter((item) => item.locale === '~fr-CA')
    expect(resolved).toEqual(copyOf(copy, { ...overlayVersion(fr, change) }))
    expect(resolved).toMatchObject({ src: 'fr', title: 't fr', views: 7, listKey: 'api::article.article#~fr-CA' })
    const placeholder = { documentId: 'd', locale: '~de-AT', contentType: 'api::article.article', ph: true, pend: new Set(['c1:fr']) }
    expect(resolve([placeholder], null)).toEqual([])
    expect(resolve([fr, placeholder]).map((item) => item.locale)).toEqual(['fr', '~de-AT'])
    expect(resolve([{ ...placeholder, pend: undefined }])).toEqual([])
    expect(resolve([version('~it', { pend: new Set(['c1:']) })])).toEqual([])
    expect(resolve([version('it', { pend: new Set(['c1:']) })])).toEqual([])
    expect(resolve([version('it', { pend: new Set(['c1:']) })], null)).toEqual([version('it')])
  })
})
