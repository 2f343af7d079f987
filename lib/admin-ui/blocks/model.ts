// Strapi's blocks JSON (the value of a `blocks` attribute, as `@strapi/blocks-react-renderer` reads
// it and the admin's Slate editor writes it) and its markup in the blocks editor: `blocksToMarkup`
// gives the tree the editor shows, `markupToBlocks` reads an edited tree back. Pure (no DOM): the
// editor converts between this markup and DOM nodes (dom.ts). Reading normalizes as Slate does, so
// normalized JSON comes back exactly: markupToBlocks(blocksToMarkup(x)) equals x. Keys this editor
// does not know (a link's `rel`, an image's media fields) ride along in a `data-extra` attribute.

/** A node of markup: text, or an element with attributes and children. */
export type Markup = string | MarkupElement
export interface MarkupElement {
  readonly tag: string
  readonly attrs: Readonly<Record<string, string>>
  readonly children: readonly Markup[]
}

export const MARKS = ['bold', 'italic', 'underline', 'strikethrough', 'code'] as const
export type Mark = (typeof MARKS)[number]
export type TextNode = { type: 'text'; text: string } & Partial<Record<Mark, boolean>> & Record<string, unknown>
export type LinkNode = { type: 'link'; url: string; children: TextNode[] } & Record<string, unknown>
export type InlineNode = TextNode | LinkNode
export type Block = Record<string, unknown> & { type: string; children: unknown[] }

/** The element of each mark, outermost first (the tags browsers' editing commands make are read too). */
const MARK_TAG: Record<Mark, string> = { bold: 'strong', italic: 'em', underline: 'u', strikethrough: 's', code: 'code' }
const TAG_MARK: Record<string, Mark> = { strong: 'bold', b: 'bold', em: 'italic', i: 'italic', u: 'underline', s: 'strikethrough', strike: 'strikethrough', del: 'strikethrough', code: 'code' }
const KNOWN: Record<string, readonly string[]> = {
  text: ['type', 'text', ...MARKS], link: ['type', 'url', 'children'], paragraph: ['type', 'children'], heading: ['type', 'level', 'children'],
  quote: ['type', 'children'], code: ['type', 'language', 'children'], list: ['type', 'format', 'indentLevel', 'children'],
  'list-item': ['type', 'children'], image: ['type', 'image', 'children'],
}

const el = (tag: string, attrs: Record<string, string>, children: readonly Markup[]): MarkupElement => ({ tag, attrs, children })

/** The keys of `node` this editor does not model, as a `data-extra` attribute (none: no attribute). */
function extraOf(node: Record<string, unknown>): Record<string, string> {
  const known = KNOWN[String(node.type)] ?? ['type', 'children']
  const extra = Object.fromEntries(Object.entries(node).filter(([key]) => !known.includes(key) || (MARKS as readonly string[]).includes(key) && node[key] !== true))
  return Object.keys(extra).length === 0 ? {} : { 'data-extra': JSON.stringify(extra) }
}

const textEmpty = (): TextNode => ({ type: 'text', text: '' })

// ---- blocks → markup

function inlineMarkup(node: InlineNode): Markup {
  if (node.type === 'link') return el('a', { href: String(node.url), ...extraOf(node) }, node.children.map(inlineMarkup))
  let inner: Markup = node.text
  const extra = extraOf(node)
  if (Object.keys(extra).length > 0 || node.text === '') inner = el('span', extra, node.text === '' ? [] : [node.text])
  for (const mark of [...MARKS].reverse()) if (node[mark] === true) inner = el(MARK_TAG[mark], {}, [inner])
  return inner
}

function blockMarkup(block: Block): MarkupElement {
  const inline = () => (block.children as InlineNode[]).map(inlineMarkup)
  const extra = extraOf(block)
  switch (block.type) {
    case 'heading': return el(`h${Number(block.level)}`, extra, inline())
    case 'quote': return el('blockquote', extra, inline())
    case 'code': return el('pre', { ...(typeof block.language === 'string' ? { 'data-language': block.language } : {}), ...extra }, [(block.children as TextNode[]).map((child) => child.text).join('')])
    case 'list-item': return el('li', extra, inline())
    case 'list': {
      const indent: Record<string, string> = block.indentLevel === undefined ? {} : { 'data-indent': JSON.stringify(block.indentLevel) }
      return el(block.format === 'ordered' ? 'ol' : 'ul', { ...indent, ...extra }, listItems(block.children as Block[]))
    }
    case 'image': {
      const image = (block.image ?? {}) as Record<string, unknown>
      const img = el('img', { src: String(image.url ?? ''), alt: String(image.alternativeText ?? '') }, [])
      return el('figure', { contenteditable: 'false', 'data-image': JSON.stringify(block.image), ...extra }, [img])
    }
    default: return el('p', extra, inline())
  }
}

