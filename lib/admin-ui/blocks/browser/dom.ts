// Markup trees (model.ts) as DOM nodes and back, in the browser. Built with createElement and
// text nodes only, never innerHTML: only the elements and attributes listed here are ever made,
// and a link or image address that is not http(s), mailto or relative is kept aside (data-href),
// never followed.
import { safeHref } from '../markdown.js'
import type { Markup } from '../model.js'

const TAGS = new Set(['p', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'blockquote', 'pre', 'ul', 'ol', 'li', 'figure', 'img', 'a', 'strong', 'em', 'u', 's', 'code', 'span', 'br', 'hr'])
const ATTRIBUTES = new Set(['data-extra', 'data-indent', 'data-language', 'data-image', 'data-wrapper', 'contenteditable', 'alt'])
/** Block elements that need a line break inside to be a line a caret can enter when empty. */
const LINES = new Set(['p', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'blockquote', 'pre', 'li'])

/** The DOM nodes of a markup tree. */
export function toDom(nodes: readonly Markup[], doc: Document = document): Node[] {
  return nodes.map((node) => {
    if (typeof node === 'string') return doc.createTextNode(node)
    const element = doc.createElement(TAGS.has(node.tag) ? node.tag : 'span')
    for (const [name, value] of Object.entries(node.attrs)) {
      if (name === 'href' || name === 'src') element.setAttribute(safeHref(value) ? name : `data-${name}`, value)
      else if (ATTRIBUTES.has(name)) element.setAttribute(name, value)
    }
    element.append(...toDom(node.children, doc))
    if (LINES.has(node.tag) && (element.textContent ?? '') === '' && element.querySelector('br, img') === null) element.append(doc.createElement('br'))
    return element
  })
}

/** The markup tree of DOM nodes (what an edit left): elements by tag, the attributes the model reads. */
export function fromDom(nodes: Iterable<Node>): Markup[] {
  const out: Markup[] = []
  for (const node of nodes) {
    if (node.nodeType === Node.TEXT_NODE) out.push(node.nodeValue ?? '')
    else if (node instanceof HTMLElement) {
      const attrs: Record<string, string> = {}
      for (const name of ['data-extra', 'data-indent', 'data-language', 'data-image', 'data-wrapper']) {
        const value = node.getAttribute(name)
        if (value !== null) attrs[name] = value
      }
      const href = node.getAttribute('href') ?? node.getAttribute('data-href')
      if (href !== null) attrs.href = href
      out.push({ tag: node.tagName.toLowerCase(), attrs, children: fromDom(node.childNodes) })
    }
  }
  return out
}
