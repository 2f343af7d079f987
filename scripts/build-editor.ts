// Builds the editors' browser script, lib/admin-ui/assets/editor.js, from
// lib/admin-ui/blocks/browser/client.ts (one file, no imports at run time: the page's CSP allows
// our own scripts only). The built file is committed beside the other assets (the stack copies
// them beside the admin bundle); test/unit/admin-ui-editor-asset.test.ts fails when it is stale
// or past its budget. Run: `npm run build:editor`.
import { build } from 'esbuild'
import { writeFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'

export const EDITOR_SOURCE = fileURLToPath(new URL('../lib/admin-ui/blocks/browser/client.ts', import.meta.url))
export const EDITOR_ASSET = fileURLToPath(new URL('../lib/admin-ui/assets/editor.js', import.meta.url))

/** The built script's text. */
export async function buildEditor(): Promise<string> {
  const { outputFiles } = await build({ entryPoints: [EDITOR_SOURCE], bundle: true, format: 'iife', target: 'es2022', minify: true, legalComments: 'none', write: false, logLevel: 'silent' })
  return `'use strict';\n${outputFiles[0]!.text}`
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const text = await buildEditor()
  writeFileSync(EDITOR_ASSET, text)
  console.log(`lib/admin-ui/assets/editor.js: ${Buffer.byteLength(text)} bytes`)
}