/**
 * A list's children as valid HTML: a nested list goes inside the item before it (Strapi keeps it
 * as that item's sibling), or inside an item of its own (`data-wrapper`) when no item precedes it.
 */
function listItems(children: readonly Block[]): MarkupElement[] {
  const items: MarkupElement[] = []
  for (const child of children) {
    const made = blockMarkup(child)
    const last = items.at(-1)
    if (child.type !== 'list') items.push(made)
    else if (last !== undefined) items[items.length - 1] = { ...last, children: [...last.children, made] }
    else items.push(el('li', { 'data-wrapper': '' }, [made]))
  }
  return items
}

/** The editor's markup of a blocks value. */
export function blocksToMarkup(blocks: readonly Block[]): MarkupElement[] {
  return blocks.map((block) => blockMarkup(block))
}

// ---- markup → blocks

const isElement = (node: Markup): node is MarkupElement => typeof node !== 'string'
const extraIn = (node: MarkupElement): Record<string, unknown> => (node.attrs['data-extra'] === undefined ? {} : JSON.parse(node.attrs['data-extra']) as Record<string, unknown>)
const BLOCK_TAGS = new Set(['p', 'div', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'blockquote', 'pre', 'ul', 'ol', 'li', 'figure'])

/** The inline nodes under `nodes`, marks taken from the elements around each text. */
function readInline(nodes: readonly Markup[], marks: Partial<Record<Mark, boolean>>, extra: Record<string, unknown>, into: InlineNode[]): void {
  for (const node of nodes) {
    if (!isElement(node)) {
      into.push({ type: 'text', text: node, ...marks, ...extra })
      continue
    }
    if (node.tag === 'br') into.push({ type: 'text', text: '\n', ...marks, ...extra })
    else if (node.tag === 'a') {
      const children: InlineNode[] = []
      readInline(node.children, marks, extra, children)
      into.push({ type: 'link', url: node.attrs.href ?? '', children: children.filter((child): child is TextNode => child.type === 'text'), ...extraIn(node) })
    } else {
      const mark = TAG_MARK[node.tag]
      const inner = { ...marks, ...(mark === undefined ? {} : { [mark]: true }) }
      const innerExtra = { ...extra, ...extraIn(node) }
      // An element holding no text yet still says its marks (an empty bold run, as Slate keeps one).
      if (node.children.length === 0) into.push({ type: 'text', text: '', ...inner, ...innerExtra })
      else readInline(node.children, inner, innerExtra, into)
    }
  }
}

const markKey = (node: TextNode) => JSON.stringify(Object.entries(node).filter(([key]) => key !== 'text').sort(([a], [b]) => a.localeCompare(b)))

/** Slate's normalization of inline children: equal neighbours merged, empty texts dropped, links between texts. */
export function normalizeInline(nodes: readonly InlineNode[]): InlineNode[] {
  const out: InlineNode[] = []
  for (const node of nodes) {
    const prev = out.at(-1)
    if (node.type === 'text') {
      const text: TextNode = canonicalText(node)
      if (prev?.type === 'text') {
        if (markKey(prev) === markKey(text)) out[out.length - 1] = { ...prev, text: prev.text + text.text }
        else if (prev.text === '') out[out.length - 1] = text
        else if (text.text !== '') out.push(text)
        continue
      }
      out.push(text)
      continue
    }
    if (prev === undefined || prev.type !== 'text') out.push(textEmpty())
    const children = normalizeInline(node.children).filter((child): child is TextNode => child.type === 'text')
    out.push({ ...node, children: children.length === 0 ? [textEmpty()] : children })
  }
  if (out.length === 0 || out.at(-1)?.type !== 'text') out.push(textEmpty())
  return out
}

/** A text node with its keys in Strapi's order: type, text, marks, then any others. */
function canonicalText(node: TextNode): TextNode {
  const { type: _type, text, ...rest } = node
  const marks = Object.fromEntries(MARKS.filter((mark) => rest[mark] === true).map((mark) => [mark, true]))
  const others = Object.fromEntries(Object.entries(rest).filter(([key]) => !(MARKS as readonly string[]).includes(key) || rest[key] !== true))
  return { type: 'text', text, ...marks, ...others }
}

