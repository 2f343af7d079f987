// Relations in the benchmark (content-model.md §16, issue 19): the authors and tags the seeded
// articles link, and the kinds that read and write through them.
//
// Article j (in seeding order) links author 0 when j < 10, else author 1 + floor((j - 10) / 1000)
// (so at N = 100,000 authors 1 to 99 are each linked from 1,000 articles), and j % 11 tags out of
// 50. The index of links gets items only for author 0's ten articles: the one filter measured
// reads through it (a shortcut of the seed; writes through the API always write them).
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb'
import { slotKeys } from '../lib/storage/items.js'
import { indexedFields, slotKey, WIDE_CHANGES } from '../lib/table.js'
import { PAGE, repeatedPageScenario, samePage, send, type BenchContext, type Scenario, type SeededRelations } from './requests.js'
import { seedNamed } from './seed.js'
import { SETTLE_MS } from '../lib/storage/lists/validator.js'
import { article, types } from './types.js'

const typeNamed = (name: string) => types.find((type) => type.singularName === name)!
const AUTHORS = 101
const TAGS = 50
/** Authors linked from nothing, deleted as the baseline of deleting a linked one. */
const UNLINKED = 50

export async function seedRelations(db: DynamoDBDocumentClient, tableName: string): Promise<SeededRelations> {
  const author = typeNamed('author')
  const authors = await seedNamed(db, tableName, author, Array.from({ length: AUTHORS + UNLINKED }, (_, i) => `Author ${String(i).padStart(3, '0')}`), 'en')
  const tags = await seedNamed(db, tableName, typeNamed('tag'), Array.from({ length: TAGS }, (_, i) => `Tag ${i}`), 'en')
  const authorSlot = indexedFields(author).indexOf('name')
  return {
    authorName: authors[0]!.attributes.name as string,
    authorSlot,
    authorNameKey: slotKeys(author, authors[0]!, 'en')[slotKey(authorSlot)]!,
    linkedAuthors: authors.slice(1, AUTHORS).map((version) => version.documentId),
    unlinkedAuthors: authors.slice(AUTHORS).map((version) => version.documentId),
    linksOf: (j) => ({
      author: (j < 10 ? authors[0] : authors[1 + (Math.floor((j - 10) / 1000) % (AUTHORS - 1))])!.documentId,
      tags: Array.from({ length: j % 11 }, (_, k) => tags[(j * 7 + k * 13) % TAGS]!.documentId),
      indexed: j < 10,
    }),
  }
}

/** The read kinds through relations: page 1 with populate=*, and a filter on the author's name. */
export function relationScenarios(ctx: BenchContext): Scenario[] {
  const relations = ctx.relations
  if (relations === undefined) return []
  return [
    {
      kind: 'populate-star', label: 'list page 1, populate=* (author, up to 10 tags, localizations)', write: false,
      app: () => send(ctx.app, 'GET', '/api/articles?populate=*', 200),
      floor: () => ctx.floor.populatedPage('en', PAGE, ['en', 'fr', 'de']),
      check: samePage(ctx.n),
    },
    populatedPageCache(ctx),
    populatedTargetsKept(ctx),
    {
      kind: 'filter-author-name', label: 'filters[author][name][$eq] (10 matches at every N)', write: false,
      app: () => send(ctx.app, 'GET', `/api/articles?filters[author][name][$eq]=${encodeURIComponent(relations.authorName)}`, 200),
      floor: () => ctx.floor.byAuthorName(relations.authorSlot, relations.authorNameKey, 'en'),
      check: samePage('floor'),
    },
  ]
}

/**
 * The lists a page of articles with populate=* depends on: the article's in each locale (for
 * localizations), the author's and tag's in en, and each of the three types' wide commits
 * (WIDE_CHANGES, lib/table.ts): 8 count items.
 */
function populatedLists(locales: readonly string[]): { uid: string; list: string }[] {
  const uids = [article.uid, typeNamed('author').uid, typeNamed('tag').uid]
  return [...locales.map((list) => ({ uid: article.uid, list })), ...uids.slice(1).map((uid) => ({ uid, list: 'en' })), ...uids.map((uid) => ({ uid, list: WIDE_CHANGES }))]
}

/**
 * Page 1 with populate=* repeated, the page cache on: validated by the count items of every list
 * it reads (article in each locale, for localizations; author and tag in en), then the cached page.
 */
function populatedPageCache(ctx: BenchContext): Scenario {
  const locales = ['en', 'fr', 'de']
  return repeatedPageScenario(ctx, 'populate-star-cached', 'list page 1, populate=*, repeated, page cache on', '/api/articles?populate=*',
    () => ctx.floor.populatedPage('en', PAGE, locales), (cached) => ctx.floor.cachedAcross(populatedLists(locales), cached))
}

/**
 * Page 1 with populate=* repeated, the page cache off and populated documents kept in the process
 * (lib/storage/lists/kept.ts): the page and the count items of every list it reads, in
 * parallel; the targets (authors, tags, the other locales' versions) from memory, while their
 * lists keep their revisions. Prepared by two untimed reads SETTLE_MS apart: a read within
 * SETTLE_MS of a list's change keeps nothing. The floor reads the page and the count items, and
 * answers with the targets it read once beforehand (its JSON carries them, as the app's does).
 */
function populatedTargetsKept(ctx: BenchContext): Scenario {
  const locales = ['en', 'fr', 'de']
  const lists = populatedLists(locales)
  const path = '/api/articles?populate=*'
  let kept: Awaited<ReturnType<BenchContext['floor']['firstPageTargets']>> = []
  return {
    kind: 'populate-star-kept', label: 'list page 1, populate=*, repeated, page cache off, populated documents kept', write: false,
    prepare: async () => {
      await send(ctx.keptApp, 'GET', path, 200)
      await new Promise((resolve) => setTimeout(resolve, SETTLE_MS + 100))
      await send(ctx.keptApp, 'GET', path, 200)
      kept = await ctx.floor.firstPageTargets('en', PAGE, locales)
    },
    app: () => send(ctx.keptApp, 'GET', path, 200),
    floor: () => ctx.floor.pageWithCounts('en', PAGE, lists, kept),
    check: samePage(ctx.n),
  }
}

/**
 * DELETE of an author linked from 1,000 articles (repetition i deletes linked author i), against
 * DELETE of an author nothing links (the "floor" here is that request through the same app): the
 * links are not written by the delete, so both cost the same.
 */
export function deleteAuthorScenario(ctx: BenchContext): Scenario[] {
  const relations = ctx.relations
  if (relations === undefined) return []
  return [{
    kind: 'delete-linked-author', label: 'DELETE an author linked from 1,000 articles (baseline: one linked from none)', write: true,
    app: (i) => send(ctx.app, 'DELETE', `/api/authors/${relations.linkedAuthors[i]}`, 204, { token: ctx.token }),
    floor: (i) => send(ctx.app, 'DELETE', `/api/authors/${relations.unlinkedAuthors[i]}`, 204, { token: ctx.token }),
  }]
}
