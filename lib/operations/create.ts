// Create (content-api.md): a new document with its first locale version; without `status=draft`,
// a draft & publish type's draft is published too (content-model.md §15).
import { settleComponents } from '../components/entries.js'
import type { Caller } from '../access.js'
import type { Populated } from '../answers/document.js'
import { addVersion, writeVersion } from '../document-changes.js'
import { conflict } from '../errors.js'
import type { WriteQuery } from '../query/parse.js'
import { releaseTargets, writeInverse } from '../relations/inverse.js'
import { resolveLinks } from '../relations/write.js'
import { newDocumentId } from '../storage/documents.js'
import type { Version } from '../storage/items.js'
import { bodyStatusOf, localeOf, relationLocaleOf, type Scope } from './context.js'
import { populatorOf } from './populate.js'
import { writeBodyOf, writeDerived } from './write-body.js'

export interface WriteInput {
  readonly who: Caller
  readonly query: WriteQuery
  /** Reads the body: called once the query, locale, document and conditions are checked (400/413/415 come last). */
  readonly body: () => Promise<unknown>
}

/** A write's result: the version written, populated as the write asked. */
export interface Written {
  readonly version: Version
  readonly populated: Populated | undefined
}

/** Creates a document (a collection type's POST). */
export async function create(scope: Scope, input: WriteInput): Promise<Written> {
  const { type, services } = scope
  const { who, query } = input
  const locale = await localeOf(scope, query.locale)
  const populator = populatorOf(scope, who, query.populate, type.draftAndPublish && query.status === 'draft' ? 'draft' : 'published', true)
  const documentId = newDocumentId()
  const publish = query.status !== 'draft'
  const body = await writeBodyOf(scope, await input.body(), 'create', locale, publish)
  const { attributes, links } = body
  const bodyStatus = bodyStatusOf(type)
  // Without `status=draft`, a draft & publish type's new draft is published too: two versions,
  // two ids, drawn with those of the creates committed in the same transaction.
  const version = await writeDerived(scope, body, locale, documentId, async () => {
    await services.documents.checkNew(type, addVersion(type, documentId, [], locale, bodyStatus, 0, attributes, new Date(0).toISOString()).result)
    return services.documents.create(type, documentId, locale, type.draftAndPublish && publish ? 2 : 1, (current, now, [draft, published]) => {
      if (current.versions.length > 0) throw conflict('The document was created by a concurrent request')
      const values = settleComponents(type, { ...attributes, ...resolveLinks(type, links, undefined, services.config.rest.relations.maxLinks) }, undefined, current.versions, services.config.rest.relations.maxLinks)
      return writeVersion(type, documentId, [], locale, publish, values, { draft: draft as number, published }, now)
    })
  })
  await writeInverse(services, type, documentId, locale, publish, links)
  await releaseTargets(services, type, documentId, locale, publish, links)
  return { version, populated: await populator?.([version], await relationLocaleOf(scope, query.locale, version.locale)) }
}
