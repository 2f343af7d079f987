// The stack is generated from the schema folder (content-model.md §14): a new schema.json gets its
// own function, routes and permission names at synth, with no TypeScript edit.
import { cpSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { DEFAULT_CONTENT_TYPES_DIR } from '../../lib/schema/load.js'
import { routes, synth } from './synth.js'

describe('a stack synthesized from a folder with a new schema file', () => {
  const dir = mkdtempSync(join(tmpdir(), 'stack-types-'))
  cpSync(DEFAULT_CONTENT_TYPES_DIR, dir, { recursive: true })
  mkdirSync(join(dir, 'event'))
  writeFileSync(join(dir, 'event', 'schema.json'), JSON.stringify({
    kind: 'collectionType',
    info: { singularName: 'event', pluralName: 'events' },
    attributes: { name: { type: 'string' }, starts: { type: 'datetime' } },
  }))
  const synthed = synth('dev', {}, undefined, dir)

  it('gives the new type a function of its own, serving the uid its file declares', () => {
    const id = synthed.logicalId('functions/content.ts#event')
    expect(synthed.resources[id]!.Properties.Environment.Variables.CONTENT_TYPE).toBe('api::event.event')
    expect(synthed.stack.types.map((type) => type.uid)).toContain('api::event.event')
  })

  it('routes /api/events and /api/events/{documentId} to that function', () => {
    const fn = synthed.logicalId('functions/content.ts#event')
    expect(routes(synthed.resources)).toEqual(expect.arrayContaining([`ANY /api/events -> ${fn}`, `ANY /api/events/{documentId} -> ${fn}`]))
  })
})
