// The HTTP surface of one content type, top to bottom: path, parse, authorize, call, respond.
// Checks run in the documented order: credentials (401), route permission (403), query and
// locale (400), document (404), exact action (403), If-Match (412), body (400/413/415), storage.
import type { Context, Hono } from 'hono'
import { TRUSTED_CALLER, type Caller } from './access.js'
import { parseBody, uidsToDerive, type Attributes, type BodyMode } from './body.js'
import { routeName, type ContentType } from './content-types.js'
import { cachingHeaders, listTag, noneMatch, notModified } from './delivery/conditional.js'
import { PageCache } from './delivery/page-cache.js'
import { badRequest, conflict, notFound, preconditionFailed } from './errors.js'
import { allowOnly, createBaseApp, etagOf, expectedRevision, json, jsonText, parseIfMatch, readJsonBody } from './http.js'
import { WILDCARD } from './locales.js'
import { selectFields } from './query/fields.js'
import { matchesFilter, type Filter } from './query/filters.js'
import { paginationMeta, paginationWindow } from './query/pagination.js'
import { parseItemQuery, parseListQuery, parseReadQuery, parseWriteQuery } from './query/parse.js'
import type { Services } from './services.js'
import type { DocumentState } from './storage/document-plan.js'
import { settled, type Validator } from './storage/lists/validator.js'
import { DOCUMENT_ID, newDocumentId, singleTypeDocumentId } from './storage/documents.js'
import { toDocument, versionValues, type Version } from './storage/items.js'
import { addVersion, updateVersions } from './document-changes.js'

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
  const shown = (version: Version, fields: readonly string[] | undefined) => selectFields(toDocument(type, version), fields)
  const written = (c: Context, version: Version, fields: readonly string[] | undefined) => {
    c.header('ETag', etagOf(version))
    return json(c, { data: shown(version, fields), meta: {} })
  }

  /**
   * The request's locale: as `locale` asks (`*` where `wildcard`), or the default locale for a
   * type that is not localized, whose one version ignores `locale` (content-model.md §14).
   */
  const localeOf = (requested: string | undefined, wildcard = false) => (type.localized ? locales.resolve(requested, wildcard) : locales.defaultCode())

  /** Parses a write's body, and derives each `uid` it leaves unset from its target field, unique in `locale`. */
  const attributesOf = async (body: unknown, mode: BodyMode, locale: string, documentId: string): Promise<Attributes> => {
    const attributes = parseBody(body, type, mode)
    for (const { name, base } of uidsToDerive(type, mode, body, attributes)) {
      attributes[name] = await documents.availableUid(type, name, locale, base, documentId)
    }
    return attributes
  }

  /** Finds the document a path names: 404 for a malformed id, another type's id, no versions. */
  const loadDocument = async (documentId: string): Promise<DocumentState> => {
    if (!DOCUMENT_ID.test(documentId)) throw notFound()
    const document = await documents.getDocument(type, documentId)
    if (document.versions.length === 0) throw notFound()
    return document
  }

  /**
   * The version a read answers: in `locale`, or with `fallback` the first along its chain (from the
   * served copy, or the document's versions while the served list is being rebuilt); 404 when
   * none, or when it does not match `filter`.
   */
  const readVersion = async (documentId: string, locale: string, fallback: boolean, filter: Filter | undefined) => {
    const chain = fallback ? await locales.chainOf(locale) : undefined
    let version: Version | undefined
    if (chain === undefined) version = await documents.getVersion(type, documentId, locale)
    else if (await locales.servedReady(locale)) version = await documents.getServed(type, documentId, locale)
    else {
      const { versions } = await documents.getDocument(type, documentId)
      version = chain.map((code) => versions.find((candidate) => candidate.locale === code)).find((found) => found !== undefined)
    }
    if (version === undefined || (filter !== undefined && !matchesFilter(filter, versionValues(version), locale, type))) throw notFound()
    return version
  }

  /** A GET answer for one version: its ETag, a 304 when it matches, and the locale it was found in. */
  const readAnswer = (c: Context, version: Version, body: () => unknown) => {
    const tag = etagOf(version)
    if (noneMatch(c.req.header('if-none-match'), tag)) return notModified(c, tag)
    c.header('Content-Language', version.locale)
    c.header('ETag', tag)
    return json(c, body())
  }

  /**
   * PUT: update the version in `locale`, or create it as a new localization. The change is applied
   * to the document as read on each attempt of the write, so concurrent independent writes merge.
   */
  const putVersion = async (c: Context, who: Caller, state: DocumentState, locale: string, fields: readonly string[] | undefined) => {
    const existing = state.versions.find((version) => version.locale === locale)
    const first = state.versions[0]
    who.requireAny(type, existing !== undefined || first === undefined ? 'update' : 'createLocalization')
    const expectedRev = expectedRevision(c.req.header('if-match'), existing)
    const body = await readJsonBody(c, config.maxBodyBytes)
    const mode = existing !== undefined ? 'update' : first === undefined ? 'create' : 'localization'
    const attributes = await attributesOf(body, mode, locale, state.documentId)
    // A version too large to store (413) or holding a taken unique value (400) is refused before the
    // id sequence moves, so a rejected request writes nothing.
    if (existing === undefined) await documents.checkNew(type, addVersion(type, state.documentId, state.versions, locale, 0, attributes, new Date(0).toISOString()).result)
    const id = existing === undefined ? await documents.nextId(type) : 0
    const version = await documents.write(type, state.documentId, locale, (current, now) => {
      const target = current.versions.find((candidate) => candidate.locale === locale)
      if (expectedRev !== undefined && target?.rev !== expectedRev) throw preconditionFailed()
      if (target !== undefined) {
        if (existing === undefined && !who.holds(type, 'update')) throw conflict('This locale version was created by a concurrent request')
        return updateVersions(type, current.versions, target, attributes, now)
      }
      if (existing !== undefined) throw conflict('This locale version was deleted by a concurrent request')
      if (type.kind === 'collection' && current.versions.length === 0) throw notFound()
      if (mode === 'create' && current.versions.length > 0) throw conflict('The document was created by a concurrent request; retry')
      return addVersion(type, current.documentId, current.versions, locale, id, attributes, now)
    }, state)
    return written(c, version, fields)
  }

  /** DELETE: one version, or every version for `locale=*`, each in one transaction. */
  const deleteVersions = async (c: Context, documentId: string, locale: string) => {
    if (!DOCUMENT_ID.test(documentId)) throw notFound()
    const state = await documents.getDocument(type, documentId)
    const accepted = parseIfMatch(c.req.header('if-match'))
    const guardLocale = locale === WILDCARD ? state.versions[0]?.locale : locale
    if (guardLocale === undefined) throw notFound()
    // If-Match names one version; it cannot hold for all of them.
    if (locale === WILDCARD && accepted !== undefined) throw preconditionFailed()
    await documents.write(type, documentId, guardLocale, (current) => {
      const doomed = current.versions.filter((version) => locale === WILDCARD || version.locale === locale)
      if (doomed.length === 0) throw notFound()
      if (accepted !== undefined && accepted !== '*' && !doomed.every((version) => accepted.some((tag) => tag.id === version.id && tag.rev === version.rev))) {
        throw preconditionFailed()
      }
      return { versions: current.versions.filter((version) => !doomed.includes(version)), result: undefined }
    }, state)
    return c.body(null, 204)
  }

  if (type.kind === 'collection') {
    app.get(root, async (c) => {
      await caller(c, 'find')
      const query = parseListQuery(c.req.url, type, config.rest)
      const locale = await localeOf(query.locale, true)
      const chain = query.fallback !== false && locale !== WILDCARD ? await locales.chainOf(locale) : undefined
      const served = chain !== undefined && (await locales.servedReady(locale))
      const listNames = served ? [`~${locale}`] : chain ?? (await locales.expand(locale))
      const normalized = { uid: type.uid, locale, lists: listNames, sort: query.sort, pagination: query.pagination, filters: query.filters, fields: query.fields, fallback: chain !== undefined }
      const key = JSON.stringify(normalized)
      const { offset, limit } = paginationWindow(query.pagination)
      const trusted = await locales.indexTrusted()
      // Lists settle from when their reads start (see SETTLE_MS): a page read then saw every write
      // made SETTLE_MS before, whatever the order in which its reads and the validator's end.
      const startedAt = Date.now()
      const request = { lists: listNames, collation: locale, sort: query.sort, filter: query.filters, offset, limit, maxScan: config.rest.maxScan, trusted, startedAt }
      const read = (validator: Validator) => (chain !== undefined && !served ? lists.listChain(type, chain, request, validator) : lists.list(type, request, validator))
      const validator = lists.validator(type, listNames)
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
      const text = JSON.stringify({ data: page.versions.map((version) => shown(version, query.fields)), meta: { pagination: paginationMeta(query.pagination, page.total) } })
      if (settled(head.changedAt, startedAt)) pages.set(key, tag, text)
      return jsonText(c, text)
    })

    app.post(root, async (c) => {
      await caller(c, 'create')
      const query = parseWriteQuery(c.req.url, type)
      const locale = await localeOf(query.locale)
      const documentId = newDocumentId()
      const attributes = await attributesOf(await readJsonBody(c, config.maxBodyBytes), 'create', locale, documentId)
      await documents.checkNew(type, addVersion(type, documentId, [], locale, 0, attributes, new Date(0).toISOString()).result)
      const id = await documents.nextId(type)
      const version = await documents.create(type, documentId, locale, (current, now) => {
        if (current.versions.length > 0) throw conflict('The document was created by a concurrent request')
        return addVersion(type, documentId, [], locale, id, attributes, now)
      })
      return written(c, version, query.fields)
    })
    allowOnly(app, root, ['GET', 'POST'])

    const item = `${root}/:documentId`
    app.get(item, async (c) => {
      await caller(c, 'findOne')
      const query = parseReadQuery(c.req.url, type)
      const locale = await localeOf(query.locale, true)
      const documentId = documentIdOf(c)
      if (!DOCUMENT_ID.test(documentId)) throw notFound()
      if (locale === WILDCARD) {
        if (config.rest.findOneShape === 'object') throw badRequest("locale '*' needs api.rest.findOneShape 'array'")
        const versions = (await loadDocument(documentId)).versions.filter((version) => query.filters === undefined || matchesFilter(query.filters, versionValues(version), WILDCARD, type))
        if (versions.length === 0) throw notFound()
        const pageSize = Math.max(config.rest.defaultLimit, versions.length)
        const meta = { pagination: { page: 1, pageSize, pageCount: 1, total: versions.length } }
        const tag = listTag({ versions: versions.map((version) => etagOf(version)), fields: query.fields }, 0)
        if (noneMatch(c.req.header('if-none-match'), tag)) return notModified(c, tag)
        c.header('ETag', tag)
        return json(c, { data: versions.map((version) => shown(version, query.fields)), meta })
      }
      const version = await readVersion(documentId, locale, query.fallback !== false, query.filters)
      if (config.rest.findOneShape === 'object') return readAnswer(c, version, () => ({ data: shown(version, query.fields), meta: {} }))
      const meta = { pagination: { page: 1, pageSize: config.rest.defaultLimit, pageCount: 1, total: 1 } }
      return readAnswer(c, version, () => ({ data: [shown(version, query.fields)], meta }))
    })

    app.put(item, async (c) => {
      const who = await caller(c, 'update', 'createLocalization')
      const query = parseWriteQuery(c.req.url, type)
      const locale = await localeOf(query.locale)
      return putVersion(c, who, await loadDocument(documentIdOf(c)), locale, query.fields)
    })

    app.delete(item, async (c) => {
      await caller(c, 'delete')
      const locale = await localeOf(parseItemQuery(c.req.url).locale, true)
      return deleteVersions(c, documentIdOf(c), locale)
    })
    allowOnly(app, item, ['GET', 'PUT', 'DELETE'])
    return app
  }

  const documentId = singleTypeDocumentId(type)
  app.get(root, async (c) => {
    await caller(c, 'find')
    const query = parseReadQuery(c.req.url, type)
    const locale = await localeOf(query.locale)
    const version = await readVersion(documentId, locale, query.fallback !== false, query.filters)
    return readAnswer(c, version, () => ({ data: shown(version, query.fields), meta: {} }))
  })

  app.put(root, async (c) => {
    const who = await caller(c, 'update', 'createLocalization')
    const query = parseWriteQuery(c.req.url, type)
    const locale = await localeOf(query.locale)
    return putVersion(c, who, await documents.getDocument(type, documentId), locale, query.fields)
  })

  app.delete(root, async (c) => {
    await caller(c, 'delete')
    const locale = await localeOf(parseItemQuery(c.req.url).locale, true)
    return deleteVersions(c, documentId, locale)
  })
  allowOnly(app, root, ['GET', 'PUT', 'DELETE'])
  return app
}
