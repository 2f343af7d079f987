// The filter kinds of the benchmark: an equality on a unique field, an equality with a sort, a
// numeric range, and two conditions no index answers, `$containsi` and `_q` search (one pass
// within api.rest.maxScan, a 400 past it).
// Their floor reads the planned key ranges of one slot (or the whole list) and filters exactly.
import { article } from './types.js'
import { collatorFor } from '../lib/query/sort.js'
import { indexKey, keyKindOf } from '../lib/storage/index-keys.js'
import { slotOf, type KeyRange } from './floor.js'
import { orders, PAGE, samePage, send, type BenchContext, type Scenario } from './requests.js'
import { CATEGORIES } from './seed.js'

/** The key range of one value on a field's slot, as the store encodes keys for `locale`'s list. */
function point(field: string, value: string | number, locale = 'en'): KeyRange {
  const key = indexKey(keyKindOf(article, field), value, collatorFor(locale))
  return { lo: key, hi: key }
}

function between(field: string, low: number, high: number): KeyRange {
  const kind = keyKindOf(article, field)
  return { lo: indexKey(kind, low, collatorFor('en')), hi: indexKey(kind, high, collatorFor('en')) }
}

/** The filter kinds, each answer checked against the floor's. */
export function filterScenarios(ctx: BenchContext): Scenario[] {
  const { app, floor, n, documentIds, maxScan } = ctx
  const { byId, byTitle } = orders('en')
  let slug = ''
  const category = CATEGORIES[0]!
  const overBudget = n > maxScan
  const filtered = (kind: string, label: string, query: () => string, answer: () => Promise<string>): Scenario => ({
    kind, label, write: false,
    app: () => send(app, 'GET', `/api/articles?${query()}`, 200),
    floor: answer,
    check: samePage('floor', true),
  })
  /** A kind no index answers: one pass over the list within maxScan, a 400 before reading past it. */
  const unindexed = (kind: string, label: string, query: () => string, matches: (values: Record<string, unknown>) => boolean): Scenario => overBudget
    ? {
      kind, label: `${label} (N > maxScan ${maxScan}: 400)`, write: false,
      app: () => send(app, 'GET', `/api/articles?${query()}`, 400),
      floor: () => floor.listValidator('en'),
      check: (text: string) => { if (!text.includes('maxScan')) throw new Error(`400 does not name the budget: ${text.slice(0, 200)}`) },
    }
    : filtered(kind, `${label} (one pass, N <= maxScan ${maxScan})`, query, () => floor.filteredPage('en', slotOf('id'), 'all', matches, byId, PAGE))
  const has = (value: unknown, text: string) => typeof value === 'string' && value.toLowerCase().includes(text)
  return [
    {
      ...filtered('filter-slug', 'filters[slug][$eq]=<one slug>', () => `filters[slug][$eq]=${encodeURIComponent(slug)}`,
        () => floor.filteredPage('en', slotOf('slug'), [point('slug', slug)], (v) => v.slug === slug, byId, PAGE)),
      prepare: async () => {
        const { data } = JSON.parse(await send(app, 'GET', `/api/articles/${documentIds[Math.floor(documentIds.length / 3)]}?locale=en`, 200)) as { data: { slug: string } | { slug: string }[] }
        slug = (Array.isArray(data) ? data[0] : data)!.slug
      },
    },
    filtered('filter-category-title', `filters[category][$eq]=${category}&sort=title`, () => `filters[category][$eq]=${category}&sort=title`,
      () => floor.filteredPage('en', slotOf('category'), [point('category', category)], (v) => v.category === category, byTitle, PAGE)),
    filtered('filter-views-between', 'filters[views][$between]=10,12', () => 'filters[views][$between][0]=10&filters[views][$between][1]=12',
      () => floor.filteredPage('en', slotOf('views'), [between('views', 10, 12)], (v) => Number(v.views) >= 10 && Number(v.views) <= 12, byId, PAGE)),
    unindexed('filter-containsi', 'filters[title][$containsi]=x', () => 'filters[title][$containsi]=x', (v) => has(v.title, 'x')),
    // Searchable text attributes of article: title, slug, category (body is blocks).
    unindexed('search-q', '_q=x', () => '_q=x', (v) => has(v.title, 'x') || has(v.slug, 'x') || has(v.category, 'x')),
  ]
}

