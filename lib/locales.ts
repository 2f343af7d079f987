// The locale registry as the API sees it: resolution of a requested code (registered,
// case-insensitive, default when omitted), and the administration operations. Reads are cached
// for `ttlMs`; this process's own writes refresh the cache at once, and a code the cache does not
// know is looked up afresh before it is refused.
import type { ContentType } from './content-types.js'
import { badRequest, conflict, notFound, queryDetails, serviceUnavailable } from './errors.js'
import type { Chains } from './storage/document-plan.js'
import { KEY_VERSION } from './storage/index-keys.js'
import type { LocaleGuard, LocaleGuards } from './storage/document-commit.js'
import { RegistryChanged, type LocaleEntry, type LocaleRegistry, type SettingsStore } from './storage/settings.js'
import { randomInt } from 'node:crypto'

/** BCP 47 shaped: a 2-3 letter language, then subtags of 2-8 letters or digits; at most 35 chars. */
const LOCALE_CODE = /^[A-Za-z]{2,3}(-[A-Za-z0-9]{2,8})*$/

export const WILDCARD = '*'

/**
 * Most locales a deployment registers (behaviour.md §8: at least 100). A write wider than one
 * DynamoDB transaction commits in parts (lib/storage/wide/), so this bounds what one request may
 * read at most instead: `locale=*` reads every locale's list, an admin page lists every locale.
 */
export const MAX_LOCALES = 200

/** True when `code` is shaped like a locale code we accept for registration. */
export function isLocaleCode(code: string): boolean {
  if (code.length > 35 || !LOCALE_CODE.test(code)) return false
  try {
    Intl.getCanonicalLocales(code)
    return true
  } catch {
    return false
  }
}

/** The display name of a locale added without one, e.g. `French (fr)`. */
export function defaultLocaleName(code: string): string {
  let language: string | undefined
  try {
    language = new Intl.DisplayNames(['en'], { type: 'language' }).of(code)
  } catch {
    language = undefined
  }
  return language === undefined || language === code ? code : `${language} (${code})`
}

function builtInRegistry(now: string): LocaleRegistry {
  return { rev: 0, epoch: 0, lastId: 1, servedReady: [], locales: [{ id: 1, name: 'English (en)', code: 'en', isDefault: true, createdAt: now, updatedAt: now, fallback: null }] }
}

/** The registered locale a code names, case-insensitively. */
const findCode = (locales: readonly LocaleEntry[], code: string) => locales.find((locale) => locale.code.toLowerCase() === code.toLowerCase())

/** The fallback chain of every locale that has a fallback: the locale, its fallback, and so on. */
export function chainsOf(locales: readonly LocaleEntry[]): Map<string, string[]> {
  const byCode = new Map(locales.map((locale) => [locale.code, locale]))
  const chains = new Map<string, string[]>()
  for (const locale of locales) {
    if (locale.fallback === null) continue
    const chain = [locale.code]
    for (let next = byCode.get(locale.fallback); next !== undefined && !chain.includes(next.code); next = next.fallback === null ? undefined : byCode.get(next.fallback)) {
      chain.push(next.code)
    }
    chains.set(locale.code, chain)
  }
  return chains
}

const sameChains = (a: Chains, b: Chains) => a.size === b.size && [...a].every(([code, chain]) => b.get(code)?.join() === chain.join())

export class LocaleService implements LocaleGuards {
  private cached: { registry: LocaleRegistry; until: number } | undefined
  private indexState: { state: Promise<{ trusted: boolean; drafts: boolean }>; until: number } | undefined
  private freshRead: Promise<LocaleRegistry> | undefined

  constructor(
    private readonly store: SettingsStore,
    private readonly types: readonly ContentType[],
    private readonly ttlMs: number,
    private readonly clock: () => number = Date.now,
  ) {}

  private async registry(fresh = false): Promise<LocaleRegistry> {
    const now = this.clock()
    if (!fresh && this.cached !== undefined && this.cached.until > now) return this.cached.registry
    const registry = (await this.store.getLocales()) ?? builtInRegistry(new Date(now).toISOString())
    // Reads may finish out of order: an older registry never replaces a newer one in the cache.
    if (this.cached === undefined || registry.rev >= this.cached.registry.rev) this.cached = { registry, until: now + this.ttlMs }
    return this.cached.registry
  }

