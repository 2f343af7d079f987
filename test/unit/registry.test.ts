import { describe, expect, it, vi } from 'vitest'
import { sortableFields } from '../../lib/content-types.js'
import { article, homepage, shippedTypes } from '../support/types.js'
import { defaultLocaleName, isLocaleCode } from '../../lib/locales.js'
import { indexedFields, RESERVED_NAMES, SLOT_COUNT, TABLE } from '../../lib/table.js'
import type { ContentType } from '../../lib/content-types.js'
import { singleTypeDocumentId } from '../../lib/storage/documents.js'

describe('content-type registry', () => {
  it.each(shippedTypes)('$uid uses no reserved attribute name', (type) => {
    expect(Object.keys(type.attributes).filter((name) => RESERVED_NAMES.has(name))).toEqual([])
  })

  it('gives every sortable field but locale of every shipped type an index slot', () => {
    for (const type of shippedTypes) {
      expect(indexedFields(type)).toEqual(sortableFields(type).filter((field) => field !== 'locale'))
      expect(indexedFields(type).length).toBeLessThanOrEqual(SLOT_COUNT)
    }
  })

  it('changes no index definition when a sortable attribute or a content type is added', async () => {
    const before = JSON.stringify(TABLE)
    const withMore: ContentType = {
      ...article,
      attributes: { ...article.attributes, rating: { type: 'float', localized: false }, subtitle: { type: 'string', localized: true } },
    }
    // The declaration names no attribute of any type, so it cannot depend on them...
    for (const name of Object.keys(withMore.attributes)) expect(before).not.toContain(`"${name}"`)
    // ...and the existing fields keep their slots: the new ones take the next free slots.
    expect(indexedFields(withMore).slice(0, indexedFields(article).length)).toEqual(indexedFields(article))
    expect(indexedFields(withMore)).toContain('rating')
    // The table module reads no schema file: loaded afresh, it declares the same table.
    vi.resetModules()
    const reloaded = await import('../../lib/table.js')
    expect(JSON.stringify(reloaded.TABLE)).toBe(before)
  })

  it('gives single types a fixed documentId of 24 [a-z0-9]', () => {
    expect(singleTypeDocumentId(homepage)).toMatch(/^[a-z0-9]{24}$/)
    expect(singleTypeDocumentId(homepage)).toBe(singleTypeDocumentId(homepage))
  })
})

describe('locale codes', () => {
  it.each(['en', 'fr', 'en-US', 'zh-Hans-CN', 'es-419'])('accepts %s', (code) => {
    expect(isLocaleCode(code)).toBe(true)
  })

  it.each(['', 'e', 'english!', 'en_US', '*', 'a'.repeat(36), 'en--US', '12'])('rejects %j', (code) => {
    expect(isLocaleCode(code)).toBe(false)
  })

  it('names a locale from its code', () => {
    expect(defaultLocaleName('fr')).toBe('French (fr)')
  })
})
