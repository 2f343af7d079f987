// `npm run export` (integration.md §21): an archive in Strapi's format written from the table. The
// round trip through the project itself is checked here (import a peer's archive, export it,
// import the export into a fresh table: every REST read answers the same); the round trip into
// Strapi (`strapi import`) is scripts/strapi-round-trip.mjs, run by hand (docs/moving-from-strapi.md).
import { mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { beforeAll, describe, expect, it } from 'vitest'
import { readArchive } from '../../lib/transfer/archive-reader.js'
import { exportArchive } from '../../lib/transfer/export.js'
import { importArchive } from '../../lib/transfer/import.js'
import { DEFAULT_CONTENT_TYPES_DIR } from '../../lib/schema/load.js'
import { createTestContext, json, type TestContext } from '../support/context.js'

const fixture = (name: string) => fileURLToPath(new URL(`../fixtures/strapi-archives/${name}`, import.meta.url))
const paths = Object.keys(JSON.parse(readFileSync(fixture('answers.json'), 'utf8')) as Record<string, unknown>)

async function readAll(ctx: TestContext, token: string): Promise<Record<string, unknown>> {
  const read: Record<string, unknown> = {}
  for (const path of [...paths, '/i18n/locales']) {
    const response = await ctx.request('GET', `/api${path}`, { token })
    const body = await json(response)
    // The locales are created by the import (their own timestamps): compared by code, name and default.
    read[path] = { status: response.status, body: path === '/i18n/locales' ? body.map(({ code, name, isDefault }: any) => ({ code, name, isDefault })) : body }
  }
  return read
}

/** The lines of an archive by folder, and its files' names. */
async function contents(path: string): Promise<{ entities: any[]; links: any[]; schemas: any[]; configuration: any[]; metadata: unknown }> {
  const found = { entities: [] as any[], links: [] as any[], schemas: [] as any[], configuration: [] as any[], metadata: undefined as unknown }
  await readArchive(path, {
    record: { entities: (r) => void found.entities.push(r), links: (r) => void found.links.push(r), schemas: (r) => void found.schemas.push(r), configuration: (r) => void found.configuration.push(r) },
    metadata: (m) => void (found.metadata = m),
  })
  return found
}

describe.each(['export.tar.gz', 'export.tar'])('export to a Strapi archive (%s)', (name) => {
  let source: TestContext
  let archive: string

  beforeAll(async () => {
    source = await createTestContext({ rest: { findOneShape: 'object' } })
    await importArchive(source.services, fixture('content.tar.gz'), { concurrency: 8 })
    archive = join(mkdtempSync(join(tmpdir(), 'strapi-export-')), name)
  })

  it('writes every version as a Strapi row, and a link per relation target', async () => {
    const report = await exportArchive(source.services, archive, { typesDir: DEFAULT_CONTENT_TYPES_DIR, concurrency: 4 })
    expect(report.counts).toEqual({ 'api::article.article': 14, 'api::author.author': 3, 'api::homepage.homepage': 3, 'api::tag.tag': 3 })
    const written = await contents(archive)
    const original = await contents(fixture('content.tar'))
    const rows = (lines: any[]) => lines.filter((line) => line.type.startsWith('api::') && line.type !== 'api::homepage.homepage').map(({ type, id, data }) => ({ type, id, data })).sort((a, b) => `${a.type}${String(a.id).padStart(5)}`.localeCompare(`${b.type}${String(b.id).padStart(5)}`))
    expect(rows(written.entities)).toEqual(rows(original.entities))
    const basic = (lines: any[]) => lines.filter((line) => line.kind === 'relation.basic' && line.left.type.startsWith('api::')).map((line) => `${line.left.type}.${line.left.field} ${line.left.ref} -> ${line.right.type} ${line.right.ref} pos ${line.left.pos ?? 1}`).sort()
    expect(basic(written.links)).toEqual(basic(original.links))
    expect(written.entities.filter((line) => line.type === 'plugin::i18n.locale').map((line) => line.data.code)).toEqual(['en', 'fr', 'de'])
    expect(written.configuration).toContainEqual(expect.objectContaining({ type: 'core-store', value: expect.objectContaining({ key: 'plugin_i18n_default_locale', value: 'en' }) }))
    expect(written.metadata).toMatchObject({ strapi: { version: expect.stringMatching(/^5\./) } })
  })

  it('writes the schemas as the peer\'s archive holds them', async () => {
    const byUid = (lines: any[]) => Object.fromEntries(lines.map((line) => [line.uid, line]))
    expect(byUid((await contents(archive)).schemas)).toEqual(byUid((await contents(fixture('content.tar'))).schemas))
  })

  it('imports into a fresh table answering every REST read as the table it came from', async () => {
    const target = await createTestContext({ rest: { findOneShape: 'object' } })
    const report = await importArchive(target.services, archive)
    expect(report.differences).toEqual([])
    expect(await readAll(target, await target.token())).toEqual(await readAll(source, await source.token()))
  })
})
