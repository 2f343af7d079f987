// The blocks editor, in the browser: an editable region (contenteditable) over the JSON textarea
// of a `blocks` attribute, which stays the form's field. Each edit writes the region's blocks JSON
// (model.ts) into it; a value left unedited is sent as it came. A toolbar of buttons (aria-pressed
// for marks and lists), keyboard shortcuts for each, and a JSON view as an opt-in.
import { toDom, fromDom } from './dom.js'
import { safeHref } from '../markdown.js'
import { blocksToMarkup, markupToBlocks, type Block } from '../model.js'
import { chooseImage } from './image-choice.js'

interface Command {
  readonly label: string
  readonly keys: string
  /** Whether the command is on where the caret is (marks, lists): shown as aria-pressed. */
  readonly state?: () => boolean
  readonly run: () => void
}

const exec = (name: string, value?: string) => document.execCommand(name, false, value)
const MARK_COMMANDS: [string, string, string][] = [['Bold', 'Ctrl+B', 'bold'], ['Italic', 'Ctrl+I', 'italic'], ['Underline', 'Ctrl+U', 'underline'], ['Strikethrough', 'Ctrl+Shift+X', 'strikeThrough']]
const BLOCK_TYPES: [string, string][] = [['p', 'Paragraph'], ...[1, 2, 3, 4, 5, 6].map((level): [string, string] => [`h${level}`, `Heading ${level}`]), ['blockquote', 'Quote'], ['pre', 'Code block']]

