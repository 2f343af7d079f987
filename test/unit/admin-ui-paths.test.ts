import { describe, expect, it } from 'vitest'
import { queryOf, relativeTo } from '../../lib/admin-ui/paths.js'

/** Where a browser at `page` under a stage prefix lands when it follows `link`. */
const follow = (page: string, link: string) => new URL(link, `https://api.example.com/dev${page}`).pathname + new URL(link, `https://api.example.com/dev${page}`).search

describe('relativeTo', () => {
  it.each([
    ['/admin', '/admin/locales'],
    ['/admin/locales', '/admin'],
    ['/admin/locales', '/admin/tokens'],
    ['/admin/content/articles', '/admin/content/articles/abc?locale=fr'],
    ['/admin/content/articles/abc', '/admin/content/articles'],
    ['/admin/content/articles/abc', '/admin/locales'],
    ['/admin/content/articles/abc', '/admin/content/articles/abc?locale=en&source=fr'],
    ['/admin/sign-in', '/admin/assets/admin.css'],
  ])('from %s reaches %s under any stage prefix', (from, to) => {
    expect(follow(from, relativeTo(from, to))).toBe(`/dev${to}`)
  })
})

describe('queryOf', () => {
  it('leaves out undefined and empty values, and encodes the rest', () => {
    expect(queryOf({ a: 'x y', b: undefined, c: '', d: 2 })).toBe('?a=x+y&d=2')
    expect(queryOf({})).toBe('')
  })
})
