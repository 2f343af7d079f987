// The HTTP surface of one content type, top to bottom: path, parse, authorize, call, respond.
// Checks run in the documented order: credentials (401), route permission (403), query and
// locale (400), document (404), exact action (403), If-Match (412), body (400/413/415), storage.
import type { Context, Hono } from 'hono'
import { TRUSTED_CALLER, type Caller } from './access.js'
import { parseBody, uidsToDerive, type Attributes, type BodyMode } from './body.js'
import { routeName, typeByUid, type ContentType } from './content-types.js'
import { PRIVATE_ANSWER, cachingHeaders, listTag, noneMatch, notModified } from './delivery/conditional.js'
import { PageCache } from './delivery/page-cache.js'
import { ApiError, badRequest, conflict, notFound, preconditionFailed } from './errors.js'
import { allowOnly, createBaseApp, etagOf, expectedRevision, json, jsonText, parseIfMatch, populatedTagOf, readJsonBody } from './http.js'
import { WILDCARD } from './locales.js'
import { selectFields } from './query/fields.js'
import { crossesRelations, matchesFilter, type Filter } from './query/filters.js'
import { paginationMeta, paginationWindow } from './query/pagination.js'
import { parseItemQuery, parseListQuery, parseReadQuery, parseWriteQuery, type ListQuery } from './query/parse.js'
import { LruMap } from './lru-map.js'
import type { Services } from './services.js'
import type { DocumentState } from './storage/document-plan.js'
import { settled, type Validator } from './storage/lists/validator.js'
import { DOCUMENT_ID, newDocumentId, singleTypeDocumentId } from './storage/documents.js'
import { toDocument, versionValues, type Version } from './storage/items.js'
import { addVersion, discardDraft, publishVersion, unpublishVersion, versionIn, writeVersion, type Change } from './document-changes.js'
import { publicationList, versionList, type PublicationState, type Status } from './table.js'
import type { PublicationFilter } from './query/parse.js'
import { ownListsOf, resolveRelations } from './relations/filters.js'
import { releaseTargets, writeInverse } from './relations/inverse.js'
import { checkAccess, populate, type Populated } from './relations/populate.js'
import { parsePopulate, treeKey, type PopulateTree } from './relations/populate-query.js'
import { checkReadThrough, listsReadThrough } from './relations/dependencies.js'
import { sortedThroughRelations } from './relations/sort.js'
import { throughRelation } from './query/sort.js'
import { checkTargets } from './relations/targets.js'
import { parseLinkOps, resolveLinks, type LinkOp } from './relations/write.js'

const UTF8 = new TextEncoder()

/**
 * List queries kept parsed, by query string: a repeated list request (the page cache's case) is
 * not parsed again. Bounded, since the query string is the caller's; longer ones are not kept.
 */
const PARSED_QUERIES = 256
const MAX_PARSED_QUERY_LENGTH = 2048

/** The publication states each `publicationFilter` keeps (content-model.md §15; see PublicationState). */
const PUBLICATION_STATES: Record<PublicationFilter, readonly PublicationState[]> = {
  'never-published': ['n', 'N'],
  'has-published-version': ['m', 'u'],
  'never-published-document': ['n'],
  'has-published-version-document': ['N', 'm', 'u'],
  modified: ['m'],
  unmodified: ['u'],
  // Every published version has a draft here.
  'published-without-draft': [],
  'published-with-draft': ['m', 'u'],
}

/**
 * The Hono app serving `type` under `/api/<plural>` (collection) or `/api/<singular>` (single);
 * `mounted` inside the server app (see createBaseApp).
 */
