// The editors' browser script (lib/admin-ui/assets/editor.js) is the build of its sources, and
// within its budget (docs/performance.md): document pages with blocks or richtext fields load it,
// no other page does.
import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { buildEditor, EDITOR_ASSET } from '../../scripts/build-editor.js'

/** The editor script's budget, in bytes (minified, before compression). */
export const EDITOR_BUDGET_BYTES = 40_000

describe("the editors' script", () => {
  it('is the build of lib/admin-ui/blocks/browser/ (run `npm run build:editor` after changing them)', async () => {
    expect(readFileSync(EDITOR_ASSET, 'utf8')).toBe(await buildEditor())
  }, 60_000)

  it(`stays within its budget of ${EDITOR_BUDGET_BYTES} bytes`, () => {
    expect(readFileSync(EDITOR_ASSET).byteLength).toBeLessThan(EDITOR_BUDGET_BYTES)
  })
})
