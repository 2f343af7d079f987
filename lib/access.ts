// Who is calling and what they may do. No `Authorization` header: the public role. A bearer
// access key: that API token, looked up by its HMAC (one GetItem). Anything else: 401. Access keys
// are stored only as HMAC-SHA-256 hashes under a server-side key of its own (never derived from
// the admin token); during a rotation of that key the previous ones still verify. Tokens and the
// public role are cached for `ttlMs`: a revoke or role change applies at once in the process that
// made it, and within `ttlMs` in every other one; a refusal by a cached public role is checked
// against a fresh read first, so a grant made elsewhere holds at once.
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto'
import type { ContentType } from './content-types.js'
import { badRequest, forbidden, notFound, unauthorized } from './errors.js'
import type { SettingsStore, StoredToken } from './storage/settings.js'

export type Action = 'find' | 'findOne' | 'create' | 'update' | 'delete' | 'createLocalization' | 'findDrafts' | 'publish'
export const LIST_LOCALES = 'plugin::i18n.locales.listLocales'
/** The upload API's actions (content-model.md §19), Strapi's names; the public role holds none by default. */
export const UPLOAD_ACTIONS = {
  upload: 'plugin::upload.content-api.upload',
  find: 'plugin::upload.content-api.find',
  findOne: 'plugin::upload.content-api.findOne',
  destroy: 'plugin::upload.content-api.destroy',
} as const
export const TOKEN_TYPES = ['read-only', 'full-access', 'custom'] as const
export type TokenType = (typeof TOKEN_TYPES)[number]
const DAY_MS = 86_400_000
/** A token's lifespans, as Strapi's (7, 30 or 90 days, in ms); null (unlimited) is the default. */
export const TOKEN_LIFESPANS = [7 * DAY_MS, 30 * DAY_MS, 90 * DAY_MS] as const

/** Every action name a token or role may hold, for the deployment's `types`. */
export function allActions(types: readonly ContentType[]): string[] {
  return [
    ...types.flatMap((type) => actionsOf(type).map((action) => `${type.uid}.${action}`)),
    LIST_LOCALES,
    ...Object.values(UPLOAD_ACTIONS),
  ]
}

/** A type's actions; draft & publish types add `findDrafts` (read drafts) and `publish` (the publication actions). */
function actionsOf(type: ContentType): Action[] {
  const base: Action[] = type.kind === 'collection'
    ? ['find', 'findOne', 'create', 'update', 'delete', 'createLocalization']
    : ['find', 'update', 'delete', 'createLocalization']
  return type.draftAndPublish ? [...base, 'findDrafts', 'publish'] : base
}

/**
 * The public role of a new deployment: read every type present at its first start, list locales.
 * It is stored then, so a type added later stays private until granted, as in Strapi.
 */
export function defaultPublicPermissions(types: readonly ContentType[]): string[] {
  return [
    ...types.flatMap((type) =>
      type.kind === 'collection' ? [`${type.uid}.find`, `${type.uid}.findOne`] : [`${type.uid}.find`],
    ),
    LIST_LOCALES,
  ]
}

function readOnlyPermissions(types: readonly ContentType[]): string[] {
  return [
    ...types.flatMap((type) => actionsOf(type).filter((a) => a === 'find' || a === 'findOne' || a === 'findDrafts').map((a) => `${type.uid}.${a}`)),
    LIST_LOCALES,
    UPLOAD_ACTIONS.find,
    UPLOAD_ACTIONS.findOne,
  ]
}

/** 400 unless every name is a known action; returns them deduplicated. */
export function checkActions(permissions: unknown, types: readonly ContentType[]): string[] {
  if (!Array.isArray(permissions) || permissions.some((p) => typeof p !== 'string')) {
    throw badRequest('permissions must be an array of action names')
  }
  const known = new Set(allActions(types))
  const unknown = permissions.filter((p) => !known.has(p as string))
  if (unknown.length > 0) throw badRequest(`Unknown action ${unknown.join(', ')}`, { unknown })
  return [...new Set(permissions as string[])]
}

/** The actions a caller holds. */
export class Caller {
  constructor(private readonly actions: ReadonlySet<string>) {}

  holds(type: ContentType | undefined, action: string): boolean {
    return this.actions.has(type === undefined ? action : `${type.uid}.${action}`)
  }

  /** 403 unless the caller holds at least one of `actions` on `type`. */
  requireAny(type: ContentType | undefined, ...actions: string[]): void {
    if (!actions.some((action) => this.holds(type, action))) throw forbidden()
  }
}

