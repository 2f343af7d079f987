// The types a read through relations reaches (lib/relations/dependencies.ts): the lists whose
// revisions validate its answer. A type missed here is a cached answer that outlives a change.
import { describe, expect, it } from 'vitest'
import type { ContentType } from '../../lib/content-types.js'
import { parseFilters } from '../../lib/query/filters.js'
import { parseSort } from '../../lib/query/sort.js'
import { typesReadThrough } from '../../lib/relations/dependencies.js'
import { parsePopulate } from '../../lib/relations/populate-query.js'
import { loadContentTypes } from '../../lib/schema/load.js'

const types = loadContentTypes()
const typeOf = (uid: string) => types.find((type) => type.uid === uid) as ContentType
const named = (name: string) => types.find((type) => type.singularName === name) as ContentType
const article = named('article')
/** The reached types by singular name, each with whether it is read in every locale. */
const reached = (read: Parameters<typeof typesReadThrough>[2], from = article) =>
  Object.fromEntries([...typesReadThrough({ types }, from, read)].map(([type, every]) => [type.singularName, every]))

describe('typesReadThrough', () => {
  it('reaches nothing without populate, relation filters or relation sort', () => {
    expect(reached({ filter: parseFilters({ title: { $eq: 'x' } }, article, typeOf), sort: parseSort('title', article, typeOf) })).toEqual({})
  })

  it('populate=*: each relation\'s target in the request\'s locale, the type itself in every locale (localizations)', () => {
    expect(reached({ tree: parsePopulate('*', article, typeOf) })).toEqual({ author: false, tag: false, article: true })
  })

  it('nested populate and a populated level\'s filter through a relation reach every type on the way', () => {
    const tree = parsePopulate({ tags: { filters: { articles: { author: { name: { $eq: 'x' } } } } }, author: { populate: { articles: 'true' } } }, article, typeOf)
    expect(reached({ tree })).toEqual({ tag: false, article: false, author: false })
    expect(reached({ tree: parsePopulate({ author: { populate: { localizations: 'true' } } }, article, typeOf) })).toEqual({ author: true })
  })

  it('a filter through relations reaches the source (its links are confirmed there) and each target, nested in and/or/not', () => {
    expect(reached({ filter: parseFilters({ $or: [{ title: { $eq: 'x' } }, { $not: { author: { name: { $eq: 'y' } } } }] }, article, typeOf) })).toEqual({ article: false, author: false })
    expect(reached({ filter: parseFilters({ articles: { tags: { name: { $eq: 'y' } } } }, named('author'), typeOf) }, named('author'))).toEqual({ author: false, article: false, tag: false })
  })

  it('a sort through a relation reaches its target', () => {
    expect(reached({ sort: parseSort('author.name:desc', article, typeOf) })).toEqual({ author: false })
  })
})
