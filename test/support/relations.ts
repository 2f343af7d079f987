// Relations and populate (content-model.md §16, §17) as a client sees them: the shipped types'
// clients on one full-access key, makers of authors, tags and articles, and the checks of a 400
// that writes nothing.
import { expect } from 'vitest'
import { createServerApp } from '../../lib/server-app.js'
import { createServices } from '../../lib/services.js'
import { createDocumentClient } from '../../lib/storage/client.js'
import { ADMIN_TOKEN, TOKEN_HASH_SECRET, createTestContext, json, requestsTo, tableSnapshot, type TestContext } from './context.js'
import { dataOf, draftClient, oneOf, type Doc, type DraftClient, type Requester } from './drafts.js'

type Overrides = NonNullable<Parameters<typeof createTestContext>[0]>

/**
 * Configuration overrides with the §16 limits (`api.rest.relations.maxLinks`,
 * `api.rest.populate.maxDocuments`), which the configuration type may not declare yet.
 */
export function relationLimits(limits: { maxLinks?: number; maxDocuments?: number }): Overrides {
  const rest: Record<string, unknown> = {}
  if (limits.maxLinks !== undefined) rest.relations = { maxLinks: limits.maxLinks }
  if (limits.maxDocuments !== undefined) rest.populate = { maxDocuments: limits.maxDocuments }
  return { rest } as unknown as Overrides
}

export interface Shop {
  readonly ctx: TestContext
  readonly key: string
  readonly articles: DraftClient
  readonly authors: DraftClient
  readonly tags: DraftClient
  readonly home: DraftClient
  /** A new author (en unless `locale`), its `data`. */
  author(name: string, locale?: string): Promise<Doc>
  /** A new tag (en unless `locale`), its `data`. */
  tag(name: string, locale?: string): Promise<Doc>
  /** A new article (published, en unless `query.locale`), its `data`. */
  article(data?: Doc, query?: Record<string, string>): Promise<Doc>
}

/** A fresh table with fr and de registered, a full-access key, and a client of each shipped type. */
export async function shop(overrides: Overrides = {}, locales: string[] = ['fr', 'de']): Promise<Shop> {
  const ctx = await createTestContext(overrides)
  const key = await ctx.token()
  if (locales.length > 0) await ctx.addLocales(...locales)
  const articles = draftClient(ctx, key)
  const authors = draftClient(ctx, key, '/api/authors')
  const tags = draftClient(ctx, key, '/api/tags')
  const home = draftClient(ctx, key, '/api/homepage')
  const localeOf = (locale?: string) => (locale === undefined ? {} : { locale })
  return {
    ctx, key, articles, authors, tags, home,
    author: async (name, locale) => dataOf(await authors.post({ name }, localeOf(locale))),
    tag: async (name, locale) => dataOf(await tags.post({ name }, localeOf(locale))),
    article: async (data = {}, query = {}) => dataOf(await articles.post({ title: 'An article', ...data }, query)),
  }
}

/** The one version a get one answers with `query` (a 200, or the test fails), through `via` when given. */
export async function getOne(client: DraftClient, documentId: string | undefined, query: Record<string, string> = {}, via?: Requester): Promise<Doc> {
  return oneOf(await client.get(documentId, query, {}, via))
}

/** documentIds of a populated to-many. */
export const idsOf = (docs: readonly Doc[] | null | undefined) => (docs ?? []).map((doc) => doc.documentId as string)

/** Every message of an error envelope: its own, and each of `details.errors` prefixed with its path. */
export function messagesOf(error: { message?: unknown; details?: { errors?: { path?: unknown[]; message?: unknown }[] } }): string[] {
  return [String(error.message), ...(error.details?.errors ?? []).map((entry) => `${(entry.path ?? []).join('.')}: ${String(entry.message)}`)]
}

/**
 * Sends a request that must be a 400 ValidationError with a message matching each of `patterns`
 * (its own message, or one in `details.errors` with its path), and checks the table is unchanged.
 */
export async function expect400(ctx: TestContext, send: () => Promise<Response>, ...patterns: RegExp[]): Promise<any> {
  const before = await tableSnapshot(ctx)
  const response = await send()
  const text = await response.text()
  expect({ status: response.status, text: response.status === 400 ? '' : text }).toEqual({ status: 400, text: '' })
  const { error } = JSON.parse(text)
  expect(error).toMatchObject({ status: 400, name: 'ValidationError' })
  const messages = messagesOf(error)
  for (const pattern of patterns) expect({ messages, matches: messages.some((message) => pattern.test(message)) }).toEqual({ messages, matches: true })
  expect(await tableSnapshot(ctx)).toBe(before)
  return error
}

/** As expect400, for query errors: `details` names `param` (source "query"). */
export async function expectQuery400(ctx: TestContext, send: () => Promise<Response>, param: string, ...patterns: RegExp[]): Promise<any> {
  const error = await expect400(ctx, send, ...patterns)
  expect(error.details).toMatchObject({ source: 'query', param })
  return error
}

/** The message of a missing target (§16), as a pattern. */
export const notFoundIn = (documentId: string, locale: string) =>
  new RegExp(`Document with id "${documentId}", locale "${locale}" not found`)

/** The status and error of a response that is not a 2xx, for tables of cases. */
export async function statusOf(response: Response): Promise<{ status: number; error?: unknown }> {
  if (response.ok) return { status: response.status }
  return { status: response.status, error: (await json(response)).error }
}

export type Call = { command: string; input: any }

/** Another process on the same table, its DynamoDB calls recorded in `calls`; it caches the locale registry, role and tokens (as in production). */
export function countedPeer(ctx: TestContext) {
  const db = createDocumentClient({ region: 'us-east-1', endpoint: ctx.endpoint })
  const calls: Call[] = []
  db.middlewareStack.add((next: any, context: any) => async (args: any) => {
    calls.push({ command: context.commandName, input: args.input })
    return next(args)
  }, { step: 'initialize', name: 'count-calls' })
  const services = createServices(db, { ...ctx.config, cacheTtlMs: 3_600_000 }, { adminToken: ADMIN_TOKEN, tokenHashSecret: TOKEN_HASH_SECRET }, ctx.services.types)
  return { db, calls, request: requestsTo(createServerApp(services)) }
}

/** The keys a call reads (GetItem's, or every key of a BatchGetItem). */
export const keysOf = (call: Call): { documentId: string; locale: string }[] =>
  call.command === 'GetItemCommand' ? [call.input.Key] : call.command === 'BatchGetItemCommand' ? Object.values(call.input.RequestItems as Record<string, { Keys: any[] }>).flatMap((each) => each.Keys) : []
