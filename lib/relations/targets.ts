// Which stored list a relation's targets are read from, and the check that a write's targets exist
// (content-model.md §16: a write never leaves a link to a missing document).
import { typeByUid, type ContentType } from '../content-types.js'
import { badRequest } from '../errors.js'
import type { Services } from '../services.js'
import { versionList, type Status } from '../table.js'
import { connected, type LinkOp } from './write.js'
import { componentLinks } from '../components/entries.js'
import type { Attributes } from '../body.js'

/** The target type of a relation of `type`. */
export function targetOf(services: Pick<Services, 'types'>, type: ContentType, name: string): ContentType {
  const relation = type.relations[name]
  const target = relation === undefined ? undefined : typeByUid(services.types, relation.target)
  if (target === undefined) throw new Error(`${type.uid}.${name}: no target type`)
  return target
}

/**
 * The list of `target`'s versions a reader in `locale` and `status` sees: its own status where it
 * has draft & publish (published otherwise), in `locale`, or the default locale for a type that is
 * not localized (its one version).
 */
export function listFor(target: ContentType, locale: string, status: Status, defaultLocale: string): string {
  return versionList(target.localized ? locale : defaultLocale, target.draftAndPublish ? status : 'published')
}

/** A target a write links: the document, its type, the locale it must exist in, and the attribute path that names it. */
interface WantedTarget {
  readonly target: ContentType
  readonly documentId: string
  readonly code: string
  readonly path: readonly (string | number)[]
}

/**
 * 400 `Document with id "<id>", locale "<code>" not found` unless every target `ops` connect exists
 * in its locale (the version's, unless the target names one): a draft & publish target by its
 * draft, which every version has.
 */
export async function checkTargets(services: Services, type: ContentType, ops: Readonly<Record<string, LinkOp>>, locale: string): Promise<void> {
  const defaultLocale = await services.locales.defaultCode()
  const wanted = (await Promise.all(Object.entries(ops).map(([name, op]) => {
    const target = targetOf(services, type, name)
    return Promise.all(connected(op).map(async ({ documentId, locale: named }) => ({
      target, documentId, path: [name], code: !target.localized ? defaultLocale : named === undefined ? locale : await services.locales.resolve(named),
    })))
  }))).flat()
  await requireTargets(services, wanted)
}

/**
 * checkTargets for the relations inside the components of `attributes`: each link's target in
 * `locale` (or the locale it names), the error at the link's full path.
 */
export async function checkComponentTargets(services: Services, type: ContentType, attributes: Attributes, locale: string): Promise<void> {
  const links = componentLinks(type, attributes)
  if (links.length === 0) return
  const defaultLocale = await services.locales.defaultCode()
  await requireTargets(services, await Promise.all(links.map(async (link) => {
    const target = typeByUid(services.types, link.target) as ContentType
    return { target, documentId: link.documentId, path: link.path, code: !target.localized ? defaultLocale : link.locale === undefined ? locale : await services.locales.resolve(link.locale) }
  })))
}

/** 400 naming the first of `wanted` that does not exist: every target type's keys read in one BatchGetItem (per 100 keys). */
async function requireTargets(services: Services, wanted: readonly WantedTarget[]): Promise<void> {
  if (wanted.length === 0) return
  const byType = new Map<ContentType, WantedTarget[]>()
  for (const each of wanted) byType.set(each.target, [...(byType.get(each.target) ?? []), each])
  const found = new Set<string>()
  const read = services.documents.batchReader()
  await Promise.all([...byType].map(async ([target, entries]) => {
    const keys = new Map(entries.map(({ documentId, code }) => [`${documentId} ${code}`, { documentId, list: versionList(code, target.draftAndPublish ? 'draft' : 'published') }]))
    for (const version of await read(target, [...keys.values()])) found.add(`${target.uid} ${version.documentId} ${version.locale}`)
  }))
  const missing = wanted.find(({ target, documentId, code }) => !found.has(`${target.uid} ${documentId} ${code}`))
  if (missing === undefined) return
  const message = `Document with id "${missing.documentId}", locale "${missing.code}" not found`
  throw badRequest(message, { errors: [{ path: missing.path, message, name: 'ValidationError' }] })
}
