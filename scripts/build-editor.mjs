// Builds the editors' browser script, lib/admin-ui/assets/editor.js, from lib/admin-ui/blocks/browser/client.ts
// (one file, no imports at run time: the page's CSP allows our own scripts only). The built file is
// committed beside the other assets; test/unit/admin-ui-editor-asset.test.ts fails when it is stale.
import { build } from 'esbuild'
import { writeFileSync } from 'node:fs'

/** esbuild's options for the editor script (the test builds with the same). */
export const EDITOR_BUILD = {
  entryPoints: [new URL('../lib/admin-ui/blocks/browser/client.ts', import.meta.url).pathname],
  bundle: true,
  format: 'iife',
  target: 'es2022',
  minify: true,
  legalComments: 'none',
  write: false,
  logLevel: 'silent',
}

/** The built script's text. */
export async function buildEditor() {
  const { outputFiles } = await build(EDITOR_BUILD)
  return `'use strict';\n${outputFiles[0].text}`
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const text = await buildEditor()
  writeFileSync(new URL('../lib/admin-ui/assets/editor.js', import.meta.url), text)
  console.log(`lib/admin-ui/assets/editor.js: ${text.length} bytes`)
}
