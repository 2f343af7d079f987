// The list page's filter conditions and columns (lib/admin-ui/list-query.ts), from its query.
import { describe, expect, it } from 'vitest'
import { choosableColumns, columnsOf, conditionsOf, filterParams } from '../../lib/admin-ui/list-query.js'
import { shippedTypes } from '../support/types.js'

const article = shippedTypes.find((type) => type.singularName === 'article')!

describe('list conditions', () => {
  it('reads every complete condition, and drops unknown fields, operators and missing values', () => {
    const conditions = conditionsOf(article, {
      'c0.field': 'title', 'c0.op': '$containsi', 'c0.value': 'news',
      'c1.field': 'secret', 'c1.op': '$eq', 'c1.value': 'x', // not a field of the type
      'c2.field': 'slug', 'c2.op': '$null', 'c2.value': 'ignored',
    })
    expect(conditions).toEqual([{ field: 'title', op: '$containsi', value: 'news' }, { field: 'slug', op: '$null', value: '' }])
    expect(conditionsOf(article, { 'c0.field': 'title', 'c0.op': '$regex', 'c0.value': 'x' })).toEqual([])
    expect(conditionsOf(article, { 'c0.field': 'title', 'c0.op': '$eq', 'c0.value': '' })).toEqual([])
  })

  it('makes them the API filters, all of which must hold', () => {
    expect(filterParams([{ field: 'title', op: '$containsi', value: 'news' }, { field: 'slug', op: '$null', value: '' }]))
      .toEqual([['filters[$and][0][title][$containsi]', 'news'], ['filters[$and][1][slug][$null]', 'true']])
  })
})

describe('list columns', () => {
  it('offers the public scalars and dates besides the label, and keeps a choice', () => {
    const choosable = choosableColumns(article, 'title')
    expect(choosable).toEqual(['slug', 'views', 'category', 'createdAt', 'updatedAt', 'publishedAt'])
    expect(columnsOf(choosable, undefined, undefined)).toEqual(['updatedAt'])
    expect(columnsOf(choosable, ['views', 'nope'], 'slug')).toEqual(['views'])
    expect(columnsOf(choosable, undefined, 'slug,views')).toEqual(['slug', 'views'])
    expect(columnsOf(choosable, [], 'slug')).toEqual([])
  })
})