/**
 * The context key under which an in-process app (the admin web interface's, see
 * lib/admin-ui/api-client.ts) sets the caller its requests act as. Only code can set it: no
 * header, cookie or path of an HTTP request reaches it.
 */
export const TRUSTED_CALLER = 'trustedCaller'

/** A caller holding every action on `types`: the signed-in admin, through the admin web interface. */
export function fullAccessCaller(types: readonly ContentType[]): Caller {
  return new Caller(new Set(allActions(types)))
}

/** `Bearer <access key>`; the scheme is case-insensitive (RFC 9110). Keys are base64url. */
const BEARER = /^Bearer +([A-Za-z0-9_-]{20,256})$/i

/**
 * The keys of a token hash secret: whitespace-separated, the first hashes new tokens, the others
 * (previous keys, during a rotation) only verify existing ones.
 */
export function hashKeysOf(secret: string): string[] {
  const keys = secret.split(/\s+/).filter((key) => key !== '')
  if (keys.length === 0) throw new Error('The token hash secret is empty')
  return keys
}

export class AccessService {
  private publicRole: { caller: Caller; until: number } | undefined
  private freshPublicRole: Promise<Caller> | undefined
  private readonly tokens = new Map<string, { caller: Caller; until: number }>()
  /** Bumped by every revoke: a lookup begun before one must not cache what it read. */
  private revocations = 0
  private readonly hashKeys: readonly string[]

  constructor(
    private readonly store: SettingsStore,
    private readonly types: readonly ContentType[],
    hashSecret: string,
    private readonly ttlMs: number,
    private readonly clock: () => number = Date.now,
  ) {
    this.hashKeys = hashKeysOf(hashSecret)
  }

  /** The caller behind an `Authorization` header value (401 for an unknown or malformed one). */
  async identify(authorization: string | undefined): Promise<Caller> {
    if (authorization === undefined) return this.publicCaller()
    const match = BEARER.exec(authorization.trim())
    if (match === null) throw unauthorized()
    // One hash per key: the current one, then any previous one still accepted during a rotation.
    const hashes = this.hashKeys.map((key) => hashWith(key, match[1] as string))
    const now = this.clock()
    for (const hash of hashes) {
      const cached = this.tokens.get(hash)
      if (cached !== undefined && cached.until > now) return cached.caller
    }
    // An expired token is refused as Strapi refuses it; the cache never keeps one past its expiry.
    // A revoke during the lookup may have deleted what it read: read once more, and cache only a
    // read that no revoke overlapped.
    for (let attempt = 1; ; attempt++) {
      const generation = this.revocations
      const found = await this.lookUp(hashes)
      if (found === undefined) throw unauthorized()
      const expiry = found.token.expiresAt === null ? Infinity : Date.parse(found.token.expiresAt)
      if (expiry <= now) throw unauthorized('Token expired')
      const caller = new Caller(new Set(permissionsOf(found.token, this.types)))
      if (generation !== this.revocations && attempt < 2) continue
      if (generation !== this.revocations) return caller
      if (this.tokens.size > 1000) this.tokens.clear()
      this.tokens.set(found.hash, { caller, until: Math.min(now + this.ttlMs, expiry) })
      return caller
    }
  }

  /** The stored token under the first of `hashes` that has one (a previous key's only when the current key's has none). */
  private async lookUp(hashes: readonly string[]): Promise<{ token: StoredToken; hash: string } | undefined> {
    for (const hash of hashes) {
      const token = await this.store.getTokenByHash(hash)
      if (token !== undefined) return { token, hash }
    }
    return undefined
  }

  /**
   * 403 unless the caller behind `authorization` holds one of `actions` on `type`. A refusal by
   * a cached public role is checked against the role read afresh (once, shared by concurrent
   * refusals), so a grant made through another process holds at once; a grant from the cache
   * costs no read.
   */
  async authorize(authorization: string | undefined, type: ContentType | undefined, ...actions: string[]): Promise<Caller> {
    const caller = await this.identify(authorization)
    if (actions.some((action) => caller.holds(type, action))) return caller
    // A token's permissions never change (it is revoked and made anew), so its refusal stands.
    if (authorization !== undefined) throw forbidden()
    const fresh = await this.refreshPublicRole()
    fresh.requireAny(type, ...actions)
    return fresh
  }

  private async publicCaller(): Promise<Caller> {
    const now = this.clock()
    if (this.publicRole !== undefined && this.publicRole.until > now) return this.publicRole.caller
    return this.refreshPublicRole()
  }

