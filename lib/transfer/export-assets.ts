// The files of an export (integration.md §21): each file's bytes and its formats' under
// `assets/uploads/<hash><ext>`, each with Strapi's sidecar `assets/metadata/<hash><ext>.json` (the
// file's row; a format's own fields with `type`, the file's `id` and `mainHash`), which `strapi
// import` requires before it stores any. Bytes come from the media library's blob store, one
// object at a time; a process without one (no media configured) writes the rows only.
import type { FileAttributes } from '../media/file-type.js'
import type { Services } from '../services.js'
import type { Version } from '../storage/items.js'
import type { ArchiveWriter } from './archive-writer.js'

/** Writes the objects of file `version`; returns how many were written. */
export async function writeAsset(services: Services, writer: ArchiveWriter, version: Version): Promise<number> {
  const media = services.media
  if (media === undefined) return 0
  const file = version.attributes as unknown as FileAttributes
  const row = { id: version.id, documentId: version.documentId, ...file, folderPath: '/', createdAt: version.createdAt, updatedAt: version.updatedAt, publishedAt: version.publishedAt ?? version.createdAt, locale: null }
  const objects = [
    { name: `${file.hash}${file.ext}`, metadata: row as Record<string, unknown> },
    ...Object.entries(file.formats ?? {}).map(([format, entry]) => ({ name: `${entry.hash}${entry.ext}`, metadata: { ...entry, type: format, id: version.id, mainHash: file.hash } })),
  ]
  let written = 0
  for (const object of objects) {
    const stored = await media.blobs.read(`uploads/${object.name}`, media.config.sizeLimit)
    if (stored?.bytes === undefined) continue
    await writer.file(`assets/uploads/${object.name}`, stored.bytes)
    await writer.file(`assets/metadata/${object.name}.json`, JSON.stringify(object.metadata))
    written += 1
  }
  return written
}