  /**
   * True when the slot indexes were completely written with today's keys (KEY_VERSION): until a
   * reindex pass finishes after an upgrade or a change of the keys' inputs, sorted and filtered
   * lists read the documents themselves instead, within the scan budget. Cached like the registry.
   */
  async indexTrusted(): Promise<boolean> {
    return (await this.readIndexState()).trusted
  }

  /**
   * True when every published version of a draft & publish type has its draft: always on a table
   * created with draft & publish; on an upgraded one, once a reindex pass has created them. Until
   * then draft reads and `publicationFilter` answer 503 (published reads are unaffected).
   */
  async draftsReady(): Promise<boolean> {
    return (await this.readIndexState()).drafts
  }

  private readIndexState(): Promise<{ trusted: boolean; drafts: boolean }> {
    const now = this.clock()
    if (this.indexState === undefined || this.indexState.until <= now) {
      const state = this.store.getIndexVersion(KEY_VERSION).then(({ keyVersion, drafts }) => ({ trusted: keyVersion === KEY_VERSION, drafts }))
      this.indexState = { state, until: now + this.ttlMs }
      state.catch(() => (this.indexState = undefined))
    }
    return this.indexState.state
  }

  /** Records a completed reindex pass. */
  async recordIndexVersion(): Promise<void> {
    await this.store.putIndexVersion(KEY_VERSION)
    this.indexState = { state: Promise.resolve({ trusted: true, drafts: true }), until: this.clock() + this.ttlMs }
  }

  /** What writes check: the fallback epoch and chains of the cached registry. */
  async current(): Promise<LocaleGuard> {
    const registry = await this.registry()
    // Before the first write to a table that never stored a registry: record whether its indexes are complete.
    if (registry.rev === 0) await this.indexTrusted()
    return { epoch: registry.epoch, stored: registry.rev > 0, chains: chainsOf(registry.locales) }
  }

  /**
   * After a write's locale check failed: the registry read afresh. 400 when `locale` is no longer
   * registered; a registry never stored (or stored before registration items existed) is stored
   * now, which writes the items.
   */
  async refresh(locale: string): Promise<LocaleGuard> {
    let registry = await this.registry(true)
    if (!registry.locales.some((entry) => entry.code === locale)) await this.resolve(locale)
    if (registry.rev > 0 && !(await this.store.localeItemCurrent(locale, registry.epoch))) {
      // A registry stored before registration items existed (an upgraded table): store it again,
      // which writes them. Only the admin function may (the reindex does it first); elsewhere a 503.
      try {
        registry = await this.save(registry, { ...registry }, [], true)
      } catch (error) {
        if (!(error instanceof RegistryChanged)) throw serviceUnavailable()
        registry = await this.registry(true)
      }
    }
    return { epoch: registry.epoch, stored: registry.rev > 0, chains: chainsOf(registry.locales) }
  }

  /** The fallback chain of a registered locale (itself first), or undefined when it has no fallback. */
  async chainOf(code: string): Promise<readonly string[] | undefined> {
    return chainsOf((await this.registry()).locales).get(code)
  }

  /** True when `code`'s served list is complete for its current chain (else lists read the chain directly). */
  async servedReady(code: string): Promise<boolean> {
    return (await this.registry()).servedReady.includes(code)
  }

  /** The registry revision and epoch, for list validators (ETags). */
  async revision(): Promise<number> {
    return (await this.registry()).rev
  }

  /** Every registered locale, by id; with `fresh`, from the registry read afresh (which the cache then keeps). */
  async list(fresh = false): Promise<readonly LocaleEntry[]> {
    return (await this.registry(fresh)).locales
  }

  /** The default locale's code. */
  async defaultCode(): Promise<string> {
    const locales = await this.list()
    return (locales.find((locale) => locale.isDefault) ?? locales[0])?.code ?? 'en'
  }

