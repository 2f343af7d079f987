// The one answer builder (lib/answers/document.ts): a version as Strapi's JSON, private attributes
// never shown, `fields` applied, populated relations after the document's own fields.
import { describe, expect, it } from 'vitest'
import { documentAnswer, documentsAnswer } from '../../lib/answers/document.js'
import { typeByUid } from '../../lib/content-types.js'
import { loadContentTypes } from '../../lib/schema/load.js'
import type { Version } from '../../lib/storage/items.js'

const types = loadContentTypes(new URL('../fixtures/strapi-project/src/api/', import.meta.url).pathname)
const product = typeByUid(types, 'api::shop.product')!

function version(overrides: Partial<Version> = {}): Version {
  return {
    documentId: 'a'.repeat(24), locale: 'fr', status: 'published', id: 7, rev: 3,
    createdAt: '2026-01-01T00:00:00.000Z', updatedAt: '2026-01-02T00:00:00.000Z', publishedAt: '2026-01-02T00:00:00.000Z',
    attributes: { name: 'Lampe', sku: 'ABC-123', secret: 'hunter22', cost: 12.5 },
    ...overrides,
  }
}

describe('documentAnswer', () => {
  it('shows id, documentId, public attributes (null when unset), timestamps and locale, never a private one or a password', () => {
    const answer = documentAnswer(product, version(), undefined)
    expect(answer).toMatchObject({ id: 7, documentId: 'a'.repeat(24), name: 'Lampe', sku: 'ABC-123', summary: null, publishedAt: '2026-01-02T00:00:00.000Z', locale: 'fr' })
    expect(Object.keys(answer)).not.toContain('cost')
    expect(Object.keys(answer)).not.toContain('secret')
  })

  it('keeps id, documentId and the fields asked only', () => {
    expect(documentAnswer(product, version(), ['sku', 'locale'])).toEqual({ id: 7, documentId: 'a'.repeat(24), sku: 'ABC-123', locale: 'fr' })
  })

  it('adds the populated relations of the version after its own fields, and of no other version', () => {
    const shown = version()
    const other = version({ id: 8 })
    const populated = new Map([[shown, { localizations: [{ id: 9 }] }]])
    const [first, second] = documentsAnswer(product, [shown, other], ['name'], populated)
    expect(first).toEqual({ id: 7, documentId: 'a'.repeat(24), name: 'Lampe', localizations: [{ id: 9 }] })
    expect(Object.keys(first!).at(-1)).toBe('localizations')
    expect(second).toEqual({ id: 8, documentId: 'a'.repeat(24), name: 'Lampe' })
  })
})
