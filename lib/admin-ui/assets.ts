// The admin web interface's only static files: one stylesheet and one progressive-enhancement
// script (assets/admin.css, assets/admin.js), and the editors' script (assets/editor.js, built by
// scripts/build-editor.mjs, loaded only by document pages with blocks or richtext fields), served
// by the app itself (the CSP allows nothing else). Every page works without the script; it adds JSON checking as you type, copy buttons,
// confirmations and row/column toggles. Files beside this module, not text in it: from source,
// lib/admin-ui/assets/; in the admin function, the copy the stack puts beside its bundle
// (infra/content-api-stack.ts), so a cold start neither loads nor parses them (8 KB). Each is
// read once, when first asked for.
import { readFileSync } from 'node:fs'

/** A static file of the interface, by name and content type. */
export interface Asset {
  readonly name: 'admin.css' | 'admin.js' | 'editor.js'
  readonly type: 'text/css' | 'text/javascript'
}

export const STYLESHEET: Asset = { name: 'admin.css', type: 'text/css' }
export const SCRIPT: Asset = { name: 'admin.js', type: 'text/javascript' }
/** The blocks and Markdown editors (built from blocks/browser/), loaded by document pages that use them. */
export const EDITOR_SCRIPT: Asset = { name: 'editor.js', type: 'text/javascript' }

/** The folder holding the assets, relative to this module (or to the bundle holding it). */
export const ASSETS_DIR = 'assets'

const read = new Map<string, string>()

/** The asset's text, read on first use. */
export function assetText(asset: Asset): string {
  let text = read.get(asset.name)
  if (text === undefined) {
    text = readFileSync(new URL(`./${ASSETS_DIR}/${asset.name}`, import.meta.url), 'utf8')
    read.set(asset.name, text)
  }
  return text
}
