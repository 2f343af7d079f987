// `npm run import` of an archive with components, zones and media (integration.md §21), made by
// the peer (test/fixtures/strapi-archives/media/, remade by scripts/strapi-media-archive.mjs): the
// page type holds a component, a repeatable component, a dynamic zone and two media attributes in
// two locales, drafts and published versions. After the import every read the peer answered
// answers the same here, the files' bytes are in the blob store, and a second run writes nothing.
import { mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { beforeAll, describe, expect, it } from 'vitest'
import { LocalBlobs } from '../../lib/local/uploads.js'
import { loadContentTypes } from '../../lib/schema/load.js'
import { readArchive } from '../../lib/transfer/archive-reader.js'
import { importArchive } from '../../lib/transfer/import.js'
import { createTestContext, json, type TestContext } from '../support/context.js'

const fixture = (name: string) => fileURLToPath(new URL(`../fixtures/strapi-archives/media/${name}`, import.meta.url))
const answers = JSON.parse(readFileSync(fixture('answers.json'), 'utf8')) as Record<string, { status: number; body: unknown }>

/**
 * The written differences made equal: Strapi's order of `localizations` follows none stated (here
 * by id); its files carry `isUrlSigned` and `focalPoint`, which the project's media library has not.
 */
const normalized = (value: unknown) => JSON.parse(JSON.stringify(value), (key, item: unknown) =>
  key === 'localizations' && Array.isArray(item) ? [...item].sort((a: { id: number }, b: { id: number }) => a.id - b.id) : key === 'isUrlSigned' || key === 'focalPoint' ? undefined : item)

describe('import of a Strapi archive with components, zones and media', () => {
  let ctx: TestContext
  let blobs: LocalBlobs
  let first: Awaited<ReturnType<typeof importArchive>>

  beforeAll(async () => {
    blobs = new LocalBlobs(mkdtempSync(join(tmpdir(), 'import-media-')))
    ctx = await createTestContext({ rest: { findOneShape: 'object' } }, {}, loadContentTypes(fixture('types')), blobs)
    first = await importArchive(ctx.services, fixture('content.tar.gz'), { concurrency: 8 })
  })

  it('writes the pages and the files', () => {
    expect(first.differences).toEqual([])
    expect(first.counts['api::page.page']).toEqual({ written: 7, unchanged: 0 })
    expect(first.counts['plugin::upload.file']).toEqual({ written: 3, unchanged: 0 })
  })

  it('answers every read the peer answered, as the peer answered it', async () => {
    const token = await ctx.token()
    for (const [path, expected] of Object.entries(answers)) {
      const response = await ctx.request('GET', `/api${path}`, { token })
      expect({ path, status: response.status, body: normalized(await json(response)) }).toEqual({ path, ...normalized(expected) })
    }
  })

  it('stores every file of the archive in the blob store', async () => {
    const files = new Map<string, Buffer>()
    await readArchive(fixture('content.tar.gz'), {
      asset: async (name, content) => {
        const chunks: Buffer[] = []
        for await (const chunk of content) chunks.push(chunk as Buffer)
        if (name.startsWith('uploads/')) files.set(name, Buffer.concat(chunks))
      },
    })
    expect(files.size).toBe(3)
    for (const [name, bytes] of files) expect(Buffer.from((await blobs.read(name, 1 << 20))?.bytes ?? [])).toEqual(bytes)
  })

  it('changes nothing on a second run', async () => {
    const second = await importArchive(ctx.services, fixture('content.tar.gz'))
    expect(Object.values(second.counts).every((count) => count.written === 0)).toBe(true)
  })
})
