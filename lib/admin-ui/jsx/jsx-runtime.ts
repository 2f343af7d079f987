// The JSX runtime of the admin pages (their `@jsxImportSource ./jsx`): each element is rendered
// to its HTML at once, as Hono's JSX renders it to a string (its escaping, void elements, boolean
// and normalized attributes, and types), without building a tree to walk afterwards. Hono's own
// runtime also serves the browser DOM, async components, contexts and hoisting into <head>, none
// of which a page here uses: it was 11 KB of the admin bundle. Every value rendered is escaped,
// so content (untrusted input) always shows as text.
import { escapeToBuffer, raw, type HtmlEscapedString } from 'hono/utils/html'

export type { JSX } from 'hono/jsx/jsx-runtime'

type Props = Record<string, unknown>
type Buffer = [string]

const VOID_ELEMENTS = new Set(['area', 'base', 'br', 'col', 'embed', 'hr', 'img', 'input', 'keygen', 'link', 'meta', 'param', 'source', 'track', 'wbr'])
/** Written as `name=""` when true and left out when false; any other attribute writes "true" or "false". */
const BOOLEAN_ATTRIBUTES = new Set([
  'allowfullscreen', 'async', 'autofocus', 'autoplay', 'checked', 'controls', 'default', 'defer', 'disabled', 'download',
  'formnovalidate', 'hidden', 'inert', 'ismap', 'itemscope', 'loop', 'multiple', 'muted', 'nomodule', 'novalidate', 'open',
  'playsinline', 'readonly', 'required', 'reversed', 'selected',
])
const REACT_NAMES = new Map([['className', 'class'], ['htmlFor', 'for'], ['crossOrigin', 'crossorigin'], ['httpEquiv', 'http-equiv'], ['formAction', 'formaction']])
/** What no attribute name may hold (Hono leaves such an attribute out). */
const INVALID_NAME = /[\s"'<>/=`\\\x00-\x1f\x7f-\x9f]/

const isEscaped = (value: unknown): value is HtmlEscapedString => value instanceof String && (value as HtmlEscapedString).isEscaped === true

function childTo(buffer: Buffer, child: unknown): void {
  if (child === null || child === undefined || typeof child === 'boolean') return
  if (typeof child === 'string') escapeToBuffer(child, buffer)
  else if (typeof child === 'number' || isEscaped(child)) buffer[0] += String(child)
  else if (Array.isArray(child)) for (const item of child) childTo(buffer, item)
  else if (child instanceof Promise) throw new Error('The admin JSX runtime renders no async component')
  else escapeToBuffer(String(child), buffer)
}

function attributeTo(buffer: Buffer, name: string, value: unknown): void {
  if (name === 'children' || name === 'ref' || value === null || value === undefined || INVALID_NAME.test(name)) return
  if (typeof value === 'boolean' && BOOLEAN_ATTRIBUTES.has(name)) {
    if (value) buffer[0] += ` ${name}=""`
    return
  }
  if (typeof value === 'function') {
    if (!name.startsWith('on')) throw new Error(`Invalid prop '${name}' of type 'function'`)
    return
  }
  if (name === 'dangerouslySetInnerHTML' || (name === 'style' && typeof value === 'object')) throw new Error(`The admin JSX runtime does not render ${name} objects`)
  buffer[0] += ` ${name}="`
  if (typeof value === 'number' || isEscaped(value)) buffer[0] += String(value)
  else escapeToBuffer(String(value), buffer)
  buffer[0] += '"'
}

/** An element or a component's output, as escaped HTML. */
export function jsx(tag: string | ((props: Props) => unknown), props: Props): HtmlEscapedString {
  const buffer: Buffer = ['']
  if (typeof tag === 'function') {
    childTo(buffer, tag(props))
    return raw(buffer[0])
  }
  buffer[0] = `<${tag}`
  for (const name in props) attributeTo(buffer, REACT_NAMES.get(name) ?? name, props[name])
  const { children } = props
  if (VOID_ELEMENTS.has(tag) && (children === undefined || (Array.isArray(children) && children.length === 0))) return raw(`${buffer[0]}/>`)
  buffer[0] += '>'
  childTo(buffer, children)
  buffer[0] += `</${tag}>`
  return raw(buffer[0])
}

export const jsxs = jsx

/** `<>...</>`: the children, side by side. */
export function Fragment(props: { children?: unknown }): HtmlEscapedString {
  const buffer: Buffer = ['']
  childTo(buffer, props.children)
  return raw(buffer[0])
}
