// How many documents use a file (the media library's delete warning, content-model.md §19): the
// index of links by target names the candidate versions (storage/links.ts), and each candidate's
// own version, read by key in one batch per type, confirms it still links the file (the version is
// the truth; the index may hold a link a write removed and has not yet forgotten). Media inside
// components are stored inside their versions and not in the index: they are not counted.
import { typeByUid } from '../content-types.js'
import { linkIds } from '../relations/write.js'
import type { Services } from '../services.js'

/** The documents linking a file: their count (at most `limit`), and whether there are more. */
export interface FileUsage {
  readonly documents: readonly { readonly uid: string; readonly documentId: string }[]
  readonly more: boolean
}

/** The documents (any locale or status) whose media attributes link the file `documentId`. */
export async function fileUsage(services: Pick<Services, 'links' | 'documents' | 'types'>, documentId: string, limit = 200): Promise<FileUsage> {
  const sources = await services.links.linksTo(documentId, limit)
  const more = sources.length > limit
  const byType = new Map<string, typeof sources>()
  for (const source of sources.slice(0, limit)) byType.set(source.uid, [...(byType.get(source.uid) ?? []), source])
  const found = new Map<string, { uid: string; documentId: string }>()
  await Promise.all([...byType].map(async ([uid, candidates]) => {
    const type = typeByUid(services.types, uid)
    if (type === undefined) return
    const versions = await services.documents.getVersions(type, candidates.map(({ documentId: id, list }) => ({ documentId: id, list })))
    for (const version of versions) {
      const links = candidates.some((source) => source.documentId === version.documentId && linkIds(version.attributes[source.attribute]).includes(documentId))
      if (links) found.set(`${uid} ${version.documentId}`, { uid, documentId: version.documentId })
    }
  }))
  return { documents: [...found.values()], more }
}