export function createContentApp(type: ContentType, services: Services, mounted = false): Hono {
  const { access, locales, documents, lists, config } = services
  const app = createBaseApp(config, undefined, mounted)
  const root = `/api/${routeName(type)}`
  // Scoped to this type's paths: the server app mounts every app's middleware on one router.
  app.use(root, cachingHeaders(config.rest))
  app.use(`${root}/*`, cachingHeaders(config.rest))
  const pages = new PageCache(config.rest.pageCache)
  const configTag = JSON.stringify(config.rest)
  const documentIdOf = (c: Context) => c.req.param('documentId') ?? ''
  /**
   * The caller, 403 unless it holds one of `actions` (a refusal by a cached public role is checked
   * afresh first). The admin web interface's in-process requests carry their caller (TRUSTED_CALLER).
   */
  const caller = async (c: Context, ...actions: string[]): Promise<Caller> => {
    const trusted = c.get(TRUSTED_CALLER) as Caller | undefined
    if (trusted === undefined) return access.authorize(c.req.header('authorization'), type, ...actions)
    trusted.requireAny(type, ...actions)
    return trusted
  }
  const shown = (version: Version, fields: readonly string[] | undefined, populated?: Populated) =>
    populated === undefined ? selectFields(toDocument(type, version), fields) : { ...selectFields(toDocument(type, version), fields), ...populated.get(version) }
  const typeOf = (uid: string) => typeByUid(services.types, uid) as ContentType
  const parsedQueries = new LruMap<string, ListQuery>(PARSED_QUERIES)
  const parsedTrees = new WeakMap<ListQuery, PopulateTree | undefined>()
  /** A list request's query, parsed once per query string (a 400 is not kept, and thrown again). */
  const listQueryOf = (url: string): ListQuery => {
    const at = url.indexOf('?')
    const search = at === -1 ? '' : url.slice(at + 1)
    const kept = parsedQueries.get(search)
    if (kept !== undefined) return kept
    const query = parseListQuery(url, type, config.rest, typeOf)
    if (search.length <= MAX_PARSED_QUERY_LENGTH) parsedQueries.set(search, query)
    return query
  }
  /** The populate tree of a list query, parsed once per query kept (a 400 is thrown again). */
  const listTreeOf = (query: ListQuery) => (): PopulateTree | undefined => {
    if (parsedTrees.has(query)) return parsedTrees.get(query)
    const tree = parsePopulate(query.populate, type, typeOf)
    parsedTrees.set(query, tree)
    return tree
  }

  /**
   * A request's `populate` (content-model.md §16), checked against what `who` may read in
   * `status`: the function that populates a page read in a locale (each version's own for `*`),
   * or undefined when nothing is populated.
   */
  const populatorOf = (who: Caller, raw: unknown, status: Status, fallback: boolean, parsed?: () => PopulateTree | undefined) => {
    const tree = parsed === undefined ? parsePopulate(raw, type, typeOf) : parsed()
    if (tree === undefined) return undefined
    const context = { services, status, fallback, may: readable(who, status), left: config.rest.populate.maxDocuments, read: documents.batchReader() }
    const checked = checkAccess(context, type, tree)
    // The tree as checked (what `*` kept for this caller) is part of a cached answer's key.
    return Object.assign((versions: readonly Version[], locale: string) => populate(context, type, versions, checked, locale === WILDCARD ? undefined : locale), { tree: checked })
  }
  type Populator = NonNullable<ReturnType<typeof populatorOf>>
  /** Populates nothing, but answers as a populated get one does (ETag of the body): a get one filtered through relations. */
  const bodyTagged: Populator = Object.assign(() => Promise.resolve(new Map()), { tree: new Map() })

  /** What `who` may read through relations in `status` (populate, filters). */
  const readable = (who: Caller, status: Status) => (target: ContentType) => who.holds(target, 'find') && (status !== 'draft' || !target.draftAndPublish || who.holds(target, 'findDrafts'))

  /** A read's filter with its relation conditions resolved (lib/relations/filters.ts). */
  const resolvedFilter = async (who: Caller, filter: Filter | undefined, locale: string, status: Status, fallback: boolean) => {
    if (!crossesRelations(filter)) return filter
    const scope = { services, locale, status, fallback, may: readable(who, status) }
    return resolveRelations(scope, type, filter, await ownListsOf(scope, type))
  }

  /**
   * A get one with populated relations (or filtered through them; `locale=*` without `version`): its
   * ETag is its body's (the targets' changes move it), a 304 when it matches. Lists through relations
   * are validated by revisions instead (relations/dependencies.ts).
   */
  const populatedAnswer = (c: Context, text: string, version?: Version) => {
    const tag = version === undefined ? listTag({ body: text }, 0) : populatedTagOf(version, text)
    const locale = version?.locale
    if (noneMatch(c.req.header('if-none-match'), tag)) return notModified(c, tag)
    if (locale !== undefined) c.header('Content-Language', locale)
    c.header('ETag', tag)
    return jsonText(c, text)
  }

  /** A write's answer: the version written, populated as the request asked (`populator`, checked before writing). */
  const written = async (c: Context, version: Version, fields: readonly string[] | undefined, populator?: Populator) => {
    c.header('ETag', etagOf(version))
    const populated = populator === undefined ? undefined : await populator([version], version.locale)
    return json(c, { data: shown(version, fields, populated), meta: {} })
  }

  /**
   * The request's locale: as `locale` asks (`*` where `wildcard`), or the default locale for a
   * type that is not localized, whose one version ignores `locale` (content-model.md §14).
   */
  const localeOf = (requested: string | undefined, wildcard = false) => (type.localized ? locales.resolve(requested, wildcard) : locales.defaultCode())

  /** The status a write's body goes to: the draft of a draft & publish type, else the (only) published version. */
  const bodyStatus: Status = type.draftAndPublish ? 'draft' : 'published'

  /**
   * The status a read asks for (content-model.md §15): published unless `status=draft`, which
   * needs `findDrafts` and is never cached publicly; 503 on an upgraded table whose drafts the
   * reindex has not created yet.
   */
  const readStatusOf = async (c: Context, requested: Status | undefined, publicationFilter?: PublicationFilter): Promise<Status> => {
    if (requested !== 'draft' && publicationFilter === undefined) return 'published'
    if (requested === 'draft') {
      // As for any action: a refusal by a cached public role is checked afresh first.
      await caller(c, 'findDrafts')
      c.set(PRIVATE_ANSWER as never, true as never)
    }
    if (!(await locales.draftsReady())) throw new ApiError(503, 'ServiceUnavailableError', 'Drafts are being created by the upgrade of this table (npm run admin -- reindex); retry after it completes', {}, { 'Retry-After': '5' })
    return requested ?? 'published'
  }

  /**
   * Parses a write's body: its attributes, each `uid` it leaves unset derived from its target
   * field (unique in `locale`), and its relation operations, whose targets must exist (§16).
   */
  const attributesOf = async (body: unknown, mode: BodyMode, locale: string, documentId: string, current?: Version): Promise<{ attributes: Attributes; links: Record<string, LinkOp> }> => {
    const attributes = parseBody(body, type, mode)
    const links = parseLinkOps((body as { data: Record<string, unknown> }).data, type)
    // Links that cannot apply to the version as read (a position relative to a target not linked,
    // too many) are a 400 before ids are drawn; the write applies them again to what it reads.
    resolveLinks(type, links, current, config.rest.relations.maxLinks)
    for (const { name, base } of uidsToDerive(type, mode, body, attributes)) {
      attributes[name] = await documents.availableUid(type, name, versionList(locale, bodyStatus), base, documentId)
    }
    await checkTargets(services, type, links, locale)
    return { attributes, links }
  }

  /**
   * Finds the document a path names: 404 for a malformed id, another type's id, no versions (of
   * any status). A document stored before draft & publish gets its drafts first.
   */
  const loadDocument = async (documentId: string): Promise<DocumentState> => {
    if (!DOCUMENT_ID.test(documentId)) throw notFound()
    const document = await documents.getDocument(type, documentId)
    if (document.versions.length === 0) throw notFound()
    return documents.ensureDrafts(type, document)
  }

  /**
   * The version of `status` a read answers: in `locale`, or with `fallback` the first along its
   * chain (from the served copy, or the document's versions while the served list is being
   * rebuilt); 404 when none, or when it does not match `filter`.
   */
  const readVersion = async (documentId: string, locale: string, status: Status, fallback: boolean, filter: Filter | undefined) => {
    const chain = fallback ? await locales.chainOf(locale) : undefined
    let version: Version | undefined
    if (chain === undefined) version = await documents.getVersion(type, documentId, locale, status)
    else if (await locales.servedReady(locale)) version = await documents.getServed(type, documentId, locale, status)
    else {
      const { versions } = await documents.getDocument(type, documentId)
      version = chain.map((code) => versionIn(versions, code, status)).find((found) => found !== undefined)
    }
    if (version === undefined || (filter !== undefined && !matchesFilter(filter, versionValues(version), locale, type))) throw notFound()
    return version
  }

  /**
   * A GET answer for one version: its ETag, a 304 when it matches, and the locale it was found in;
   * with `populator`, the populated relations of `locale` (the request's, which the targets follow).
   */
  const readAnswer = async (c: Context, version: Version, body: (populated?: Populated) => unknown, populator?: Populator, locale?: string) => {
    if (populator !== undefined) return populatedAnswer(c, JSON.stringify(body(await populator([version], locale ?? version.locale))), version)
    const tag = etagOf(version)
    if (noneMatch(c.req.header('if-none-match'), tag)) return notModified(c, tag)
    c.header('Content-Language', version.locale)
    c.header('ETag', tag)
    return json(c, body())
  }

  /**
   * PUT: update the version in `locale`, or create it as a new localization; without `status=draft`,
   * a draft & publish type's draft is then published (content-model.md §15). The change is applied
   * to the document as read on each attempt of the write, so concurrent independent writes merge.
   * If-Match names the version of the request's status.
   */
  const putVersion = async (c: Context, who: Caller, state: DocumentState, locale: string, query: { fields: readonly string[] | undefined; status: Status | undefined; populate: unknown }) => {
    const publish = query.status !== 'draft'
    const answerStatus: Status = type.draftAndPublish && !publish ? 'draft' : 'published'
    const existing = versionIn(state.versions, locale, bodyStatus)
    const first = state.versions[0]
    who.requireAny(type, existing !== undefined || first === undefined ? 'update' : 'createLocalization')
    const expectedRev = expectedRevision(c.req.header('if-match'), versionIn(state.versions, locale, answerStatus))
    const populator = populatorOf(who, query.populate, answerStatus, true)
    const body = await readJsonBody(c, config.maxBodyBytes)
    const mode = existing !== undefined ? 'update' : first === undefined ? 'create' : 'localization'
    const { attributes, links } = await attributesOf(body, mode, locale, state.documentId, existing)
    // A version too large to store (413) or holding a taken unique value (400) is refused before the
    // id sequence moves, so a rejected request writes nothing.
    if (existing === undefined) await documents.checkNew(type, addVersion(type, state.documentId, state.versions, locale, bodyStatus, 0, attributes, new Date(0).toISOString()).result)
    const firstPublication = type.draftAndPublish && publish && versionIn(state.versions, locale, 'published') === undefined
    const ids = await documents.nextIds(type, (existing === undefined ? 1 : 0) + (firstPublication ? 1 : 0))
    const version = await documents.write(type, state.documentId, locale, (current, now) => {
      const target = versionIn(current.versions, locale, bodyStatus)
      if (expectedRev !== undefined && versionIn(current.versions, locale, answerStatus)?.rev !== expectedRev) throw preconditionFailed()
      if (target !== undefined) {
        if (existing === undefined && !who.holds(type, 'update')) throw conflict('This locale version was created by a concurrent request')
      } else {
        if (existing !== undefined) throw conflict('This locale version was deleted by a concurrent request')
        if (type.kind === 'collection' && current.versions.length === 0) throw notFound()
        if (mode === 'create' && current.versions.length > 0) throw conflict('The document was created by a concurrent request; retry')
      }
      const draftId = existing === undefined ? ids[0] : undefined
      const values = { ...attributes, ...resolveLinks(type, links, target, config.rest.relations.maxLinks) }
      return writeVersion(type, current.documentId, current.versions, locale, publish, values, { draft: draftId ?? 0, published: firstPublication ? ids.at(-1) : undefined }, now)
    }, state)
    await writeInverse(services, type, state.documentId, locale, publish, links)
    await releaseTargets(services, type, state.documentId, locale, publish, links)
    return written(c, version, query.fields, populator)
  }

  /** The publication actions by route name: the change each makes to one locale (`newId` for a first publication). */
  const ACTIONS = {
    publish: (versions: readonly Version[], locale: string, newId: number | undefined, now: string) => publishVersion(type, versions, locale, newId, now),
    unpublish: (versions: readonly Version[], locale: string) => unpublishVersion(versions, locale),
    'discard-draft': (versions: readonly Version[], locale: string, _newId: number | undefined, now: string) => discardDraft(type, versions, locale, now),
  } satisfies Record<string, (versions: readonly Version[], locale: string, newId: number | undefined, now: string) => Change>

  /**
   * A publication action (content-model.md §15) on `locale`'s versions, or on every locale with
   * `*` (skipping the locales it does not apply to; 404 only when none): one transaction. If-Match
   * names the draft. The answer is the version the action leaves (an array with `*`).
   */
  const publicationAction = async (c: Context, documentId: string, action: keyof typeof ACTIONS) => {
    const act = ACTIONS[action]
    await caller(c, 'publish')
    const query = parseWriteQuery(c.req.url, type, true)
    const locale = await localeOf(query.locale, true)
    const state = await loadDocument(documentId)
    const accepted = parseIfMatch(c.req.header('if-match'))
    if (locale === WILDCARD && accepted !== undefined && accepted !== '*') throw preconditionFailed()
    const codes = locale === WILDCARD ? [...new Set(state.versions.map((version) => version.locale))] : [locale]
    // A locale without a draft is a 404 before anything moves, the id sequence included.
    if (codes.every((code) => versionIn(state.versions, code, 'draft') === undefined)) throw notFound()
    const firstPublications = codes.filter((code) => versionIn(state.versions, code, 'draft') !== undefined && versionIn(state.versions, code, 'published') === undefined).length
    const ids = action === 'publish' ? await documents.nextIds(type, firstPublications) : []
    const results = await documents.write(type, documentId, codes[0] as string, (current, now) => {
      let versions = current.versions
      let fresh = 0
      const acted: Version[] = []
      for (const code of codes) {
        const draft = versionIn(versions, code, 'draft')
        if (accepted !== undefined && accepted !== '*' && !(draft !== undefined && accepted.some((tag) => tag.id === draft.id && tag.rev === draft.rev))) throw preconditionFailed()
        let change: Change
        try {
          const newId = versionIn(versions, code, 'published') === undefined ? ids[fresh] : undefined
          change = act(versions, code, newId, now)
          if (newId !== undefined && change.versions !== versions) fresh += 1
        } catch (error) {
          if (locale === WILDCARD && error instanceof ApiError && error.status === 404) continue
          throw error
        }
        versions = change.versions
        acted.push(change.result)
      }
      if (acted.length === 0) throw notFound()
      return { versions, result: acted }
    }, state)
    if (locale !== WILDCARD) return written(c, results[0] as Version, query.fields)
    return json(c, { data: results.map((version) => shown(version, query.fields)), meta: {} })
  }

  /**
   * DELETE: one locale's versions (its draft and published version), or every version for
   * `locale=*`, in one transaction. If-Match names the locale's published version (its draft when
   * it has none).
   */
  const deleteVersions = async (c: Context, documentId: string, locale: string) => {
    if (!DOCUMENT_ID.test(documentId)) throw notFound()
    const state = await documents.getDocument(type, documentId)
    const accepted = parseIfMatch(c.req.header('if-match'))
    const guardLocale = locale === WILDCARD ? state.versions[0]?.locale : locale
    if (guardLocale === undefined) throw notFound()
    // If-Match names one version; it cannot hold for all of them.
    if (locale === WILDCARD && accepted !== undefined) throw preconditionFailed()
    const remove = (code: string, absent: () => never | undefined) => (current: DocumentState) => {
      const doomed = current.versions.filter((version) => code === WILDCARD || version.locale === code)
      if (doomed.length === 0) return { versions: current.versions, result: absent() }
      const named = versionIn(doomed, code, 'published') ?? versionIn(doomed, code, 'draft')
      if (accepted !== undefined && accepted !== '*' && !(named !== undefined && accepted.some((tag) => tag.id === named.id && tag.rev === named.rev))) {
        throw preconditionFailed()
      }
      return { versions: current.versions.filter((version) => !doomed.includes(version)), result: undefined }
    }
    const missing = () => {
      throw notFound()
    }
    try {
      await documents.write(type, documentId, guardLocale, remove(locale, missing), state)
    } catch (error) {
      // Every version of a document with many locales (drafts, served copies and their counts)
      // may exceed one transaction: then each locale goes in its own, its draft and published
      // version together (README, Decisions).
      if (!(locale === WILDCARD && error instanceof ApiError && error.status === 413)) throw error
      for (const code of new Set(state.versions.map((version) => version.locale))) await documents.write(type, documentId, code, remove(code, () => undefined))
    }
    return c.body(null, 204)
  }

  if (type.kind === 'collection') {
    app.get(root, async (c) => {
      const who = await caller(c, 'find')
      const query = listQueryOf(c.req.url)
      const locale = await localeOf(query.locale, true)
      const status = await readStatusOf(c, query.status, query.publicationFilter)
      const fallback = query.fallback !== false
      const populator = populatorOf(who, query.populate, status, fallback, listTreeOf(query))
      // A filter or a sort through relations needs `find` on each type it reaches (checked here, before
      // any answer, cached or not); the filter is resolved with the page's read (below).
      const relationFilter = crossesRelations(query.filters)
      const relationSort = query.sort.some(throughRelation)
      if (relationFilter || relationSort) checkReadThrough(services, type, { filter: query.filters, sort: query.sort }, readable(who, status))
      // `publicationFilter` selects among a locale's own versions (no fallback), by publication state.
      const chain = fallback && locale !== WILDCARD && query.publicationFilter === undefined ? await locales.chainOf(locale) : undefined
      const served = chain !== undefined && (await locales.servedReady(locale))
      const listNames = served ? [`~${versionList(locale, status)}`] : (chain ?? (await locales.expand(locale))).map((code) => versionList(code, status))
      const states = query.publicationFilter === undefined ? undefined : PUBLICATION_STATES[query.publicationFilter]
      const partitions = states === undefined ? undefined : listNames.flatMap((list) => states.map((state) => publicationList(list, state)))
      const normalized = { uid: type.uid, locale, lists: listNames, sort: query.sort, pagination: query.pagination, filters: query.filters, fields: query.fields, fallback: chain !== undefined, partitions, populate: populator === undefined ? undefined : treeKey(populator.tree) }
      const key = JSON.stringify(normalized)
      const { offset, limit } = paginationWindow(query.pagination)
      const trusted = await locales.indexTrusted()
      // Lists settle from when their reads start (see SETTLE_MS): a page read then saw every write
      // made SETTLE_MS before, whatever the order in which its reads and the validator's end.
      const startedAt = Date.now()
      const read = async (validator: Validator) => {
        const filter = relationFilter ? await resolvedFilter(who, query.filters, locale, status, fallback) : query.filters
        const request = { lists: listNames, collation: locale, sort: query.sort, filter, offset, limit, maxScan: config.rest.maxScan, trusted, startedAt }
        return relationSort ? sortedThroughRelations({ services, status, fallback, read: documents.batchReader() }, type, request, validator, locale)
          : partitions !== undefined ? (partitions.length === 0 ? { versions: [], total: 0 } : lists.inPublicationStates(type, request, partitions, validator))
          : chain !== undefined && !served ? lists.listChain(type, chain, request, validator) : lists.list(type, request, validator)
      }
      // With `publicationFilter`, the total is the state partitions' count; the lists' revisions
      // move with every change to their versions (a partition's only when its members change).
      // Through relations (populate, filters, sort), the other types' lists read count too.
      const through = populator !== undefined || relationFilter || relationSort
        ? await listsReadThrough(services, type, { tree: populator?.tree, filter: query.filters, sort: query.sort, locale, status, fallback })
        : []
      const validator = lists.validator(type, listNames, partitions, through)
      // The validator alone answers a 304 or a cached page; otherwise the page is read with it
      // (alongside, or in the BatchGet of the page's documents).
      const early = c.req.header('if-none-match') !== undefined || pages.holds(key) ? undefined : await read(validator)
      const head = await validator.get()
      const tag = listTag({ normalized, trusted, revisions: head.revisions, registry: await locales.revision(), config: configTag }, head.changedAt, startedAt)
      if (noneMatch(c.req.header('if-none-match'), tag)) return notModified(c, tag)
      c.header('ETag', tag)
      const cached = pages.get(key, tag)
      if (cached !== undefined) return jsonText(c, cached)
      const page = early ?? (await read(validator))
      const populated = populator === undefined ? undefined : await populator(page.versions, locale)
      const text = JSON.stringify({ data: page.versions.map((version) => shown(version, query.fields, populated)), meta: { pagination: paginationMeta(query.pagination, page.total) } })
      if (!settled(head.changedAt, startedAt) || !pages.enabled) return jsonText(c, text)
      const encoded = UTF8.encode(text)
      pages.set(key, tag, encoded)
      return jsonText(c, encoded)
    })

    app.post(root, async (c) => {
      const who = await caller(c, 'create')
      const query = parseWriteQuery(c.req.url, type)
      const locale = await localeOf(query.locale)
      const populator = populatorOf(who, query.populate, type.draftAndPublish && query.status === 'draft' ? 'draft' : 'published', true)
      const documentId = newDocumentId()
      const { attributes, links } = await attributesOf(await readJsonBody(c, config.maxBodyBytes), 'create', locale, documentId)
      await documents.checkNew(type, addVersion(type, documentId, [], locale, bodyStatus, 0, attributes, new Date(0).toISOString()).result)
      // Without `status=draft`, a draft & publish type's new draft is published too: two versions,
      // two ids, drawn with those of the creates committed in the same transaction.
      const publish = query.status !== 'draft'
      const version = await documents.create(type, documentId, locale, type.draftAndPublish && publish ? 2 : 1, (current, now, [draft, published]) => {
        if (current.versions.length > 0) throw conflict('The document was created by a concurrent request')
        const values = { ...attributes, ...resolveLinks(type, links, undefined, config.rest.relations.maxLinks) }
        return writeVersion(type, documentId, [], locale, publish, values, { draft: draft as number, published }, now)
      })
      await writeInverse(services, type, documentId, locale, publish, links)
      await releaseTargets(services, type, documentId, locale, publish, links)
      return written(c, version, query.fields, populator)
    })
    allowOnly(app, root, ['GET', 'POST'])

    const item = `${root}/:documentId`
    app.get(item, async (c) => {
      const who = await caller(c, 'findOne')
      const query = parseReadQuery(c.req.url, type, typeOf)
      const locale = await localeOf(query.locale, true)
      const status = await readStatusOf(c, query.status)
      const populator = populatorOf(who, query.populate, status, query.fallback !== false) ?? (crossesRelations(query.filters) ? bodyTagged : undefined)
      const filter = await resolvedFilter(who, query.filters, locale, status, query.fallback !== false)
      const documentId = documentIdOf(c)
      if (!DOCUMENT_ID.test(documentId)) throw notFound()
      if (locale === WILDCARD) {
        if (config.rest.findOneShape === 'object') throw badRequest("locale '*' needs api.rest.findOneShape 'array'")
        const versions = (await documents.getDocument(type, documentId)).versions
          .filter((version) => version.status === status && (filter === undefined || matchesFilter(filter, versionValues(version), WILDCARD, type)))
        if (versions.length === 0) throw notFound()
        const pageSize = Math.max(config.rest.defaultLimit, versions.length)
        const meta = { pagination: { page: 1, pageSize, pageCount: 1, total: versions.length } }
        if (populator !== undefined) {
          const populated = await populator(versions, WILDCARD)
          return populatedAnswer(c, JSON.stringify({ data: versions.map((version) => shown(version, query.fields, populated)), meta }))
        }
        const tag = listTag({ versions: versions.map((version) => etagOf(version)), fields: query.fields }, 0)
        if (noneMatch(c.req.header('if-none-match'), tag)) return notModified(c, tag)
        c.header('ETag', tag)
        return json(c, { data: versions.map((version) => shown(version, query.fields)), meta })
      }
      const version = await readVersion(documentId, locale, status, query.fallback !== false, filter)
      if (config.rest.findOneShape === 'object') return readAnswer(c, version, (populated) => ({ data: shown(version, query.fields, populated), meta: {} }), populator, locale)
      const meta = { pagination: { page: 1, pageSize: config.rest.defaultLimit, pageCount: 1, total: 1 } }
      return readAnswer(c, version, (populated) => ({ data: [shown(version, query.fields, populated)], meta }), populator, locale)
    })

    app.put(item, async (c) => {
      const who = await caller(c, 'update', 'createLocalization')
      const query = parseWriteQuery(c.req.url, type)
      const locale = await localeOf(query.locale)
      return putVersion(c, who, await loadDocument(documentIdOf(c)), locale, query)
    })

    app.delete(item, async (c) => {
      await caller(c, 'delete')
      const locale = await localeOf(parseItemQuery(c.req.url, type).locale, true)
      return deleteVersions(c, documentIdOf(c), locale)
    })
    allowOnly(app, item, ['GET', 'PUT', 'DELETE'])
    if (type.draftAndPublish) {
      for (const name of Object.keys(ACTIONS) as (keyof typeof ACTIONS)[]) {
        app.post(`${item}/actions/${name}`, (c) => publicationAction(c, documentIdOf(c), name))
        allowOnly(app, `${item}/actions/${name}`, ['POST'])
      }
    }
    return app
  }

  const documentId = singleTypeDocumentId(type)
  app.get(root, async (c) => {
    const who = await caller(c, 'find')
    const query = parseReadQuery(c.req.url, type, typeOf)
    const locale = await localeOf(query.locale)
    const status = await readStatusOf(c, query.status)
    const populator = populatorOf(who, query.populate, status, query.fallback !== false) ?? (crossesRelations(query.filters) ? bodyTagged : undefined)
    const version = await readVersion(documentId, locale, status, query.fallback !== false, await resolvedFilter(who, query.filters, locale, status, query.fallback !== false))
    return readAnswer(c, version, (populated) => ({ data: shown(version, query.fields, populated), meta: {} }), populator, locale)
  })

  app.put(root, async (c) => {
    const who = await caller(c, 'update', 'createLocalization')
    const query = parseWriteQuery(c.req.url, type)
    const locale = await localeOf(query.locale)
    return putVersion(c, who, await documents.ensureDrafts(type, await documents.getDocument(type, documentId)), locale, query)
  })

  app.delete(root, async (c) => {
    await caller(c, 'delete')
    const locale = await localeOf(parseItemQuery(c.req.url, type).locale, true)
    return deleteVersions(c, documentId, locale)
  })
  allowOnly(app, root, ['GET', 'PUT', 'DELETE'])
  if (type.draftAndPublish) {
    for (const name of Object.keys(ACTIONS) as (keyof typeof ACTIONS)[]) {
      app.post(`${root}/actions/${name}`, (c) => publicationAction(c, documentId, name))
      allowOnly(app, `${root}/actions/${name}`, ['POST'])
    }
  }
  return app
}
