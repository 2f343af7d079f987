// The HTTP surface of one content type, top to bottom: path, parse, authorize, call, respond.
// Checks run in the documented order: credentials (401), route permission (403), query and
// locale (400), document (404), exact action (403), If-Match (412), body (400/413/415), storage.
import type { Context, Hono } from 'hono'
import type { Caller } from './access.js'
import { parseBody } from './body.js'
import { routeName, type ContentType } from './content-types.js'
import { badRequest, notFound, preconditionFailed } from './errors.js'
import { allowOnly, createBaseApp, etagOf, expectedRevision, parseIfMatch, readJsonBody } from './http.js'
import { paginationMeta, paginationWindow } from './query/pagination.js'
import { parseItemQuery, parseListQuery } from './query/parse.js'
import type { Services } from './services.js'
import { DOCUMENT_ID, newDocumentId, singleTypeDocumentId, type StoredDocument } from './storage/documents.js'
import { toDocument, type Version } from './storage/items.js'

/** The Hono app serving `type` under `/api/<plural>` (collection) or `/api/<singular>` (single). */
export function createContentApp(type: ContentType, services: Services): Hono {
  const { access, locales, documents, lists, config } = services
  const app = createBaseApp(config.maxBodyBytes)
  const root = `/api/${routeName(type)}`
  const documentIdOf = (c: Context) => c.req.param('documentId') ?? ''
  const caller = (c: Context) => access.identify(c.req.header('authorization'))
  const one = (c: Context, version: Version) => {
    c.header('ETag', etagOf(version))
    return c.json({ data: toDocument(type, version), meta: {} })
  }

  /** Finds the document a path names: 404 for a malformed id, another type's id, no versions. */
  const loadDocument = async (documentId: string): Promise<StoredDocument> => {
    if (!DOCUMENT_ID.test(documentId)) throw notFound()
    const document = await documents.getDocument(type, documentId)
    if (document.versions.length === 0) throw notFound()
    return document
  }

  /** PUT: update the version in `locale`, or create it as a new localization of `document`. */
  const putVersion = async (c: Context, who: Caller, document: StoredDocument, locale: string) => {
    const existing = document.versions.find((version) => version.locale === locale)
    const first = document.versions[0]
    who.requireAny(type, existing !== undefined || first === undefined ? 'update' : 'createLocalization')
    const expectedRev = expectedRevision(c.req.header('if-match'), existing)
    const body = await readJsonBody(c, config.maxBodyBytes)
    if (existing !== undefined) {
      const changes = parseBody(body, type, 'update')
      return one(c, await documents.updateVersion(type, document, existing, changes, expectedRev))
    }
    const attributes = parseBody(body, type, first === undefined ? 'create' : 'localization')
    const inherited = first === undefined ? {} : Object.fromEntries(
      Object.entries(first.attributes).filter(([name]) => type.attributes[name]?.localized === false),
    )
    return one(c, await documents.createVersion(type, document, locale, { ...attributes, ...inherited }))
  }

  /** DELETE: one version in one transaction, or every version for `locale=*`. */
  const deleteVersions = async (c: Context, documentId: string, locale: string) => {
    if (!DOCUMENT_ID.test(documentId)) throw notFound()
    if (locale !== '*') {
      await documents.deleteVersion(type, documentId, locale, parseIfMatch(c.req.header('if-match')))
      return c.body(null, 204)
    }
    const { versions } = await documents.getDocument(type, documentId)
    if (versions.length === 0) throw notFound()
    // If-Match names one version; it cannot hold for all of them.
    if (c.req.header('if-match') !== undefined) throw preconditionFailed()
    await documents.deleteVersions(type, versions)
    return c.body(null, 204)
  }

  if (type.kind === 'collection') {
    app.get(root, async (c) => {
      ;(await caller(c)).requireAny(type, 'find')
      const query = parseListQuery(c.req.url, type, config.rest)
      const locale = await locales.resolve(query.locale, true)
      const { offset, limit } = paginationWindow(query.pagination)
      const page = await lists.list(type, {
        locales: await locales.expand(locale),
        collation: locale,
        sort: query.sort,
        offset,
        limit,
        withCount: query.pagination.withCount,
      })
      return c.json({ data: page.versions.map((version) => toDocument(type, version)), meta: { pagination: paginationMeta(query.pagination, page.total) } })
    })

    app.post(root, async (c) => {
      ;(await caller(c)).requireAny(type, 'create')
      const locale = await locales.resolve(parseItemQuery(c.req.url).locale)
      const attributes = parseBody(await readJsonBody(c, config.maxBodyBytes), type, 'create')
      const document: StoredDocument = { documentId: newDocumentId(), versions: [], headRev: undefined }
      return one(c, await documents.createVersion(type, document, locale, attributes))
    })
    allowOnly(app, root, ['GET', 'POST'])

    const item = `${root}/:documentId`
    app.get(item, async (c) => {
      ;(await caller(c)).requireAny(type, 'findOne')
      const locale = await locales.resolve(parseItemQuery(c.req.url).locale, true)
      const documentId = documentIdOf(c)
      if (!DOCUMENT_ID.test(documentId)) throw notFound()
      if (locale === '*') {
        if (config.rest.findOneShape === 'object') throw badRequest("locale '*' needs api.rest.findOneShape 'array'")
        const { versions } = await loadDocument(documentId)
        const pageSize = config.rest.defaultLimit
        const meta = { pagination: { page: 1, pageSize, pageCount: Math.ceil(versions.length / pageSize), total: versions.length } }
        return c.json({ data: versions.map((version) => toDocument(type, version)), meta })
      }
      const version = await documents.getVersion(type, documentId, locale)
      if (version === undefined) throw notFound()
      c.header('ETag', etagOf(version))
      if (config.rest.findOneShape === 'object') return c.json({ data: toDocument(type, version), meta: {} })
      return c.json({ data: [toDocument(type, version)], meta: { pagination: { page: 1, pageSize: config.rest.defaultLimit, pageCount: 1, total: 1 } } })
    })

    app.put(item, async (c) => {
      const who = await caller(c)
      who.requireAny(type, 'update', 'createLocalization')
      const locale = await locales.resolve(parseItemQuery(c.req.url).locale)
      return putVersion(c, who, await loadDocument(documentIdOf(c)), locale)
    })

    app.delete(item, async (c) => {
      ;(await caller(c)).requireAny(type, 'delete')
      const locale = await locales.resolve(parseItemQuery(c.req.url).locale, true)
      return deleteVersions(c, documentIdOf(c), locale)
    })
    allowOnly(app, item, ['GET', 'PUT', 'DELETE'])
    return app
  }

  const documentId = singleTypeDocumentId(type)
  app.get(root, async (c) => {
    ;(await caller(c)).requireAny(type, 'find')
    const locale = await locales.resolve(parseItemQuery(c.req.url).locale)
    const version = await documents.getVersion(type, documentId, locale)
    if (version === undefined) throw notFound()
    return one(c, version)
  })

  app.put(root, async (c) => {
    const who = await caller(c)
    who.requireAny(type, 'update', 'createLocalization')
    const locale = await locales.resolve(parseItemQuery(c.req.url).locale)
    return putVersion(c, who, await documents.getDocument(type, documentId), locale)
  })

  app.delete(root, async (c) => {
    ;(await caller(c)).requireAny(type, 'delete')
    const locale = await locales.resolve(parseItemQuery(c.req.url).locale, true)
    return deleteVersions(c, documentId, locale)
  })
  allowOnly(app, root, ['GET', 'PUT', 'DELETE'])
  return app
}
