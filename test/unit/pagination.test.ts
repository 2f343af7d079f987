import { describe, expect, it } from 'vitest'
import { errorOf } from '../support/errors.js'
import { paginationMeta, paginationWindow, parsePagination } from '../../lib/query/pagination.js'

const rest = { defaultLimit: 25, maxLimit: 100, findOneShape: 'array' as const }

describe('parsePagination', () => {
  it('defaults to page 1 of 25 with a count', () => {
    expect(parsePagination(undefined, rest)).toEqual({ mode: 'page', page: 1, pageSize: 25, withCount: true })
  })

  it('reads page style', () => {
    expect(parsePagination({ page: '3', pageSize: '10' }, rest)).toEqual({ mode: 'page', page: 3, pageSize: 10, withCount: true })
  })

  it('reads offset style with default limit', () => {
    expect(parsePagination({ start: '50' }, rest)).toEqual({ mode: 'offset', start: 50, limit: 25, withCount: true })
  })

  it('treats limit -1 as maxLimit', () => {
    expect(parsePagination({ limit: '-1' }, rest)).toMatchObject({ mode: 'offset', start: 0, limit: 100 })
  })

  it('clamps pageSize and limit to maxLimit', () => {
    expect(parsePagination({ pageSize: '500' }, rest)).toMatchObject({ pageSize: 100 })
    expect(parsePagination({ limit: '500' }, rest)).toMatchObject({ limit: 100 })
  })

  it.each(['true', 'false', '1', '0', 't', 'f'])('accepts withCount=%s', (value) => {
    expect(parsePagination({ withCount: value }, rest).withCount).toBe(['true', '1', 't'].includes(value))
  })

  it('returns 400 when pageSize is 0', () => {
    const error = errorOf(() => parsePagination({ pageSize: '0' }, rest))
    expect(error.status).toBe(400)
    expect(error.errorName).toBe('ValidationError')
    expect(error.details).toEqual({ key: 'pageSize', path: 'pagination.pageSize', source: 'query', param: 'pagination' })
  })

  it.each([
    ['page', 'abc'], ['page', '1.5'], ['page', '2e0'], ['page', '0'], ['page', '-1'], ['pageSize', '99999999999999999999'],
    ['start', '-1'], ['limit', '0'], ['limit', '-2'], ['withCount', 'yes'], ['page', ''],
  ])('returns 400 for %s=%j', (key, value) => {
    const error = errorOf(() => parsePagination({ [key]: value }, rest))
    expect(error.status).toBe(400)
    expect(error.details).toMatchObject({ key, param: 'pagination' })
  })

  it('returns 400 for a value given twice', () => {
    expect(errorOf(() => parsePagination({ page: ['1', '2'] }, rest)).status).toBe(400)
  })

  it('returns a PaginationError when page and offset styles are mixed', () => {
    const error = errorOf(() => parsePagination({ page: '1', limit: '10' }, rest))
    expect(error.status).toBe(400)
    expect(error.errorName).toBe('PaginationError')
    expect(error.message).toBe('Cannot use both page & offset pagination in the same query')
  })

  it.each([[{ size: '3' }], ['5'], [['1']]])('rejects %j with a hint', (raw) => {
    const error = errorOf(() => parsePagination(raw, rest))
    expect(error.status).toBe(400)
    expect(error.message).toMatch(/pagination\[/)
  })
})

describe('paginationWindow and paginationMeta', () => {
  it('maps page 3 of 10 to offset 20', () => {
    expect(paginationWindow({ mode: 'page', page: 3, pageSize: 10, withCount: true })).toEqual({ offset: 20, limit: 10 })
  })

  it('computes pageCount as ceil(total / pageSize)', () => {
    expect(paginationMeta({ mode: 'page', page: 1, pageSize: 10, withCount: true }, 21)).toEqual({ page: 1, pageSize: 10, pageCount: 3, total: 21 })
  })

  it('has pageCount 0 when there is nothing', () => {
    expect(paginationMeta({ mode: 'page', page: 1, pageSize: 25, withCount: true }, 0)).toEqual({ page: 1, pageSize: 25, pageCount: 0, total: 0 })
  })

  it('omits total and pageCount without count', () => {
    expect(paginationMeta({ mode: 'page', page: 2, pageSize: 5, withCount: false }, undefined)).toEqual({ page: 2, pageSize: 5 })
    expect(paginationMeta({ mode: 'offset', start: 5, limit: 5, withCount: false }, undefined)).toEqual({ start: 5, limit: 5 })
  })

  it('answers offset style with start, limit and total', () => {
    expect(paginationMeta({ mode: 'offset', start: 5, limit: 5, withCount: true }, 7)).toEqual({ start: 5, limit: 5, total: 7 })
  })
})