  /**
   * The registered code for a requested one: the default when omitted, case-insensitive match
   * otherwise, `*` when `allowWildcard`. 400 with the available codes for anything else.
   */
  async resolve(requested: string | undefined, allowWildcard = false): Promise<string> {
    const locales = await this.list()
    if (requested === undefined) return this.defaultCode()
    if (requested === WILDCARD) {
      if (allowWildcard) return WILDCARD
      throw badRequest("locale '*' is only allowed on list reads, get one and delete", queryDetails('locale', 'locale', null, { value: requested }))
    }
    const match = findCode(locales, requested)
    if (match !== undefined) return match.code
    // Unknown to the cache: a locale added through another process since it was read must not
    // be refused, so the registry is read afresh once (concurrent misses share the read).
    const fresh = (await this.freshRegistry()).locales
    const added = findCode(fresh, requested)
    if (added !== undefined) return added.code
    const available = fresh.map((locale) => locale.code)
    throw badRequest(`Invalid locale '${requested}'. Available locales: ${available.join(', ')}`, queryDetails('locale', 'locale', null, { value: requested, available }))
  }

  /** The registry read afresh, one read shared by concurrent callers. */
  private freshRegistry(): Promise<LocaleRegistry> {
    this.freshRead ??= this.registry(true).finally(() => (this.freshRead = undefined))
    return this.freshRead
  }

  /** The codes a resolved locale stands for: all registered codes for `*`. */
  async expand(resolved: string): Promise<string[]> {
    return resolved === WILDCARD ? (await this.list()).map((locale) => locale.code) : [resolved]
  }

  /** Registers a locale (409 if a code matches case-insensitively). */
  async add(input: { code: string; name?: string; isDefault?: boolean; fallback?: string | null }): Promise<LocaleEntry> {
    return retrying(() => this.addOnce(input))
  }

  private async addOnce(input: { code: string; name?: string; isDefault?: boolean; fallback?: string | null }): Promise<LocaleEntry> {
    const registry = await this.registry(true)
    if (registry.locales.some((locale) => locale.code.toLowerCase() === input.code.toLowerCase())) {
      throw conflict(`Locale ${input.code} already exists`)
    }
    if (registry.locales.length >= MAX_LOCALES) throw badRequest(`A deployment holds at most ${MAX_LOCALES} locales`)
    const now = new Date(this.clock()).toISOString()
    const entry: LocaleEntry = {
      id: registry.lastId + 1,
      name: input.name ?? defaultLocaleName(input.code),
      code: input.code,
      isDefault: input.isDefault === true,
      createdAt: now,
      updatedAt: now,
      fallback: null,
    }
    const others = input.isDefault === true ? registry.locales.map((locale) => ({ ...locale, isDefault: false })) : registry.locales
    const withFallback = { ...entry, fallback: checkFallback([...others, entry], entry.code, input.fallback ?? null) }
    await this.save(registry, { ...registry, locales: [...others, withFallback], lastId: entry.id })
    return withFallback
  }

  /** Renames a locale or makes it the default (404 for an unknown code). */
  /** Renames a locale, makes it the default or sets its fallback (404 for an unknown code). */
  async update(code: string, input: { name?: string; isDefault?: boolean; fallback?: string | null }): Promise<LocaleEntry> {
    return retrying(() => this.updateOnce(code, input))
  }

  private async updateOnce(code: string, input: { name?: string; isDefault?: boolean; fallback?: string | null }): Promise<LocaleEntry> {
    const registry = await this.registry(true)
    const current = this.find(registry, code)
    const now = new Date(this.clock()).toISOString()
    const fallback = input.fallback === undefined ? current.fallback : checkFallback(registry.locales, current.code, input.fallback)
    const updated: LocaleEntry = { ...current, name: input.name ?? current.name, isDefault: input.isDefault === true || current.isDefault, updatedAt: now, fallback }
    const locales = registry.locales.map((locale) =>
      locale.code === current.code ? updated : input.isDefault === true && locale.isDefault ? { ...locale, isDefault: false, updatedAt: now } : locale,
    )
    await this.save(registry, { ...registry, locales })
    return updated
  }

