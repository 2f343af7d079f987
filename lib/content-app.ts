// The HTTP surface of one content type, top to bottom: path, parse, authorize, call, respond. Each
// route is request → parse → operation (lib/operations/) → answer (lib/delivery/document-answers.ts).
// Checks run in the documented order: credentials (401), route permission (403), query and
// locale (400), document (404), exact action (403), If-Match (412), body (400/413/415), storage.
import type { Context, Hono } from 'hono'
import { TRUSTED_CALLER, type Caller } from './access.js'
import { routeName } from './content-types.js'
import type { ContentType } from './content-types.js'
import { PRIVATE_ANSWER, cachingHeaders } from './delivery/conditional.js'
import { actedAnswer, foundAnswer, listAnswer, writtenAnswer } from './delivery/document-answers.js'
import { allowOnly, createBaseApp, parseIfMatch, readJsonBody } from './http.js'
import { scopeOf, type Asker, type Scope } from './operations/context.js'
import { create } from './operations/create.js'
import { deleteVersions } from './operations/delete.js'
import { findOne } from './operations/find-one.js'
import { planFind } from './operations/find.js'
import { ListQueries } from './operations/list-queries.js'
import { PUBLICATION_ACTIONS, publication, type PublicationAction } from './operations/publication.js'
import { update, updateSingle } from './operations/update.js'
import { parseItemQuery, parseReadQuery, parseWriteQuery } from './query/parse.js'
import type { Services } from './services.js'
import { singleTypeDocumentId } from './storage/documents.js'

/**
 * The Hono app serving `type` under `/api/<plural>` (collection) or `/api/<singular>` (single);
 * `mounted` inside the server app (see createBaseApp).
 */
export function createContentApp(type: ContentType, services: Services, mounted = false): Hono {
  const app = createBaseApp(services.config, undefined, mounted)
  const root = `/api/${routeName(type)}`
  // Scoped to this type's paths: the server app mounts every app's middleware on one router.
  app.use(root, cachingHeaders(services.config.rest))
  app.use(`${root}/*`, cachingHeaders(services.config.rest))
  const scope = scopeOf(type, services)
  if (type.kind === 'collection') {
    collectionRoutes(app, root, scope)
    itemRoutes(app, `${root}/:documentId`, scope, (c) => c.req.param('documentId') ?? '')
  } else {
    const documentId = singleTypeDocumentId(type)
    singleRoutes(app, root, scope, documentId)
    itemRoutes(app, root, scope, () => documentId)
  }
  return app
}

/** GET (find) and POST (create) of a collection type. */
function collectionRoutes(app: Hono, root: string, scope: Scope): void {
  const { type, services: { config, locales } } = scope
  const queries = new ListQueries(scope, config.rest)
  const tagParts = { registry: () => locales.revision(), config: JSON.stringify(config.rest) }
  app.get(root, async (c) => {
    const asker = await askerOf(c, scope, 'find')
    const query = draftsPrivate(c, queries.of(c.req.url))
    const plan = await planFind(scope, { asker, query, tree: queries.treeOf(query) })
    return listAnswer(c, type, query, plan, tagParts, scope.services)
  })
  app.post(root, async (c) => {
    const who = await callerOf(c, scope, 'create')
    const query = parseWriteQuery(c.req.url, type)
    const written = await create(scope, { who, query, body: () => readJsonBody(c, config.maxBodyBytes) })
    return writtenAnswer(c, type, written, query.fields)
  })
  allowOnly(app, root, ['GET', 'POST'])
  app.get(`${root}/:documentId`, async (c) => {
    const asker = await askerOf(c, scope, 'findOne')
    const query = draftsPrivate(c, parseReadQuery(c.req.url, type, scope.typeOf))
    const found = await findOne(scope, { asker, query, documentId: c.req.param('documentId'), wildcard: true })
    return foundAnswer(c, type, found, query.fields, config.rest.findOneShape, config.rest.defaultLimit)
  })
}

/** GET of a single type: its one document, in the locale asked. */
function singleRoutes(app: Hono, root: string, scope: Scope, documentId: string): void {
  const { type, services: { config } } = scope
  app.get(root, async (c) => {
    const asker = await askerOf(c, scope, 'find')
    const query = draftsPrivate(c, parseReadQuery(c.req.url, type, scope.typeOf))
    const found = await findOne(scope, { asker, query, documentId, wildcard: false })
    return foundAnswer(c, type, found, query.fields, 'object', config.rest.defaultLimit)
  })
}

/** PUT, DELETE and the publication actions on the document at `path`. */
function itemRoutes(app: Hono, path: string, scope: Scope, documentIdOf: (c: Context) => string): void {
  const { type, services: { config } } = scope
  const single = type.kind === 'single'
  app.put(path, async (c) => {
    const who = await callerOf(c, scope, 'update', 'createLocalization')
    const query = parseWriteQuery(c.req.url, type)
    const input = { who, query, documentId: documentIdOf(c), accepted: parseIfMatch(c.req.header('if-match')), body: () => readJsonBody(c, config.maxBodyBytes) }
    return writtenAnswer(c, type, await (single ? updateSingle : update)(scope, input), query.fields)
  })
  app.delete(path, async (c) => {
    await callerOf(c, scope, 'delete')
    const query = parseItemQuery(c.req.url, type)
    await deleteVersions(scope, { documentId: documentIdOf(c), query, accepted: parseIfMatch(c.req.header('if-match')) })
    return c.body(null, 204)
  })
  allowOnly(app, path, ['GET', 'PUT', 'DELETE'])
  if (!type.draftAndPublish) return
  for (const action of Object.keys(PUBLICATION_ACTIONS) as PublicationAction[]) {
    app.post(`${path}/actions/${action}`, async (c) => {
      await callerOf(c, scope, 'publish')
      const query = parseWriteQuery(c.req.url, type, true)
      const acted = await publication(scope, { action, documentId: documentIdOf(c), query, accepted: parseIfMatch(c.req.header('if-match')) })
      return actedAnswer(c, type, acted, query.fields)
    })
    allowOnly(app, `${path}/actions/${action}`, ['POST'])
  }
}

/**
 * The caller, 403 unless it holds one of `actions` (a refusal by a cached public role is checked
 * afresh first). The admin web interface's in-process requests carry their caller (TRUSTED_CALLER).
 */
async function callerOf(c: Context, scope: Scope, ...actions: string[]): Promise<Caller> {
  const trusted = c.get(TRUSTED_CALLER) as Caller | undefined
  if (trusted === undefined) return scope.services.access.authorize(c.req.header('authorization'), scope.type, ...actions)
  trusted.requireAny(scope.type, ...actions)
  return trusted
}

/** The caller holding one of `actions`, with its further checks (`findDrafts`) made the same way. */
async function askerOf(c: Context, scope: Scope, ...actions: string[]): Promise<Asker> {
  return { who: await callerOf(c, scope, ...actions), authorize: (...more) => callerOf(c, scope, ...more) }
}

/**
 * A read of drafts is never cached publicly (content-model.md §15): marks the answer private. Any
 * `publicationFilter` reads drafts too (it needs `findDrafts`), whatever the status.
 */
function draftsPrivate<Query extends { readonly status: string | undefined; readonly publicationFilter?: string | undefined }>(c: Context, query: Query): Query {
  if (query.status === 'draft' || query.publicationFilter !== undefined) c.set(PRIVATE_ANSWER as never, true as never)
  return query
}
