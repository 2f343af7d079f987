// The editors' script (assets/editor.js, built from this entry by scripts/build-editor.mjs), loaded
// only by document pages that have a `blocks` or `richtext` field. Without it those fields stay the
// textareas they are (JSON, Markdown source), and the form works the same.
import { enhanceBlocks } from './blocks-editor.js'
import { enhanceMarkdown } from './markdown-editor.js'

for (const area of document.querySelectorAll<HTMLTextAreaElement>('textarea[data-editor="blocks"]')) enhanceBlocks(area)
for (const area of document.querySelectorAll<HTMLTextAreaElement>('textarea[data-editor="markdown"]')) enhanceMarkdown(area)
