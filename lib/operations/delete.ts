// Delete (content-api.md): one locale's versions (its draft and published version), or every
// version with `locale=*`, in one transaction.
import { versionIn } from '../document-changes.js'
import { ApiError, notFound, preconditionFailed } from '../errors.js'
import { WILDCARD } from '../locales.js'
import type { ItemQuery } from '../query/parse.js'
import type { DocumentState } from '../storage/document-plan.js'
import { DOCUMENT_ID } from '../storage/documents.js'
import { accepts, type Accepted } from './conditions.js'
import { localeOf, type Scope } from './context.js'

export interface DeleteInput {
  readonly documentId: string
  readonly query: ItemQuery
  /** The versions If-Match accepts: it names the locale's published version (its draft when it has none). */
  readonly accepted: Accepted
}

/** Deletes a locale's versions, or every version for `*`: 404 when there are none, 412 when If-Match does not hold. */
export async function deleteVersions(scope: Scope, input: DeleteInput): Promise<void> {
  const { type, services: { documents } } = scope
  const { documentId, accepted } = input
  const locale = await localeOf(scope, input.query.locale, true)
  if (!DOCUMENT_ID.test(documentId)) throw notFound()
  const state = await documents.getDocument(type, documentId)
  const guardLocale = locale === WILDCARD ? state.versions[0]?.locale : locale
  if (guardLocale === undefined) throw notFound()
  // If-Match names one version; it cannot hold for all of them.
  if (locale === WILDCARD && accepted !== undefined) throw preconditionFailed()
  const missing = () => {
    throw notFound()
  }
  try {
    await documents.write(type, documentId, guardLocale, removal(locale, accepted, missing), state)
  } catch (error) {
    // Every version of a document with many locales (drafts, served copies and their counts)
    // may exceed one transaction: then each locale goes in its own, its draft and published
    // version together (docs/design.md).
    if (!(locale === WILDCARD && error instanceof ApiError && error.status === 413)) throw error
    for (const code of new Set(state.versions.map((version) => version.locale))) await documents.write(type, documentId, code, removal(code, accepted, () => undefined))
  }
}

/** The change that removes `code`'s versions (every version for `*`), `absent()` when it has none. */
function removal(code: string, accepted: Accepted, absent: () => undefined) {
  return (current: DocumentState) => {
    const doomed = current.versions.filter((version) => code === WILDCARD || version.locale === code)
    if (doomed.length === 0) return { versions: current.versions, result: absent() }
    const named = versionIn(doomed, code, 'published') ?? versionIn(doomed, code, 'draft')
    if (accepted !== undefined && accepted !== '*' && !accepts(accepted, named)) throw preconditionFailed()
    return { versions: current.versions.filter((version) => !doomed.includes(version)), result: undefined }
  }
}
