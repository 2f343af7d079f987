// The HTTP side of the content routes' answers (delivery.md §13): ETags, 304s, Content-Language
// and the page cache around what the operations return; the JSON itself is the answer builder's
// (lib/answers/document.ts).
import type { Context } from 'hono'
import { documentAnswer, documentsAnswer, type Populated } from '../answers/document.js'
import { joinedAnswer, type RenderedDocuments } from './rendered.js'
import type { ContentType } from '../content-types.js'
import { etagOf, json, jsonText, populatedTagOf, UTF8 } from '../http.js'
import type { Written } from '../operations/create.js'
import type { FoundOne } from '../operations/find-one.js'
import type { FindPlan } from '../operations/find.js'
import { paginationMeta } from '../query/pagination.js'
import type { ListQuery } from '../query/parse.js'
import type { Version } from '../storage/items.js'
import { settled, type ListHead } from '../storage/lists/validator.js'
import { listTag, noneMatch, notModified } from './conditional.js'
import type { PageCache } from './page-cache.js'

/** How a get one's `data` is shaped: the document, or an array of it (api.rest.findOneShape). */
export type OneShape = 'object' | 'array'

/**
 * A get one's answer: one version (its ETag, Content-Language, a 304 when it matches), or with
 * `locale=*` each version; a populated answer (or one filtered through relations) is tagged by
 * its body, which the targets' changes move too.
 */
export function foundAnswer(c: Context, type: ContentType, found: FoundOne, fields: readonly string[] | undefined, shape: OneShape, pageSize: number): Response {
  if (found.kind === 'all') {
    const { versions, populated } = found
    const meta = { pagination: { page: 1, pageSize: Math.max(pageSize, versions.length), pageCount: 1, total: versions.length } }
    const body = () => ({ data: documentsAnswer(type, versions, fields, populated), meta })
    if (populated !== undefined) return bodyTaggedAnswer(c, JSON.stringify(body()))
    return conditionalJson(c, listTag({ versions: versions.map((version) => etagOf(version)), fields }, 0), body)
  }
  const { version, populated } = found
  const document = () => documentAnswer(type, version, fields, populated)
  const body = () => (shape === 'object' ? { data: document(), meta: {} } : { data: [document()], meta: { pagination: { page: 1, pageSize, pageCount: 1, total: 1 } } })
  if (populated !== undefined) return bodyTaggedAnswer(c, JSON.stringify(body()), version)
  return conditionalJson(c, etagOf(version), body, version.locale)
}

/** A 304 when If-None-Match holds `tag`, else `body()` with it (and the locale it is in, when one). */
function conditionalJson(c: Context, tag: string, body: () => unknown, locale?: string): Response {
  if (noneMatch(c.req.header('if-none-match'), tag)) return notModified(c, tag)
  if (locale !== undefined) c.header('Content-Language', locale)
  c.header('ETag', tag)
  return json(c, body())
}

/** An answer tagged by its body (and its version when one), a 304 when it matches. */
function bodyTaggedAnswer(c: Context, text: string, version?: Version): Response {
  const tag = version === undefined ? listTag({ body: text }, 0) : populatedTagOf(version, text)
  if (noneMatch(c.req.header('if-none-match'), tag)) return notModified(c, tag)
  if (version !== undefined) c.header('Content-Language', version.locale)
  c.header('ETag', tag)
  return jsonText(c, text)
}

/** A write's answer: the version written (its ETag), populated as the write asked. */
export function writtenAnswer(c: Context, type: ContentType, written: Written, fields: readonly string[] | undefined): Response {
  c.header('ETag', etagOf(written.version))
  return json(c, { data: documentAnswer(type, written.version, fields, written.populated), meta: {} })
}

/** A publication action's answer: the version it left (with its ETag), or an array of them for `*`. */
export function actedAnswer(c: Context, type: ContentType, acted: { wildcard: boolean; versions: readonly Version[] }, fields: readonly string[] | undefined): Response {
  if (!acted.wildcard) return writtenAnswer(c, type, { version: acted.versions[0] as Version, populated: undefined }, fields)
  return json(c, { data: documentsAnswer(type, acted.versions, fields), meta: {} })
}

/** What a list answer's tag depends on besides its plan: the locale registry's revision and the REST config. */
export interface ListTagParts {
  readonly registry: () => Promise<unknown>
  readonly config: string
}

/**
 * A list's answer. The validator alone answers a 304 or a cached page; otherwise the page is read
 * with it (started alongside, unless a 304 or a cached page is likely, or in the BatchGet of the
 * page's documents). A settled page is kept in `pages`, encoded as sent; documents shown from
 * their versions alone are joined from their JSON kept in `rendered`.
 */
export async function listAnswer(c: Context, type: ContentType, query: ListQuery, plan: FindPlan, parts: ListTagParts, { pages, rendered }: { pages: PageCache; rendered: RenderedDocuments }): Promise<Response> {
  const ifNoneMatch = c.req.header('if-none-match')
  const early = ifNoneMatch !== undefined || pages.holds(plan.key) ? undefined : await plan.read()
  const head = await plan.validator.get()
  const tag = listTag({ normalized: plan.normalized, trusted: plan.trusted, revisions: head.revisions, registry: await parts.registry(), config: parts.config }, head.changedAt, plan.startedAt)
  if (noneMatch(ifNoneMatch, tag)) return notModified(c, tag)
  c.header('ETag', tag)
  const cached = pages.get(plan.key, tag)
  if (cached !== undefined) return jsonText(c, cached)
  const page = early ?? (await plan.read())
  const meta = { pagination: paginationMeta(query.pagination, page.total) }
  const encoded = plan.shape !== undefined && rendered.enabled
    ? await renderedAnswer(type, query.fields, plan, plan.shape, page.versions, head.lists, rendered, meta)
    : UTF8.encode(JSON.stringify({ data: documentsAnswer(type, page.versions, query.fields, await plan.populate(page.versions, head.lists)), meta }))
  if (settled(head.changedAt, plan.startedAt)) pages.set(plan.key, tag, encoded)
  return jsonText(c, encoded)
}

/**
 * A list answer of documents shown from their versions alone (`shape`): each document's JSON as
 * kept in `rendered`, populated and made only for the versions it does not hold.
 */
async function renderedAnswer(type: ContentType, fields: readonly string[] | undefined, plan: FindPlan, shape: string, versions: readonly Version[], lists: ListHead['lists'], rendered: RenderedDocuments, meta: unknown): Promise<Uint8Array<ArrayBuffer>> {
  // Taken first, so that keeping the others cannot drop one of this page's.
  const kept = versions.map((version) => rendered.get(version, shape))
  const missing = versions.filter((_, i) => kept[i] === undefined)
  const populated: Populated | undefined = missing.length === 0 ? undefined : await plan.populate(missing, lists)
  return joinedAnswer(versions.map((version, i) => kept[i] ?? rendered.set(version, shape, documentAnswer(type, version, fields, populated))), meta)
}
