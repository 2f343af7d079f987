// A test context: a fresh table in this worker's DynamoDB Local, the services and the server app on
// it, and helpers to call the app as a client would (real HTTP requests through app.request()).
import { randomBytes } from 'node:crypto'
import { expect } from 'vitest'
import { dynamoEndpoint } from './dynamo-endpoint.js'
import type { Hono } from 'hono'
import { QueryCommand, ScanCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb'
import type { DynamoDBClientConfig } from '@aws-sdk/client-dynamodb'
import { parseConfig, type Config } from '../../lib/config.js'
import { HEAD, META, parseList, versionList } from '../../lib/table.js'
import { itemToVersion, type Version } from '../../lib/storage/items.js'
import { publicationState } from '../../lib/storage/document-plan.js'
import { linkKeys } from '../../lib/storage/links.js'
import { createServerApp } from '../../lib/server-app.js'
import { createServices, type Services } from '../../lib/services.js'
import { createDocumentClient } from '../../lib/storage/client.js'
import { ensureTable } from '../../lib/storage/schema.js'
import { assertLoopback } from './loopback.js'
import { shippedTypes } from './types.js'
import type { ContentType } from '../../lib/content-types.js'
import type { BlobStore } from '../../lib/media/blobs.js'

export const ADMIN_TOKEN = 'test-admin-token-0123456789'
/** The API token hash key of every test context: a secret of its own, as in production. */
export const TOKEN_HASH_SECRET = 'test-token-hash-key-0123456789abcdefghij'

export interface TestContext {
  readonly app: Hono
  readonly services: Services
  readonly db: DynamoDBDocumentClient
  readonly config: Config
  readonly endpoint: string
  /** Sends a request; `body` objects are sent as JSON. */
  request(method: string, path: string, options?: { body?: unknown; token?: string; headers?: Record<string, string> }): Promise<Response>
  /** Sends an admin API request with the admin token. */
  admin(method: string, path: string, body?: unknown): Promise<Response>
  /** A fresh API token's access key of the given type (default full-access). */
  token(type?: 'read-only' | 'full-access' | 'custom', permissions?: string[]): Promise<string>
  /** Registers locales (codes) through the admin API. */
  addLocales(...codes: string[]): Promise<void>
}

/** A context on a new, empty table. `overrides` adjust the configuration. */
export async function createTestContext(
  overrides: Partial<Omit<Config, 'rest'>> & { rest?: Partial<Config['rest']> } = {},
  clientConfig: Partial<DynamoDBClientConfig> = {},
  types: readonly ContentType[] = shippedTypes,
  blobs?: BlobStore,
): Promise<TestContext> {
  const endpoint = dynamoEndpoint()
  assertLoopback(endpoint)
  const config = parseConfig({ tableName: `test-${randomBytes(6).toString('hex')}`, cacheTtlMs: 0, ...overrides, rest: { ...overrides.rest } })
  const db = createDocumentClient({ region: 'us-east-1', endpoint }, clientConfig)
  const secrets = { adminToken: ADMIN_TOKEN, tokenHashSecret: TOKEN_HASH_SECRET }
  // The table and the first start's public role, through a plain client (`clientConfig` may point elsewhere).
  const setup = createDocumentClient({ region: 'us-east-1', endpoint })
  // No change stream unless a test turns it on (withStream): on DynamoDB Local every item a call
  // touches on a table whose stream starts after the worker's earlier files' records costs a scan
  // of those records (lib/storage/schema.ts, ensureTable).
  await ensureTable(setup, config.tableName, { stream: false })
  await createServices(setup, config, secrets, types).access.ensurePublicRole()
  const services = createServices(db, config, secrets, types, blobs)
  const app = createServerApp(services, () => undefined)

  const request = requestsTo(app)
  const admin: TestContext['admin'] = (method, path, body) =>
    request(method, path, { body, headers: { Authorization: `Bearer ${ADMIN_TOKEN}` } })
  const token: TestContext['token'] = async (type = 'full-access', permissions) => {
    const response = await admin('POST', '/admin/api-tokens', { name: `t-${randomBytes(4).toString('hex')}`, type, permissions })
    if (response.status !== 201) throw new Error(`token creation failed: ${response.status} ${await response.text()}`)
    return ((await response.json()) as { data: { accessKey: string } }).data.accessKey
  }
  const addLocales: TestContext['addLocales'] = async (...codes) => {
    for (const code of codes) {
      const response = await admin('POST', '/admin/i18n/locales', { code })
      if (response.status !== 201) throw new Error(`locale ${code}: ${response.status} ${await response.text()}`)
    }
  }
  return { app, services, db, config, endpoint, request, admin, token, addLocales }
}

/** Turns on the change stream of `ctx`'s table, for a test that reads it (webhooks); through a plain client, as the table was made. */
export async function withStream(ctx: TestContext): Promise<TestContext> {
  await ensureTable(createDocumentClient({ region: 'us-east-1', endpoint: ctx.endpoint }), ctx.config.tableName)
  return ctx
}

/** Sends requests to `app` as a client would: `body` objects as JSON, `token` as a bearer. */
export function requestsTo(app: Hono): TestContext['request'] {
  return (method, path, options = {}) => {
    const headers: Record<string, string> = { ...options.headers }
    if (options.token !== undefined) headers.Authorization = `Bearer ${options.token}`
    let body: string | undefined
    if (options.body !== undefined) {
      body = typeof options.body === 'string' ? options.body : JSON.stringify(options.body)
      headers['Content-Type'] ??= 'application/json'
    }
    return Promise.resolve(app.request(path, { method, headers, body }))
  }
}

/**
 * A second process on the same table: its own services and caches (e.g. a large cacheTtlMs), same
 * admin token; on `db`, or a DynamoDB client of its own to hold or count its calls alone. No
 * request log, as the context's own app (a line per request would fill the test output).
 */
export function createPeer(ctx: TestContext, overrides: Partial<Pick<Config, 'cacheTtlMs' | 'rest'>> = {}, db: DynamoDBDocumentClient = ctx.db): Pick<TestContext, 'app' | 'request'> {
  const services = createServices(db, { ...ctx.config, ...overrides }, { adminToken: ADMIN_TOKEN, tokenHashSecret: TOKEN_HASH_SECRET }, ctx.services.types)
  const app = createServerApp(services, () => undefined)
  return { app, request: requestsTo(app) }
}

/**
 * A process to seed a test's documents through HTTP, quicker than the context itself: its settings
 * (locales, tokens, roles) cached as a deployment caches them, where a context (cacheTtlMs 0) reads
 * them again on every request; a DynamoDB client of its own (the test's middleware never sees its
 * calls) and no request log. Make it after the locales and tokens it uses; never the process under test.
 */
export function createSeeder(ctx: TestContext): Pick<TestContext, 'request'> {
  const db = createDocumentClient({ region: 'us-east-1', endpoint: ctx.endpoint })
  const services = createServices(db, { ...ctx.config, cacheTtlMs: 60_000 }, { adminToken: ADMIN_TOKEN, tokenHashSecret: TOKEN_HASH_SECRET }, ctx.services.types)
  return { request: requestsTo(createServerApp(services, () => undefined)) }
}

/**
 * Holds the first `count` writes to each of `documentIds` (transactions and single updates) until
 * all `count` have arrived for that document, then releases them together. Reads are never held.
 */
export function holdWrites(ctx: TestContext, documentIds: string | string[], count: number, timeoutMs = 5000): void {
  const groups = new Map([documentIds].flat().map((documentId) => [documentId, { held: [] as (() => void)[], open: false }]))
  const release = (group: { held: (() => void)[]; open: boolean }) => {
    group.open = true
    group.held.splice(0).forEach((resume) => resume())
  }
  setTimeout(() => groups.forEach(release), timeoutMs).unref() // never hang: an unmet barrier shows up as a failed assertion
  ctx.db.middlewareStack.add((next: any, context: any) => async (args: any) => {
    const write = ['TransactWriteItemsCommand', 'UpdateItemCommand', 'DeleteItemCommand', 'PutItemCommand'].includes(context.commandName)
    const input = write ? JSON.stringify(args.input) : ''
    const group = [...groups].find(([documentId]) => input.includes(documentId))?.[1]
    if (group !== undefined && !group.open) {
      await new Promise<void>((resume) => {
        group.held.push(resume)
        if (group.held.length >= count) release(group)
      })
    }
    return next(args)
  }, { step: 'initialize', name: 'barrier', override: true })
}

/** The JSON body of a response, typed loosely for assertions. */
export async function json(response: Response): Promise<any> {
  return response.json()
}

/** Every item of the context's own table, strongly consistent, ordered by key (Scan is fine in tests). */
export async function scanTable(ctx: TestContext): Promise<Record<string, any>[]> {
  const items: Record<string, any>[] = []
  let start: Record<string, unknown> | undefined
  do {
    const page = await ctx.db.send(new ScanCommand({ TableName: ctx.config.tableName, ConsistentRead: true, ExclusiveStartKey: start }))
    items.push(...(page.Items ?? []))
    start = page.LastEvaluatedKey
  } while (start !== undefined)
  return items.sort((a, b) => `${a.documentId}|${a.locale}`.localeCompare(`${b.documentId}|${b.locale}`))
}

/** Every item of one document's partition (versions, served copies, head), strongly consistent, past 1 MB too. */
export async function documentItems(ctx: TestContext, documentId: string): Promise<Record<string, any>[]> {
  const items: Record<string, any>[] = []
  let start: Record<string, unknown> | undefined
  do {
    const page = await ctx.db.send(new QueryCommand({ TableName: ctx.config.tableName, KeyConditionExpression: 'documentId = :d', ExpressionAttributeValues: { ':d': documentId }, ConsistentRead: true, ExclusiveStartKey: start }))
    items.push(...(page.Items ?? []))
    start = page.LastEvaluatedKey
  } while (start !== undefined)
  return items
}

/** The whole table as one comparable string: equal before and after means nothing was written. */
export async function tableSnapshot(ctx: TestContext): Promise<string> {
  return JSON.stringify((await scanTable(ctx)).map((item) => JSON.stringify(item, Object.keys(item).sort())).sort())
}

/**
 * The storage invariants no race or crash may break: every version and served copy is complete (an
 * update never creates a bare item), each list's count item equals its number of items (versions
 * per locale and status, served copies per `~<list>`, versions per publication state partition
 * `<list>#<state>`), every document with items has its head, every locale that holds versions is
 * registered (has its `#locale` item), every published version has its draft (draft & publish),
 * and each version's stored publication state is the one its document's versions give.
 */
export async function expectStorageInvariants(ctx: TestContext): Promise<void> {
  const items = await scanTable(ctx)
  const documents = items.filter((item) => !String(item.documentId).startsWith('#') && item.locale !== HEAD)
  for (const item of documents) {
    expect(item).toMatchObject({ listKey: expect.any(String), contentType: expect.any(String), id: expect.any(Number), rev: expect.any(Number), createdAt: expect.any(String) })
  }
  const perList = new Map<string, number>()
  for (const item of documents) perList.set(item.listKey, (perList.get(item.listKey) ?? 0) + 1)
  for (const item of documents.filter((entry) => entry.ps !== undefined)) perList.set(item.ps, (perList.get(item.ps) ?? 0) + 1)
  for (const item of items.filter((entry) => entry.documentId === META.count)) {
    expect({ list: item.locale, n: Number(item.n) }).toEqual({ list: item.locale, n: perList.get(item.locale) ?? 0 })
    perList.delete(item.locale)
  }
  expect([...perList.keys()]).toEqual([]) // every list with items has its count item
  const heads = new Set(items.filter((item) => item.locale === HEAD).map((item) => item.documentId))
  expect([...new Set(documents.map((item) => item.documentId))].filter((documentId) => !heads.has(documentId))).toEqual([])
  const registered = new Set(items.filter((item) => item.documentId === META.locale).map((item) => item.locale))
  const own = documents.filter((item) => !String(item.locale).startsWith('~'))
  const versionLocales = new Set(own.map((item) => parseList(String(item.locale)).locale))
  expect([...versionLocales].filter((locale) => !registered.has(locale))).toEqual([]) // never a version in an unregistered locale
  const keyOf = (item: Record<string, unknown>, list: string) => `${String(item.documentId)}|${list}`
  const ownKeys = new Set(own.map((item) => keyOf(item, String(item.locale))))
  // Each document's versions, read once (a document in 100 locales has 200).
  const versionsOf = new Map<string, Version[]>()
  const versionOf = new Map<Record<string, unknown>, Version>()
  for (const item of own) {
    const type = shippedTypes.find((candidate) => candidate.uid === item.contentType)
    if (type === undefined) continue
    const version = itemToVersion(type, item)
    versionOf.set(item, version)
    const key = `${String(item.documentId)}|${String(item.contentType)}`
    const versions = versionsOf.get(key)
    if (versions === undefined) versionsOf.set(key, [version])
    else versions.push(version)
  }
  for (const item of own.filter((entry) => entry.ps !== undefined)) {
    const { locale, status } = parseList(String(item.locale))
    // Every published version has its draft, and the stored state is the one the pair gives.
    if (status === 'published') expect(ownKeys.has(keyOf(item, versionList(locale, 'draft')))).toBe(true)
    const version = versionOf.get(item)
    if (version === undefined) continue
    const versions = versionsOf.get(`${String(item.documentId)}|${String(item.contentType)}`) ?? []
    expect({ item: keyOf(item, String(item.locale)), state: String(item.ps).slice(-1) }).toEqual({ item: keyOf(item, String(item.locale)), state: publicationState(versions, version) })
  }
  expectLinksIndexed(items, versionOf)
}

/** The index of links by target holds every link a version holds (it may hold more: lib/storage/links.ts). */
export function expectLinksIndexed(items: readonly Record<string, any>[], read: ReadonlyMap<Record<string, unknown>, Version> = new Map(), types: readonly ContentType[] = shippedTypes): void {
  const indexed = new Set(items.filter((item) => String(item.documentId).startsWith('#link:')).map((item) => `${String(item.documentId)}\u0000${String(item.locale)}`))
  const own = items.filter((item) => !String(item.documentId).startsWith('#') && item.locale !== HEAD && !String(item.locale).startsWith('~'))
  for (const type of types) {
    const versions = own.filter((item) => item.contentType === type.uid).map((item) => read.get(item) ?? itemToVersion(type, item))
    for (const [key] of linkKeys(type, versions)) expect({ link: key, indexed: indexed.has(key) }).toEqual({ link: key, indexed: true })
  }
}
