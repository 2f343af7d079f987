import { describe, expect, it } from 'vitest'
import { article } from '../support/types.js'
import { errorOf } from '../support/errors.js'
import { idOrder, parseSort, sortComparator } from '../../lib/query/sort.js'

describe('parseSort', () => {
  it.each([
    ['title', [{ field: 'title', order: 'asc' }]],
    ['title:desc', [{ field: 'title', order: 'desc' }]],
    ['title:DESC', [{ field: 'title', order: 'desc' }]],
    ['title:asc,views:desc', [{ field: 'title', order: 'asc' }, { field: 'views', order: 'desc' }]],
    [' title : desc ', [{ field: 'title', order: 'desc' }]],
    ['title,,views', [{ field: 'title', order: 'asc' }, { field: 'views', order: 'asc' }]],
    [['title', 'views:desc'], [{ field: 'title', order: 'asc' }, { field: 'views', order: 'desc' }]],
    [{ title: 'desc' }, [{ field: 'title', order: 'desc' }]],
    [{ title: 'desc', views: 'asc' }, [{ field: 'title', order: 'desc' }, { field: 'views', order: 'asc' }]],
    [[{ title: 'desc' }], [{ field: 'title', order: 'desc' }]],
    ['createdAt:desc', [{ field: 'createdAt', order: 'desc' }]],
  ])('parses %j', (raw, expected) => {
    expect(parseSort(raw, article)).toEqual(expected)
  })

  it('returns no entries when sort is absent', () => {
    expect(parseSort(undefined, article)).toEqual([])
  })

  it.each(['nope', 'body', 'title:asc,nope'])('rejects the unknown or non-scalar field in %j', (raw) => {
    const error = errorOf(() => parseSort(raw, article))
    expect(error.status).toBe(400)
    expect(error.message).toMatch(/^Invalid key /)
    expect(error.details).toMatchObject({ path: null, source: 'query', param: 'sort' })
  })

  it.each(['title:up', 'title:asc:x', 'title:', { title: 'sideways' }, { title: ['desc'] }])('rejects the order in %j', (raw) => {
    const error = errorOf(() => parseSort(raw, article))
    expect(error.status).toBe(400)
  })

  it('names the direction rule in the message', () => {
    expect(errorOf(() => parseSort('title:up', article)).message).toBe('Invalid order. order can only be one of asc|desc|ASC|DESC')
  })

  it('rejects a segment with an empty field', () => {
    expect(errorOf(() => parseSort(':desc', article)).status).toBe(400)
  })
})

describe('sortComparator', () => {
  const rows = [
    { id: 1, title: 'banana', views: 3 },
    { id: 2, title: 'Apple', views: 3 },
    { id: 3, title: null, views: 1 },
    { id: 4, title: 'apple', views: null },
    { id: 5, title: 'Banana', views: 10 },
  ]
  const order = (sort: Parameters<typeof sortComparator>[0], locale = 'en') =>
    [...rows].sort(sortComparator(sort, article, locale)).map((row) => row.id)

  it('orders strings by locale collation, case-insensitively first, nulls first', () => {
    expect(order([{ field: 'title', order: 'asc' }])).toEqual([3, 4, 2, 1, 5])
  })

  it('puts nulls last when descending', () => {
    expect(order([{ field: 'title', order: 'desc' }]).at(-1)).toBe(3)
  })

  it('orders numbers numerically, ties by id ascending', () => {
    expect(order([{ field: 'views', order: 'desc' }])).toEqual([5, 1, 2, 3, 4])
  })

  it('applies later entries to ties of earlier ones', () => {
    expect(order([{ field: 'views', order: 'asc' }, { field: 'title', order: 'desc' }])).toEqual([4, 3, 1, 2, 5])
  })

  it('falls back to id ascending without entries', () => {
    expect([...rows].reverse().sort(sortComparator([], article, '*')).map((row) => row.id)).toEqual([1, 2, 3, 4, 5])
  })
})

describe('idOrder', () => {
  it.each([
    [[], 'asc'],
    [[{ field: 'id', order: 'desc' }], 'desc'],
    [[{ field: 'title', order: 'asc' }], undefined],
  ] as const)('for %j is %s', (entries, expected) => {
    expect(idOrder(entries)).toBe(expected)
  })
})
