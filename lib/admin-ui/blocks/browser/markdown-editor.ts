// The Markdown editor of a `richtext` textarea, in the browser: two tabs, Write (the textarea with
// a toolbar that wraps or prefixes the selection, Ctrl+B and Ctrl+I) and Preview (markdown.ts, built
// as DOM nodes, no HTML of the value ever parsed). The textarea stays the form's field.
import { toDom } from './dom.js'
import { markdownToMarkup } from '../markdown.js'

type Edit = { wrap: [string, string] } | { prefix: string }
const TOOLS: [string, string, Edit][] = [
  ['Bold', 'Ctrl+B', { wrap: ['**', '**'] }], ['Italic', 'Ctrl+I', { wrap: ['*', '*'] }], ['Strikethrough', '', { wrap: ['~~', '~~'] }],
  ['Inline code', '', { wrap: ['`', '`'] }], ['Link', 'Ctrl+K', { wrap: ['[', '](https://)'] }], ['Heading', '', { prefix: '## ' }],
  ['Bulleted list', '', { prefix: '- ' }], ['Numbered list', '', { prefix: '1. ' }], ['Quote', '', { prefix: '> ' }], ['Code block', '', { wrap: ['```\n', '\n```'] }],
]

/** Applies one toolbar edit to the textarea's selection (through the editing commands: undo works). */
function apply(area: HTMLTextAreaElement, edit: Edit): void {
  const { selectionStart: start, selectionEnd: end, value } = area
  area.focus()
  if ('wrap' in edit) {
    const [before, after] = edit.wrap
    const replacement = `${before}${value.slice(start, end)}${after}`
    if (!document.execCommand('insertText', false, replacement)) area.setRangeText(replacement, start, end, 'end')
    area.setSelectionRange(start + before.length, start + before.length + (end - start))
    return
  }
  const lineStart = value.lastIndexOf('\n', start - 1) + 1
  area.setSelectionRange(lineStart, end)
  const lines = value.slice(lineStart, end).split('\n').map((line) => `${edit.prefix}${line}`).join('\n')
  if (!document.execCommand('insertText', false, lines)) area.setRangeText(lines, lineStart, end, 'end')
}

/** The editor of one `richtext` textarea. */
export function enhanceMarkdown(area: HTMLTextAreaElement): void {
  const name = area.dataset.label ?? 'Text'
  const box = document.createElement('div')
  box.className = 'markdown-editor'
  const tabs = document.createElement('div')
  tabs.setAttribute('role', 'tablist')
  tabs.setAttribute('aria-label', `${name}: write or preview`)
  const write = document.createElement('div')
  const preview = document.createElement('div')
  preview.className = 'markdown-preview'
  preview.tabIndex = 0
  const [writeTab, previewTab] = [['Write', write], ['Preview', preview]].map(([text, panel], index) => {
    const tab = document.createElement('button')
    tab.type = 'button'
    tab.id = `${area.id}-tab-${index}`
    tab.textContent = text as string
    tab.setAttribute('role', 'tab')
    ;(panel as HTMLElement).id = `${area.id}-panel-${index}`
    ;(panel as HTMLElement).setAttribute('role', 'tabpanel')
    ;(panel as HTMLElement).setAttribute('aria-labelledby', tab.id)
    tab.setAttribute('aria-controls', (panel as HTMLElement).id)
    return tab
  }) as [HTMLButtonElement, HTMLButtonElement]
  const select = (showPreview: boolean) => {
    writeTab.setAttribute('aria-selected', String(!showPreview))
    previewTab.setAttribute('aria-selected', String(showPreview))
    writeTab.tabIndex = showPreview ? -1 : 0
    previewTab.tabIndex = showPreview ? 0 : -1
    write.hidden = showPreview
    preview.hidden = !showPreview
    if (showPreview) {
      const made = toDom(markdownToMarkup(area.value))
      preview.replaceChildren(...(made.length === 0 ? [document.createTextNode('Nothing to preview.')] : made))
    }
  }
  writeTab.addEventListener('click', () => select(false))
  previewTab.addEventListener('click', () => select(true))
  tabs.addEventListener('keydown', (event) => {
    if (event.key !== 'ArrowLeft' && event.key !== 'ArrowRight') return
    const toPreview = previewTab.getAttribute('aria-selected') !== 'true'
    select(toPreview)
    ;(toPreview ? previewTab : writeTab).focus()
  })
  tabs.append(writeTab, previewTab)

  const toolbar = document.createElement('div')
  toolbar.setAttribute('role', 'toolbar')
  toolbar.setAttribute('aria-label', `Markdown formatting of ${name}`)
  toolbar.setAttribute('aria-controls', area.id)
  for (const [label, keys, edit] of TOOLS) {
    const button = document.createElement('button')
    button.type = 'button'
    button.textContent = label
    if (keys !== '') button.title = `${label} (${keys})`
    button.addEventListener('click', () => apply(area, edit))
    toolbar.append(button)
  }
  area.addEventListener('keydown', (event) => {
    if (!(event.ctrlKey || event.metaKey) || event.altKey || event.shiftKey) return
    const tool = TOOLS.find(([, keys]) => keys === `Ctrl+${event.key.toUpperCase()}`)
    if (tool === undefined) return
    event.preventDefault()
    apply(area, tool[2])
  })
  area.before(box)
  write.append(toolbar, area)
  box.append(tabs, write, preview)
  select(false)
}
