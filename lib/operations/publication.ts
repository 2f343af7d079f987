// The publication actions (content-model.md §15): publish, unpublish and discard a draft, on one
// locale's versions or on every locale with `*` (skipping the locales an action does not apply to;
// 404 only when none), in one transaction.
import { discardDraft, publishVersion, unpublishVersion, versionIn, type Change } from '../document-changes.js'
import { ApiError, notFound, preconditionFailed } from '../errors.js'
import { WILDCARD } from '../locales.js'
import type { WriteQuery } from '../query/parse.js'
import type { DocumentState } from '../storage/document-plan.js'
import type { Version } from '../storage/items.js'
import type { ContentType } from '../content-types.js'
import { accepts, type Accepted } from './conditions.js'
import { loadDocument, localeOf, type Scope } from './context.js'

type Act = (type: ContentType, versions: readonly Version[], locale: string, newId: number | undefined, now: string) => Change

/** The publication actions by route name: the change each makes to one locale (`newId` for a first publication). */
export const PUBLICATION_ACTIONS = {
  publish: (type, versions, locale, newId, now) => publishVersion(type, versions, locale, newId, now),
  unpublish: (_type, versions, locale) => unpublishVersion(versions, locale),
  'discard-draft': (type, versions, locale, _newId, now) => discardDraft(type, versions, locale, now),
} satisfies Record<string, Act>

export type PublicationAction = keyof typeof PUBLICATION_ACTIONS

export interface PublicationInput {
  readonly action: PublicationAction
  readonly documentId: string
  readonly query: WriteQuery
  /** The versions If-Match accepts: it names the draft (`*` only, with `locale=*`). */
  readonly accepted: Accepted
}

/** What an action left: the version of the locale asked, or of each locale acted on for `*`. */
export interface Acted {
  readonly wildcard: boolean
  readonly versions: readonly Version[]
}

/** Runs a publication action: 404 when no locale asked has a draft, 412 when If-Match does not hold. */
export async function publication(scope: Scope, input: PublicationInput): Promise<Acted> {
  const { type, services: { documents } } = scope
  const { accepted, documentId } = input
  const locale = await localeOf(scope, input.query.locale, true)
  const state = await loadDocument(scope, documentId)
  if (locale === WILDCARD && accepted !== undefined && accepted !== '*') throw preconditionFailed()
  const codes = locale === WILDCARD ? [...new Set(state.versions.map((version) => version.locale))] : [locale]
  // A locale without a draft is a 404 before anything moves, the id sequence included.
  if (codes.every((code) => versionIn(state.versions, code, 'draft') === undefined)) throw notFound()
  const firstPublications = codes.filter((code) => versionIn(state.versions, code, 'draft') !== undefined && versionIn(state.versions, code, 'published') === undefined).length
  // An incomplete draft (§15) is a 400 before the id sequence moves: each publication tried first.
  if (input.action === 'publish') for (const code of codes) if (versionIn(state.versions, code, 'draft') !== undefined) publishVersion(type, state.versions, code, 0, new Date(0).toISOString())
  const ids = input.action === 'publish' ? await documents.nextIds(type, firstPublications) : []
  const versions = await documents.write(type, documentId, codes[0] as string, actOnLocales(type, input, codes, ids, locale === WILDCARD), state)
  return { wildcard: locale === WILDCARD, versions }
}

/** The change of one attempt: the action on each locale of `codes`, each first publication taking the next of `ids`. */
function actOnLocales(type: ContentType, input: PublicationInput, codes: readonly string[], ids: readonly number[], wildcard: boolean) {
  const act: Act = PUBLICATION_ACTIONS[input.action]
  const { accepted } = input
  return (current: DocumentState, now: string) => {
    let versions = current.versions
    let fresh = 0
    const acted: Version[] = []
    for (const code of codes) {
      const draft = versionIn(versions, code, 'draft')
      if (accepted !== undefined && accepted !== '*' && !accepts(accepted, draft)) throw preconditionFailed()
      let change: Change
      try {
        const newId = versionIn(versions, code, 'published') === undefined ? ids[fresh] : undefined
        change = act(type, versions, code, newId, now)
        if (newId !== undefined && change.versions !== versions) fresh += 1
      } catch (error) {
        if (wildcard && error instanceof ApiError && error.status === 404) continue
        throw error
      }
      versions = change.versions
      acted.push(change.result)
    }
    if (acted.length === 0) throw notFound()
    return { versions, result: acted }
  }
}