  /** Removes a locale: 409 for the default one, or one that still holds versions of any type. */
  /** Removes a locale: 409 for the default one, one that still holds versions, or another's fallback. */
  async remove(code: string): Promise<void> {
    return retrying(() => this.removeOnce(code))
  }

  private async removeOnce(code: string): Promise<void> {
    const registry = await this.registry(true)
    const current = this.find(registry, code)
    if (current.isDefault) throw conflict('The default locale cannot be deleted')
    const dependent = registry.locales.filter((locale) => locale.fallback === current.code)
    if (dependent.length > 0) throw conflict(`Locale ${current.code} is the fallback of ${dependent.map((locale) => locale.code).join(', ')}`)
    const unusedBy = this.types.map((type) => ({ uid: type.uid, code: current.code }))
    await this.save(registry, { ...registry, locales: registry.locales.filter((locale) => locale.code !== current.code) }, unusedBy)
  }

  /** Marks the served lists complete after a reindex pass that ran entirely under `epoch`. */
  async markServedReady(epoch: number): Promise<boolean> {
    return retrying(() => this.markServedReadyOnce(epoch))
  }

  private async markServedReadyOnce(epoch: number): Promise<boolean> {
    const registry = await this.registry(true)
    if (registry.epoch !== epoch) return false
    await this.save(registry, { ...registry, servedReady: [...chainsOf(registry.locales).keys()] })
    return true
  }

  private find(registry: LocaleRegistry, code: string): LocaleEntry {
    const match = registry.locales.find((locale) => locale.code.toLowerCase() === code.toLowerCase())
    if (match === undefined) throw notFound()
    return match
  }

  /**
   * Stores `next`. When a fallback chain changes, the epoch moves (so writes planned with the old
   * chains fail their locale check and re-plan) and the changed locales' served lists are no
   * longer ready until the reindex rebuilds them.
   */
  private async save(previous: LocaleRegistry, next: Omit<LocaleRegistry, 'rev'>, unusedBy?: readonly { uid: string; code: string }[], rewriteItems = false): Promise<LocaleRegistry> {
    // The first registry save of a table comes before its first document: record then that its
    // (empty) indexes are complete, which later, with documents counted, could not be told.
    await this.indexTrusted()
    const before = chainsOf(previous.locales)
    const after = chainsOf(next.locales)
    const changed = !sameChains(before, after)
    const stillReady = next.servedReady.filter((code) => after.has(code) && before.get(code)?.join() === after.get(code)?.join())
    const registry = await this.store.putLocales(previous, changed ? { ...next, epoch: next.epoch + 1, servedReady: stillReady } : next, unusedBy, rewriteItems)
    this.cached = { registry, until: this.clock() + this.ttlMs }
    return registry
  }
}

/** A fallback for `code`: null, or a registered locale that does not lead back to `code` (400 otherwise). */
function checkFallback(locales: readonly LocaleEntry[], code: string, fallback: string | null): string | null {
  if (fallback === null) return null
  const target = locales.find((locale) => locale.code.toLowerCase() === fallback.toLowerCase())
  if (target === undefined) throw badRequest(`Invalid fallback '${fallback}': not a registered locale`, { key: 'fallback', value: fallback })
  const byCode = new Map(locales.map((locale) => [locale.code, locale]))
  for (let next: LocaleEntry | undefined = target; next !== undefined; next = next.fallback === null ? undefined : byCode.get(next.fallback)) {
    if (next.code === code) throw badRequest(`Invalid fallback '${fallback}': ${code} would fall back to itself`, { key: 'fallback', value: fallback })
  }
  return target.code
}

/** Attempts of an admin change before a 409: each lost race re-reads the registry and re-applies it. */
const REGISTRY_ATTEMPTS = 6

/** Runs an admin change again on a fresh registry when another change won the race. */
async function retrying<T>(change: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await change()
    } catch (error) {
      if (!(error instanceof RegistryChanged)) throw error
      if (attempt >= REGISTRY_ATTEMPTS) throw conflict('The locales were changed by concurrent requests; retry')
      await new Promise((resolve) => setTimeout(resolve, randomInt(5, 20 * attempt)))
    }
  }
}