/** The editor of one `blocks` textarea. */
export function enhanceBlocks(area: HTMLTextAreaElement): void {
  const label = document.querySelector<HTMLLabelElement>(`label[for="${area.id}"]`)
  if (label !== null && label.id === '') label.id = `${area.id}-label`
  const surface = document.createElement('div')
  surface.id = `${area.id}-editor`
  surface.className = 'blocks-surface'
  surface.contentEditable = 'true'
  surface.setAttribute('role', 'textbox')
  surface.setAttribute('aria-multiline', 'true')
  if (label !== null) surface.setAttribute('aria-labelledby', label.id)
  surface.setAttribute('aria-describedby', `${area.id}-keys ${area.getAttribute('aria-describedby') ?? ''}`.trim())
  const region = document.createElement('div')
  region.className = 'blocks-editor'
  region.setAttribute('role', 'region')
  region.setAttribute('aria-label', `${area.dataset.label ?? 'Blocks'} editor`)

  const load = (): boolean => {
    let blocks: unknown
    try { blocks = area.value.trim() === '' ? [] : JSON.parse(area.value) } catch { return false }
    if (!Array.isArray(blocks)) return false
    surface.replaceChildren(...toDom(blocksToMarkup(blocks as Block[])))
    if (surface.childNodes.length === 0) surface.append(...toDom([{ tag: 'p', attrs: {}, children: [] }]))
    return true
  }
  const save = () => {
    area.value = JSON.stringify(markupToBlocks(fromDom(surface.childNodes)), null, 2)
    area.setCustomValidity('')
  }

  const block = (): HTMLElement | undefined => {
    const node = document.getSelection()?.anchorNode
    let at: Node | null | undefined = node
    while (at !== null && at !== undefined && at.parentNode !== surface) at = at.parentNode
    return at instanceof HTMLElement ? at : undefined
  }
  const within = (selector: string) => {
    const node = document.getSelection()?.anchorNode
    const element = node instanceof Element ? node : node?.parentElement
    const found = element?.closest(selector)
    return found !== null && found !== undefined && surface.contains(found) ? found : undefined
  }
  const setBlock = (tag: string) => {
    // A list item becomes a line of its own first.
    if (within('li') !== undefined) exec(within('ol') !== undefined ? 'insertOrderedList' : 'insertUnorderedList')
    exec('formatBlock', `<${tag}>`)
  }
  const commands: Command[] = [
    ...MARK_COMMANDS.map(([name, keys, command]): Command => ({ label: name, keys, state: () => document.queryCommandState(command), run: () => exec(command) })),
    { label: 'Inline code', keys: 'Ctrl+E', state: () => within('code') !== undefined, run: () => toggleCode(within('code')) },
    { label: 'Link', keys: 'Ctrl+K', state: () => within('a') !== undefined, run: () => link(within('a')) },
    { label: 'Bulleted list', keys: 'Ctrl+Shift+8', state: () => within('li') !== undefined && within('ul, ol')?.tagName === 'UL', run: () => { exec('insertUnorderedList'); unwrapLists(surface) } },
    { label: 'Numbered list', keys: 'Ctrl+Shift+7', state: () => within('li') !== undefined && within('ul, ol')?.tagName === 'OL', run: () => { exec('insertOrderedList'); unwrapLists(surface) } },
    { label: 'Indent', keys: 'Tab in a list', run: () => indent(surface, within('li')) },
    { label: 'Outdent', keys: 'Shift+Tab in a list', run: () => outdent(surface, within('li')) },
    { label: 'Image', keys: 'Ctrl+Shift+M', run: () => void image() },
  ]

  const toolbar = document.createElement('div')
  toolbar.setAttribute('role', 'toolbar')
  toolbar.setAttribute('aria-label', `Formatting of ${area.dataset.label ?? 'this field'}`)
  toolbar.setAttribute('aria-controls', surface.id)
  const kind = document.createElement('select')
  kind.setAttribute('aria-label', 'Block type')
  for (const [tag, name] of BLOCK_TYPES) kind.append(new Option(`${name}${tag === 'p' ? ' (Ctrl+Alt+0)' : tag.startsWith('h') ? ` (Ctrl+Alt+${tag[1]})` : tag === 'pre' ? ' (Ctrl+Alt+C)' : ' (Ctrl+Alt+Q)'}`, tag))
  kind.addEventListener('change', () => { surface.focus(); setBlock(kind.value) })
  toolbar.append(kind)
  const buttons = commands.map((command) => {
    const button = document.createElement('button')
    button.type = 'button'
    button.textContent = command.label
    button.title = `${command.label} (${command.keys})`
    button.setAttribute('aria-keyshortcuts', command.keys.replace('Ctrl', 'Control').replace(/ .*/, ''))
    if (command.state !== undefined) button.setAttribute('aria-pressed', 'false')
    // Keeps the selection in the region: a pressed button does not take the focus from it.
    button.addEventListener('mousedown', (event) => event.preventDefault())
    button.addEventListener('click', () => { surface.focus(); command.run(); refresh(); save() })
    toolbar.append(button)
    return button
  })
  const json = document.createElement('button')
  json.type = 'button'
  json.textContent = 'JSON view'
  json.setAttribute('aria-pressed', 'false')
  json.setAttribute('aria-controls', area.id)
  json.addEventListener('click', () => {
    const on = json.getAttribute('aria-pressed') !== 'true'
    json.setAttribute('aria-pressed', String(on))
    area.hidden = !on
    if (!on) load()
  })
  toolbar.append(json)

  const refresh = () => {
    commands.forEach((command, index) => { if (command.state !== undefined) buttons[index]?.setAttribute('aria-pressed', String(command.state())) })
    const current = block()
    const tag = within('li') !== undefined ? '' : current?.tagName.toLowerCase() ?? 'p'
    kind.value = BLOCK_TYPES.some(([value]) => value === tag) ? tag : 'p'
  }

  const toggleCode = (code: Element | undefined) => {
    if (code !== undefined) {
      code.replaceWith(...code.childNodes)
      return
    }
    const range = document.getSelection()?.getRangeAt(0)
    if (range === undefined || range.collapsed) return
    const element = document.createElement('code')
    element.append(range.extractContents())
    range.insertNode(element)
  }
  const link = (current: Element | undefined) => {
    const url = window.prompt('Link address (https://, mailto: or /path); empty removes the link', current?.getAttribute('href') ?? 'https://')
    if (url === null) return
    if (url.trim() === '') {
      if (current !== undefined) current.replaceWith(...current.childNodes)
      return
    }
    if (!safeHref(url)) return void window.alert('Only http(s), mailto and relative addresses are linked.')
    const selection = document.getSelection()
    if (selection !== null && selection.isCollapsed) {
      const [made] = toDom([{ tag: 'a', attrs: { href: url }, children: [url] }]) as [Node]
      selection.getRangeAt(0).insertNode(made)
    } else exec('createLink', url)
  }
  const image = async () => {
    const at = block()
    const chosen = await chooseImage(region)
    surface.focus()
    if (chosen === undefined) return
    const [figure] = toDom(blocksToMarkup([{ type: 'image', image: chosen, children: [{ type: 'text', text: '' }] }])) as [Node]
    if (at === undefined) surface.append(figure)
    else at.after(figure)
    save()
  }

  surface.addEventListener('keydown', (event) => keys(event, { commands, setBlock, within, block, surface, save, refresh }))
  surface.addEventListener('input', save)
  surface.addEventListener('paste', (event) => {
    // Pasted text arrives as text: no foreign markup in the region.
    event.preventDefault()
    exec('insertText', event.clipboardData?.getData('text/plain') ?? '')
  })
  document.addEventListener('selectionchange', () => { if (surface.contains(document.getSelection()?.anchorNode ?? null)) refresh() })
  area.addEventListener('input', () => { if (load()) area.setCustomValidity('') })
  label?.addEventListener('click', (event) => { if (area.hidden) { event.preventDefault(); surface.focus() } })

  const help = document.createElement('p')
  help.id = `${area.id}-keys`
  help.className = 'hint'
  help.textContent = 'Shortcuts: Ctrl+B bold, Ctrl+I italic, Ctrl+U underline, Ctrl+Shift+X strikethrough, Ctrl+E inline code, Ctrl+K link, Ctrl+Alt+1 to 6 headings, Ctrl+Alt+0 paragraph, Ctrl+Alt+Q quote, Ctrl+Alt+C code block, Ctrl+Shift+8 bulleted and Ctrl+Shift+7 numbered list, Tab and Shift+Tab nest list items, Ctrl+Shift+M image. Escape leaves the editor for the next field with Tab.'
  if (!load()) return // Not a blocks array: the textarea stays as it is.
  exec('defaultParagraphSeparator', 'p')
  region.append(toolbar, surface, help)
  area.before(region)
  area.hidden = true
}

