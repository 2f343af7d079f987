// The locale registry as the API sees it: resolution of a requested code (registered,
// case-insensitive, default when omitted), and the administration operations. Reads are cached
// for `ttlMs`; this process's own writes refresh the cache at once.
import { contentTypes } from './content-types.js'
import { badRequest, conflict, notFound, queryDetails } from './errors.js'
import type { LocaleEntry, LocaleRegistry, SettingsStore } from './storage/settings.js'

/** BCP 47 shaped: a 2-3 letter language, then subtags of 2-8 letters or digits; at most 35 chars. */
const LOCALE_CODE = /^[A-Za-z]{2,3}(-[A-Za-z0-9]{2,8})*$/

export const WILDCARD = '*'

/**
 * Most locales a deployment registers: a document's versions must fit in one transaction
 * (DynamoDB takes 100 items; deleting every version writes two items per version).
 */
export const MAX_LOCALES = 50

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
  return { rev: 0, locales: [{ id: 1, name: 'English (en)', code: 'en', isDefault: true, createdAt: now, updatedAt: now }] }
}

export class LocaleService {
  private cached: { registry: LocaleRegistry; until: number } | undefined

  constructor(
    private readonly store: SettingsStore,
    private readonly ttlMs: number,
    private readonly clock: () => number = Date.now,
  ) {}

  private async registry(fresh = false): Promise<LocaleRegistry> {
    const now = this.clock()
    if (!fresh && this.cached !== undefined && this.cached.until > now) return this.cached.registry
    const registry = (await this.store.getLocales()) ?? builtInRegistry(new Date(now).toISOString())
    this.cached = { registry, until: now + this.ttlMs }
    return registry
  }

  /** Every registered locale, by id. */
  async list(): Promise<readonly LocaleEntry[]> {
    return (await this.registry()).locales
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
    const match = locales.find((locale) => locale.code.toLowerCase() === requested.toLowerCase())
    if (match !== undefined) return match.code
    const available = locales.map((locale) => locale.code)
    throw badRequest(`Invalid locale '${requested}'. Available locales: ${available.join(', ')}`, queryDetails('locale', 'locale', null, { value: requested, available }))
  }

  /** The codes a resolved locale stands for: all registered codes for `*`. */
  async expand(resolved: string): Promise<string[]> {
    return resolved === WILDCARD ? (await this.list()).map((locale) => locale.code) : [resolved]
  }

  /** Registers a locale (409 if a code matches case-insensitively). */
  async add(input: { code: string; name?: string; isDefault?: boolean }): Promise<LocaleEntry> {
    const registry = await this.registry(true)
    if (registry.locales.some((locale) => locale.code.toLowerCase() === input.code.toLowerCase())) {
      throw conflict(`Locale ${input.code} already exists`)
    }
    if (registry.locales.length >= MAX_LOCALES) throw badRequest(`A deployment holds at most ${MAX_LOCALES} locales`)
    const now = new Date(this.clock()).toISOString()
    const entry: LocaleEntry = {
      id: Math.max(0, ...registry.locales.map((locale) => locale.id)) + 1,
      name: input.name ?? defaultLocaleName(input.code),
      code: input.code,
      isDefault: input.isDefault === true,
      createdAt: now,
      updatedAt: now,
    }
    const others = input.isDefault === true ? registry.locales.map((locale) => ({ ...locale, isDefault: false })) : registry.locales
    await this.save(registry, [...others, entry])
    return entry
  }

  /** Renames a locale or makes it the default (404 for an unknown code). */
  async update(code: string, input: { name?: string; isDefault?: boolean }): Promise<LocaleEntry> {
    const registry = await this.registry(true)
    const current = this.find(registry, code)
    const now = new Date(this.clock()).toISOString()
    const updated: LocaleEntry = { ...current, name: input.name ?? current.name, isDefault: input.isDefault === true || current.isDefault, updatedAt: now }
    const locales = registry.locales.map((locale) =>
      locale.code === current.code ? updated : input.isDefault === true && locale.isDefault ? { ...locale, isDefault: false, updatedAt: now } : locale,
    )
    await this.save(registry, locales)
    return updated
  }

  /** Removes a locale: 409 for the default one, or one that still holds versions of any type. */
  async remove(code: string): Promise<void> {
    const registry = await this.registry(true)
    const current = this.find(registry, code)
    if (current.isDefault) throw conflict('The default locale cannot be deleted')
    const unusedBy = Object.values(contentTypes).map((type) => ({ uid: type.uid, code: current.code }))
    await this.save(registry, registry.locales.filter((locale) => locale.code !== current.code), unusedBy)
  }

  private find(registry: LocaleRegistry, code: string): LocaleEntry {
    const match = registry.locales.find((locale) => locale.code.toLowerCase() === code.toLowerCase())
    if (match === undefined) throw notFound()
    return match
  }

  private async save(previous: LocaleRegistry, locales: readonly LocaleEntry[], unusedBy?: readonly { uid: string; code: string }[]) {
    const registry = await this.store.putLocales(previous, locales, unusedBy)
    this.cached = { registry, until: this.clock() + this.ttlMs }
  }
}
