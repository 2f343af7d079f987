// The rules of draft & publish (content-model.md §15) as pure functions: what a write, a
// publication, an unpublish and a discard leave, and the publication states and count moves the
// planner derives from them.
import { describe, expect, it } from 'vitest'
import { discardDraft, publishVersion, unpublishVersion, versionIn, writeVersion } from '../../lib/document-changes.js'
import { emptyDocument, planChanges, publicationState, withDrafts, type DocumentState } from '../../lib/storage/document-plan.js'
import type { Version } from '../../lib/storage/items.js'
import { article } from '../support/types.js'

const DOC = 'a'.repeat(24)
const T0 = '2026-01-01T00:00:00.000Z'
const T1 = '2026-01-02T00:00:00.000Z'
const T2 = '2026-01-03T00:00:00.000Z'

/** A document published in `en` and `fr` (ids 1..4), as POST then PUT ?locale=fr leave it. */
function published(): readonly Version[] {
  const en = writeVersion(article, DOC, [], 'en', true, { title: 'Hello', views: 1 }, { draft: 1, published: 2 }, T0)
  return writeVersion(article, DOC, en.versions, 'fr', true, { title: 'Bonjour' }, { draft: 3, published: 4 }, T0).versions
}

describe('writes', () => {
  it('publishes a new draft without status=draft: two versions, the answer the published one', () => {
    const { versions, result } = writeVersion(article, DOC, [], 'en', true, { title: 'Hello' }, { draft: 7, published: 8 }, T0)
    expect(versions.map((version) => [version.status, version.id, version.publishedAt])).toEqual([['draft', 7, null], ['published', 8, T0]])
    expect(result).toMatchObject({ status: 'published', id: 8, attributes: { title: 'Hello' } })
  })

  it('with status=draft writes the draft only and leaves the published version as it was', () => {
    const before = published()
    const { versions, result } = writeVersion(article, DOC, before, 'en', false, { title: 'Changed' }, { draft: 0 }, T1)
    expect(result).toMatchObject({ status: 'draft', publishedAt: null, attributes: { title: 'Changed' } })
    expect(versionIn(versions, 'en', 'published')).toBe(versionIn(before, 'en', 'published'))
  })

  it('shares a draft write\'s non-localized values with every draft, never with a published version', () => {
    const { versions } = writeVersion(article, DOC, published(), 'en', false, { views: 5 }, { draft: 0 }, T1)
    expect(versions.filter((version) => version.status === 'draft').map((version) => version.attributes.views)).toEqual([5, 5])
    expect(versions.filter((version) => version.status === 'published').map((version) => version.attributes.views)).toEqual([1, 1])
  })
})

describe('publication', () => {
  it('keeps the published id, copies the draft, and its non-localized values to every published version', () => {
    const drafted = writeVersion(article, DOC, published(), 'fr', false, { title: 'Salut', views: 9 }, { draft: 0 }, T1).versions
    const { versions, result } = publishVersion(article, drafted, 'fr', undefined, T2)
    expect(result).toMatchObject({ id: 4, status: 'published', publishedAt: T2, attributes: { title: 'Salut', views: 9 } })
    expect(versionIn(versions, 'en', 'published')?.attributes).toMatchObject({ title: 'Hello', views: 9 })
  })

  it('writes nothing when the published version already equals its draft', () => {
    const before = published()
    const change = publishVersion(article, before, 'en', undefined, T1)
    expect(change.versions).toBe(before)
    expect(change.result).toBe(versionIn(before, 'en', 'published'))
  })

  it('needs a new id for a first publication, and refuses (409) without one', () => {
    const draftOnly = writeVersion(article, DOC, [], 'en', false, { title: 'x' }, { draft: 1 }, T0).versions
    expect(publishVersion(article, draftOnly, 'en', 5, T1).result.id).toBe(5)
    expect(() => publishVersion(article, draftOnly, 'en', undefined, T1)).toThrow(expect.objectContaining({ status: 409 }))
  })

  it('unpublish removes the published version (404 when there is none); discard resets the draft (404 when never published)', () => {
    const before = published()
    const unpublished = unpublishVersion(before, 'fr')
    expect(versionIn(unpublished.versions, 'fr', 'published')).toBeUndefined()
    expect(unpublished.result).toBe(versionIn(before, 'fr', 'draft'))
    expect(() => unpublishVersion(unpublished.versions, 'fr')).toThrow(expect.objectContaining({ status: 404 }))
    expect(() => discardDraft(article, unpublished.versions, 'fr', T1)).toThrow(expect.objectContaining({ status: 404 }))
    const edited = writeVersion(article, DOC, before, 'fr', false, { title: 'Salut', views: 3 }, { draft: 0 }, T1).versions
    const discarded = discardDraft(article, edited, 'fr', T2)
    expect(discarded.result.attributes).toMatchObject({ title: 'Bonjour', views: 1 })
    // The drafts still agree on the non-localized values.
    expect(versionIn(discarded.versions, 'en', 'draft')?.attributes.views).toBe(1)
  })
})

