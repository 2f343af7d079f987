// checkAccess and treeKey (lib/relations/populate.ts, populate-query.ts): a populate tree as the
// caller may read it, checked on every request, and its key, made once per tree. A tree the caller
// may read whole is kept as parsed, so a repeated request derives nothing again; one that `*`
// narrows for this caller is a tree of its own, with a key of its own.
import { describe, expect, it } from 'vitest'
import type { ContentType } from '../../lib/content-types.js'
import { checkAccess, type PopulateContext } from '../../lib/relations/populate.js'
import { parsePopulate, treeKey, type PopulateTree } from '../../lib/relations/populate-query.js'
import { loadContentTypes } from '../../lib/schema/load.js'

const types = loadContentTypes()
const typeOf = (uid: string) => types.find((type) => type.uid === uid) as ContentType
const named = (name: string) => types.find((type) => type.singularName === name) as ContentType
const article = named('article')
/** What checkAccess reads of its context: the types and whether the caller may read a type. */
const context = (may: (type: ContentType) => boolean) => ({ services: { types }, may }) as unknown as PopulateContext
const tree = (raw: unknown) => parsePopulate(raw, article, typeOf) as PopulateTree

describe('checkAccess', () => {
  it('keeps the parsed tree itself when the caller may read every target, nested levels included', () => {
    const parsed = tree({ author: { populate: { articles: { fields: ['title'] } } }, tags: 'true' })
    expect(checkAccess(context(() => true), article, parsed)).toBe(parsed)
  })

  it('leaves out what `*` asked and the caller may not read, in a tree of its own with a key of its own', () => {
    const parsed = tree('*')
    const checked = checkAccess(context((type) => type.singularName !== 'author'), article, parsed)
    expect(checked).not.toBe(parsed)
    expect([...checked.keys()]).toEqual([...parsed.keys()].filter((name) => name !== 'author'))
    expect(treeKey(checked)).not.toBe(treeKey(parsed))
    expect([...parsed.keys()]).toContain('author')
  })

  it('is a 403 on every call for a relation named that the caller may not read, however often the tree was checked before', () => {
    const parsed = tree({ tags: { populate: { articles: { populate: { author: 'true' } } } } })
    expect(checkAccess(context(() => true), article, parsed)).toBe(parsed)
    for (let i = 0; i < 2; i++) expect(() => checkAccess(context((type) => type.singularName !== 'author'), article, parsed)).toThrow(expect.objectContaining({ status: 403 }))
  })
})

describe('treeKey', () => {
  it('is the tree as text, the same for equal trees parsed apart', () => {
    expect(treeKey(tree('author,tags'))).toBe(treeKey(tree(['author', 'tags'])))
    expect(treeKey(tree('author'))).toContain('"author"')
  })
})