/** Keeps the caret where it is while `change` moves the nodes around it. */
function keepingCaret(surface: HTMLElement, change: () => void): void {
  const selection = document.getSelection()
  const [node, offset] = [selection?.anchorNode, selection?.anchorOffset ?? 0]
  change()
  if (node !== null && node !== undefined && surface.contains(node)) selection?.collapse(node, offset)
}

/** Nests a list item one level deeper, in a list of its list's kind inside the item before it (not the first item, as Strapi). */
function indent(surface: HTMLElement, item: Element | undefined): void {
  const before = item?.previousElementSibling
  if (item === undefined || !(before instanceof HTMLLIElement) || before.dataset.wrapper !== undefined) return
  const kind = item.parentElement?.tagName ?? 'UL'
  keepingCaret(surface, () => {
    const last = before.lastElementChild
    const list = last !== null && last.tagName === kind ? last : before.appendChild(document.createElement(kind))
    list.append(item)
  })
}

/** Takes a nested list item one level up (after the item holding its list); at the top, out of the list. */
function outdent(surface: HTMLElement, item: Element | undefined): void {
  const list = item?.parentElement
  const holder = list?.parentElement
  if (item === undefined || list === null || list === undefined || !(holder instanceof HTMLLIElement)) return void document.execCommand('outdent')
  keepingCaret(surface, () => {
    const following = [...list.children].slice([...list.children].indexOf(item) + 1)
    if (following.length > 0) item.appendChild(document.createElement(list.tagName)).append(...following)
    holder.after(item)
    if (list.children.length === 0) list.remove()
    if (holder.dataset.wrapper !== undefined && holder.children.length === 0) holder.remove()
  })
}