describe('publication states and counts', () => {
  const stateOf = (versions: readonly Version[], locale: string, status: 'draft' | 'published') => publicationState(versions, versionIn(versions, locale, status) as Version)

  it('names each locale version\'s state from its pair and its document', () => {
    const draftOnly = writeVersion(article, DOC, [], 'en', false, { title: 'x' }, { draft: 1 }, T0).versions
    expect(stateOf(draftOnly, 'en', 'draft')).toBe('n')
    const both = writeVersion(article, DOC, draftOnly, 'fr', true, { title: 'y' }, { draft: 2, published: 3 }, T0).versions
    expect([stateOf(both, 'en', 'draft'), stateOf(both, 'fr', 'draft'), stateOf(both, 'fr', 'published')]).toEqual(['N', 'u', 'u'])
    const modified = writeVersion(article, DOC, both, 'fr', false, { title: 'z' }, { draft: 0 }, T1).versions
    expect([stateOf(modified, 'fr', 'draft'), stateOf(modified, 'fr', 'published')]).toEqual(['m', 'm'])
  })

  it('moves each list and state partition count by the versions that enter or leave it', () => {
    const state: DocumentState = emptyDocument(DOC)
    const first = planChanges(article, 't', state, writeVersion(article, DOC, [], 'en', false, { title: 'x' }, { draft: 1 }, T0).versions, new Map())
    expect(Object.fromEntries(first.lists)).toEqual({ 'draft:en': 1, 'draft:en#n': 1 })
    const stored: DocumentState = { ...state, headRev: 1, versions: writeVersion(article, DOC, [], 'en', false, { title: 'x' }, { draft: 1 }, T0).versions, states: new Map([['draft:en', 'n']]) }
    const next = publishVersion(article, stored.versions, 'en', 2, T1).versions
    const publish = planChanges(article, 't', stored, next, new Map())
    expect(Object.fromEntries(publish.lists)).toEqual({ en: 1, 'en#u': 1, 'draft:en#n': -1, 'draft:en#u': 1 })
    // The draft's state alone moved: an update of its state key, not a whole put.
    expect(publish.items.filter((item) => item.Update !== undefined).map((item) => item.Update?.Key)).toEqual([{ documentId: DOC, locale: 'draft:en' }])
  })

  it('gives a document stored before draft & publish a draft equal to each published version', () => {
    const legacy = published().filter((version) => version.status === 'published')
    const upgraded = withDrafts(article, legacy, [10, 11])
    expect(upgraded.filter((version) => version.status === 'draft').map((version) => [version.locale, version.id, version.attributes.title])).toEqual([['en', 10, 'Hello'], ['fr', 11, 'Bonjour']])
    expect(() => withDrafts(article, legacy, [10])).toThrow(expect.objectContaining({ status: 409 }))
  })
})
