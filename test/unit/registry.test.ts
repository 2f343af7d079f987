import { describe, expect, it } from 'vitest'
import { contentTypes, sortableFields } from '../../lib/content-types.js'
import { defaultLocaleName, isLocaleCode } from '../../lib/locales.js'
import { RESERVED_NAMES, SORT_KEYS_PROJECTION, TABLE } from '../../lib/table.js'
import { singleTypeDocumentId } from '../../lib/storage/documents.js'

describe('content-type registry', () => {
  it.each(Object.values(contentTypes))('$uid uses no reserved attribute name', (type) => {
    expect(Object.keys(type.attributes).filter((name) => RESERVED_NAMES.has(name))).toEqual([])
  })

  it('projects every sortable field of every type into the sortKeys index', () => {
    const projected = new Set([...SORT_KEYS_PROJECTION, TABLE.partitionKey.name, TABLE.sortKey.name, 'id'])
    for (const type of Object.values(contentTypes)) {
      expect(sortableFields(type).filter((field) => !projected.has(field))).toEqual([])
    }
  })

  it('gives single types a fixed documentId of 24 [a-z0-9]', () => {
    expect(singleTypeDocumentId(contentTypes.homepage)).toMatch(/^[a-z0-9]{24}$/)
    expect(singleTypeDocumentId(contentTypes.homepage)).toBe(singleTypeDocumentId(contentTypes.homepage))
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
