// Update (PUT; content-api.md): update the version in a locale, or create it as a new localization
// (or, for a single type, create the document); without `status=draft`, a draft & publish type's
// draft is then published (content-model.md §15).
import { settleComponents } from '../components/entries.js'
import { addVersion, versionIn, writeVersion } from '../document-changes.js'
import { conflict, notFound, preconditionFailed } from '../errors.js'
import { releaseTargets, writeInverse } from '../relations/inverse.js'
import { resolveLinks } from '../relations/write.js'
import type { DocumentState } from '../storage/document-plan.js'
import type { Status } from '../table.js'
import { expectedRevision, type Accepted } from './conditions.js'
import { bodyStatusOf, loadDocument, localeOf, relationLocaleOf, type Scope } from './context.js'
import type { WriteInput, Written } from './create.js'
import { populatorOf } from './populate.js'
import { writeBodyOf, writeDerived } from './write-body.js'

export interface UpdateInput extends WriteInput {
  readonly documentId: string
  /** The versions If-Match accepts: it names the version of the request's status. */
  readonly accepted: Accepted
}

/**
 * PUT on a collection type's document: 404 when it has no version. The change is applied to the
 * document as read on each attempt of the write, so concurrent independent writes merge.
 */
export async function update(scope: Scope, input: UpdateInput): Promise<Written> {
  const locale = await localeOf(scope, input.query.locale)
  return putVersion(scope, input, await loadDocument(scope, input.documentId), locale)
}

/** PUT on a single type: its one document is created by the first write. */
export async function updateSingle(scope: Scope, input: UpdateInput): Promise<Written> {
  const locale = await localeOf(scope, input.query.locale)
  const { documents } = scope.services
  return putVersion(scope, input, await documents.ensureDrafts(scope.type, await documents.getDocument(scope.type, input.documentId)), locale)
}

/** Writes the PUT's body to `locale`'s version of `state` (update, localization or first version). */
async function putVersion(scope: Scope, input: UpdateInput, state: DocumentState, locale: string): Promise<Written> {
  const { type, services } = scope
  const { who, query } = input
  const bodyStatus = bodyStatusOf(type)
  const publish = query.status !== 'draft'
  const answerStatus: Status = type.draftAndPublish && !publish ? 'draft' : 'published'
  const existing = versionIn(state.versions, locale, bodyStatus)
  const first = state.versions[0]
  who.requireAny(type, existing !== undefined || first === undefined ? 'update' : 'createLocalization')
  const expectedRev = expectedRevision(input.accepted, versionIn(state.versions, locale, answerStatus))
  const populator = populatorOf(scope, who, query.populate, answerStatus, true)
  const mode = existing !== undefined ? 'update' : first === undefined ? 'create' : 'localization'
  const body = await writeBodyOf(scope, await input.body(), mode, locale, publish, existing)
  const { attributes, links } = body
  const firstPublication = type.draftAndPublish && publish && versionIn(state.versions, locale, 'published') === undefined
  let ids: number[] | undefined
  const version = await writeDerived(scope, body, locale, state.documentId, async () => {
    // A version too large to store (413) or holding a taken unique value (400) is refused before the
    // id sequence moves, so a rejected request writes nothing.
    if (existing === undefined) await services.documents.checkNew(type, addVersion(type, state.documentId, state.versions, locale, bodyStatus, 0, attributes, new Date(0).toISOString()).result)
    // So is a publication of an incomplete draft (§15): the write as read, tried first.
    if (type.draftAndPublish && publish) writeVersion(type, state.documentId, state.versions, locale, true, attributes, { draft: 0, published: 0 }, new Date(0).toISOString())
    const drawn = (ids ??= await services.documents.nextIds(type, (existing === undefined ? 1 : 0) + (firstPublication ? 1 : 0)))
    return services.documents.write(type, state.documentId, locale, (current, now) => {
      const target = versionIn(current.versions, locale, bodyStatus)
      if (expectedRev !== undefined && versionIn(current.versions, locale, answerStatus)?.rev !== expectedRev) throw preconditionFailed()
      if (target !== undefined) {
        if (existing === undefined && !who.holds(type, 'update')) throw conflict('This locale version was created by a concurrent request')
      } else {
        if (existing !== undefined) throw conflict('This locale version was deleted by a concurrent request')
        if (type.kind === 'collection' && current.versions.length === 0) throw notFound()
        if (mode === 'create' && current.versions.length > 0) throw conflict('The document was created by a concurrent request; retry')
      }
      const draftId = existing === undefined ? drawn[0] : undefined
      const values = settleComponents(type, { ...attributes, ...resolveLinks(type, links, target, services.config.rest.relations.maxLinks) }, target, current.versions, services.config.rest.relations.maxLinks)
      return writeVersion(type, current.documentId, current.versions, locale, publish, values, { draft: draftId ?? 0, published: firstPublication ? drawn.at(-1) : undefined }, now)
    }, state)
  })
  await writeInverse(services, type, state.documentId, locale, publish, links)
  await releaseTargets(services, type, state.documentId, locale, publish, links)
  return { version, populated: await populator?.([version], await relationLocaleOf(scope, query.locale, version.locale)) }
}