/** Chromium makes a list inside the paragraph it converts: the list takes the paragraph's place. */
function unwrapLists(surface: HTMLElement): void {
  keepingCaret(surface, () => {
    for (const paragraph of surface.querySelectorAll(':scope > p')) {
      if (paragraph.querySelector(':scope > ul, :scope > ol') === null) continue
      const kept = [...paragraph.childNodes].filter((child) => !(child instanceof HTMLBRElement) && !(child.nodeType === Node.TEXT_NODE && child.nodeValue === ''))
      paragraph.replaceWith(...kept)
    }
  })
}

interface KeyContext {
  readonly commands: readonly Command[]
  readonly setBlock: (tag: string) => void
  readonly within: (selector: string) => Element | undefined
  readonly block: () => HTMLElement | undefined
  readonly surface: HTMLElement
  readonly save: () => void
  readonly refresh: () => void
}

const SHORTCUTS: Record<string, string> = { 'b': 'Bold', 'i': 'Italic', 'u': 'Underline', 'shift+x': 'Strikethrough', 'e': 'Inline code', 'k': 'Link', 'shift+*': 'Bulleted list', 'shift+8': 'Bulleted list', 'shift+&': 'Numbered list', 'shift+7': 'Numbered list', 'shift+m': 'Image' }

/** The region's keys: shortcuts, Tab in lists, Enter that ends headings and quotes. */
function keys(event: KeyboardEvent, context: KeyContext): void {
  const { commands, setBlock, within } = context
  const mod = event.ctrlKey || event.metaKey
  const done = () => { event.preventDefault(); context.refresh(); context.save() }
  if (mod && event.altKey) {
    const code = event.code
    const tag = /^Digit[1-6]$/.test(code) ? `h${code.slice(5)}` : code === 'Digit0' ? 'p' : code === 'KeyQ' ? 'blockquote' : code === 'KeyC' ? 'pre' : undefined
    if (tag !== undefined) { setBlock(tag); done() }
    return
  }
  if (mod) {
    const name = SHORTCUTS[`${event.shiftKey ? 'shift+' : ''}${event.key.toLowerCase()}`] ?? SHORTCUTS[`${event.shiftKey ? 'shift+' : ''}${event.code.replace(/^(Key|Digit)/, '').toLowerCase()}`]
    const command = commands.find((each) => each.label === name)
    if (command !== undefined) { command.run(); done() }
    return
  }
  if (event.key === 'Tab' && within('li') !== undefined) {
    commands.find((each) => each.label === (event.shiftKey ? 'Outdent' : 'Indent'))?.run()
    return done()
  }
  if (event.key === 'Escape') return void context.surface.blur()
  if (event.key === 'Enter' && !event.shiftKey) enter(event, context, done)
}

/** Enter in a code block is a new line; at the end of a paragraph, heading or quote, a new paragraph. */
function enter(event: KeyboardEvent, context: KeyContext, done: () => void): void {
  // Lists keep the browser's own Enter: a new item, or out of the list from an empty one.
  if (context.within('li') !== undefined) return
  const current = context.block()
  const tag = current?.tagName.toLowerCase() ?? ''
  if (tag === 'pre') {
    document.execCommand('insertText', false, '\n')
    return done()
  }
  // At the end of a block, a clean paragraph: no mark of the line above carried into it.
  if (current === undefined || !/^(p|h[1-6]|blockquote)$/.test(tag)) return
  const selection = document.getSelection()
  if (selection === null || selection.rangeCount === 0) return
  const rest = document.createRange()
  rest.setStart(selection.getRangeAt(0).endContainer, selection.getRangeAt(0).endOffset)
  rest.setEnd(current, current.childNodes.length)
  if ((rest.toString() ?? '') !== '') return
  const [paragraph] = toDom([{ tag: 'p', attrs: {}, children: [] }]) as [HTMLElement]
  current.after(paragraph)
  selection.collapse(paragraph, 0)
  done()
}