  /** The public role read afresh; concurrent callers share one read. */
  private refreshPublicRole(): Promise<Caller> {
    this.freshPublicRole ??= (async () => {
      try {
        const now = this.clock()
        const permissions = await this.getPublicPermissions()
        const caller = new Caller(new Set(permissions))
        this.publicRole = { caller, until: now + this.ttlMs }
        return caller
      } finally {
        this.freshPublicRole = undefined
      }
    })()
    return this.freshPublicRole
  }

  private hash(accessKey: string): string {
    return hashWith(this.hashKeys[0] as string, accessKey)
  }

  /** Resolves when the table every access check reads can be read; 503 when it cannot. */
  async checkReachable(): Promise<void> {
    await this.store.ping()
  }

  async getPublicPermissions(): Promise<string[]> {
    return (await this.store.getPublicPermissions()) ?? defaultPublicPermissions(this.types)
  }

  /**
   * Stores the public role of a new deployment (read of the types present now) unless one is
   * stored: run at the start of the processes that may write settings (the local server, the
   * admin function), so a type added later is private until granted, as in Strapi.
   */
  async ensurePublicRole(): Promise<void> {
    if ((await this.store.getPublicPermissions()) === undefined) await this.store.initPublicPermissions(defaultPublicPermissions(this.types))
    this.publicRole = undefined
  }

  async setPublicPermissions(permissions: unknown): Promise<string[]> {
    const checked = checkActions(permissions, this.types)
    await this.store.putPublicPermissions(checked)
    this.publicRole = undefined
    return checked
  }

  /**
   * Creates a token; its 384-bit access key is returned this once and stored only as a hash.
   * 400 for an unknown action, or for actions on a type that does not take a list.
   */
  async createToken(input: { name: string; type: TokenType; description?: string; lifespan?: number | null; permissions?: unknown }) {
    const listed = checkActions(input.permissions ?? [], this.types)
    if (input.type !== 'custom' && listed.length > 0) {
      // Silently dropping them would leave the caller believing the token is limited to them.
      throw badRequest(`permissions apply to custom tokens only, not ${input.type}`)
    }
    const permissions = input.type === 'custom' ? listed : []
    const accessKey = randomBytes(48).toString('base64url')
    const now = this.clock()
    const lifespan = input.lifespan ?? null
    const token = await this.store.createToken({
      name: input.name, type: input.type, permissions, description: input.description ?? '', lifespan,
      createdAt: new Date(now).toISOString(), expiresAt: lifespan === null ? null : new Date(now + lifespan).toISOString(), hash: this.hash(accessKey),
    })
    return { ...publicView(token, this.types), accessKey }
  }

  async listTokens() {
    return (await this.store.listTokens()).map((token) => publicView(token, this.types))
  }

  /** Revokes a token at once in this process (other processes within the cache TTL). */
  async deleteToken(id: number): Promise<void> {
    const token = (await this.store.listTokens()).find((t) => t.id === id)
    if (token === undefined) throw notFound()
    // Bumped before the delete too: a lookup that reads the item from now on must not cache it.
    this.revocations++
    const deleted = await this.store.deleteToken(token.hash)
    this.revocations++
    this.tokens.delete(token.hash)
    if (!deleted) throw notFound()
  }
}

function permissionsOf(token: StoredToken, types: readonly ContentType[]): string[] {
  if (token.type === 'full-access') return allActions(types)
  if (token.type === 'read-only') return readOnlyPermissions(types)
  return [...token.permissions]
}

function publicView(token: StoredToken, types: readonly ContentType[]) {
  const { id, name, description, type, lifespan, expiresAt, createdAt } = token
  return { id, name, description, type, permissions: permissionsOf(token, types), lifespan, expiresAt, createdAt }
}

/**
 * Constant-time comparison of a presented admin token with the configured one. No configured
 * token (a function that serves no admin route) matches nothing.
 */
export function adminTokenMatches(presented: string | undefined, adminToken: string | undefined): boolean {
  if (presented === undefined || adminToken === undefined) return false
  const match = /^Bearer +(.+)$/i.exec(presented.trim())
  if (match === null) return false
  // Digests have a fixed length, so timingSafeEqual never leaks the configured token's length.
  const a = createHmac('sha256', 'admin').update(match[1] as string).digest()
  const b = createHmac('sha256', 'admin').update(adminToken).digest()
  return timingSafeEqual(a, b)
}

function hashWith(key: string, accessKey: string): string {
  return createHmac('sha256', key).update(accessKey).digest('hex')
}

/**
 * The key local runs hashed API access keys under before they had a key of their own (derived
 * from the admin token). Only to verify tokens of such a table, given as a previous key (docs/access.md); never used to hash a new token.
 */
export function legacyTokenHashKey(adminToken: string): string {
  return createHmac('sha256', adminToken).update('api-token-hash').digest('hex')
}