function inlineOf(node: MarkupElement): InlineNode[] {
  const into: InlineNode[] = []
  // Blocks nested inside a block (a browser's paragraph inside a quote) are lines of it.
  node.children.forEach((child, index) => {
    if (isElement(child) && BLOCK_TAGS.has(child.tag)) {
      if (index > 0) into.push({ type: 'text', text: '\n' })
      readInline(child.children, {}, {}, into)
    } else readInline([child], {}, {}, into)
  })
  // A line break a browser keeps at the end of a block only holds the empty line open.
  const last = into.at(-1)
  if (last?.type === 'text' && last.text.endsWith('\n') && node.children.length > 0 && isElement(node.children.at(-1) as Markup) && (node.children.at(-1) as MarkupElement).tag === 'br') into[into.length - 1] = { ...last, text: last.text.slice(0, -1) }
  return normalizeInline(into)
}

const textOf = (node: Markup): string => (isElement(node) ? (node.tag === 'br' ? '\n' : node.children.map(textOf).join('')) : node)

function readList(node: MarkupElement, depth: number): Block {
  const children: Block[] = []
  for (const child of node.children) {
    if (!isElement(child)) continue
    if (child.tag === 'ul' || child.tag === 'ol') children.push(readList(child, depth + 1))
    else if (child.tag === 'li') {
      // A list a browser nested inside an item becomes the item's following sibling, as Strapi nests.
      const nested = child.children.filter((inner): inner is MarkupElement => isElement(inner) && (inner.tag === 'ul' || inner.tag === 'ol'))
      const own = { ...child, children: child.children.filter((inner) => !nested.includes(inner as MarkupElement)) }
      if (child.attrs['data-wrapper'] === undefined) children.push({ type: 'list-item', children: inlineOf(own), ...extraIn(child) })
      for (const inner of nested) children.push(readList(inner, depth + 1))
    }
  }
  const indent = node.attrs['data-indent'] !== undefined ? { indentLevel: JSON.parse(node.attrs['data-indent']) as unknown } : depth > 0 ? { indentLevel: depth } : {}
  return { type: 'list', format: node.tag === 'ol' ? 'ordered' : 'unordered', ...indent, children, ...extraIn(node) }
}

function readBlock(node: MarkupElement): Block | undefined {
  const heading = /^h([1-6])$/.exec(node.tag)
  if (heading !== null) return { type: 'heading', level: Number(heading[1]), children: inlineOf(node), ...extraIn(node) }
  switch (node.tag) {
    case 'blockquote': return { type: 'quote', children: inlineOf(node), ...extraIn(node) }
    case 'pre': {
      const language = node.attrs['data-language'] === undefined ? {} : { language: node.attrs['data-language'] }
      // A line break a browser keeps at the end only holds the last line open.
      const last = node.children.at(-1)
      const text = textOf(node)
      return { type: 'code', ...language, children: [{ type: 'text', text: last !== undefined && isElement(last) && last.tag === 'br' ? text.slice(0, -1) : text }], ...extraIn(node) }
    }
    case 'ul':
    case 'ol': return readList(node, 0)
    case 'figure': return node.attrs['data-image'] === undefined ? undefined : { type: 'image', image: JSON.parse(node.attrs['data-image']) as unknown, children: [textEmpty()], ...extraIn(node) }
    default: return { type: 'paragraph', children: inlineOf(node), ...extraIn(node) }
  }
}

/** The blocks value of the editor's markup: top-level text or inline elements become paragraphs. */
export function markupToBlocks(nodes: readonly Markup[]): Block[] {
  const blocks: Block[] = []
  let loose: Markup[] = []
  const flush = () => {
    if (loose.length > 0 && !loose.every((node) => node === '')) blocks.push({ type: 'paragraph', children: inlineOf(el('p', {}, loose)) })
    loose = []
  }
  for (const node of nodes) {
    // A paragraph a browser's list or block command left holding blocks is only their container.
    if (isElement(node) && (node.tag === 'p' || node.tag === 'div') && node.children.some((child) => isElement(child) && BLOCK_TAGS.has(child.tag))) {
      flush()
      blocks.push(...markupToBlocks(node.children))
    } else if (isElement(node) && BLOCK_TAGS.has(node.tag)) {
      flush()
      const block = readBlock(node)
      if (block !== undefined) blocks.push(block)
    } else loose.push(node)
  }
  flush()
  return blocks
}
