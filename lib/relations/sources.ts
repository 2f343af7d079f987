// Who links to a document: the index of links by target (storage/links.ts) names candidates, and
// each candidate's own version, read by key, confirms it (the version is the truth; the index may
// hold a link a write removed and has not yet forgotten).
import type { ContentType } from '../content-types.js'
import { badRequest, queryDetails } from '../errors.js'
import type { Services } from '../services.js'
import type { Version } from '../storage/items.js'
import { linkIds } from './write.js'

/**
 * The versions of `owner` in `lists` whose `attribute` links `target`, in the order the links were
 * made (then by id).
 * A 400 naming api.rest.maxScan when more than `limit` candidates would be read.
 */
export async function linkedFrom(services: Pick<Services, 'links' | 'documents'>, owner: ContentType, attribute: string, target: string, lists: readonly string[], limit: number): Promise<Version[]> {
  const candidates = (await services.links.sources(target, owner.uid, attribute, lists, limit)).sort((a, b) => a.at - b.at || a.id - b.id)
  if (candidates.length > limit) throw overLinks(limit)
  const versions = await services.documents.getVersions(owner, candidates.map(({ documentId, list }) => ({ documentId, list })))
  const byKey = new Map(versions.map((version) => [`${version.documentId} ${version.status === 'draft' ? 'draft:' : ''}${version.locale}`, version]))
  const found: Version[] = []
  for (const { documentId, list } of candidates) {
    const version = byKey.get(`${documentId} ${list}`)
    if (version !== undefined && linkIds(version.attributes[attribute]).includes(target) && !found.includes(version)) found.push(version)
  }
  return found
}

export function overLinks(limit: number) {
  return badRequest(`This request would read more than ${limit} links (api.rest.maxScan); narrow it with filters or pagination`, queryDetails('populate', 'populate', 'populate', { maxScan: limit }))
}
