// The preview of a `richtext` (Markdown) value: a small CommonMark subset turned into a markup
// tree (model.ts), which the editor builds with createElement and text nodes, never innerHTML. Safe
// by construction: every character of the source is text, raw HTML included; only the elements
// below are made; a link keeps its address only when it is http(s), mailto or relative, else it is
// plain text; images are shown as links (the page's CSP loads no other origin's images).
import type { Markup, MarkupElement } from './model.js'

const el = (tag: string, children: readonly Markup[], attrs: Record<string, string> = {}): MarkupElement => ({ tag, attrs, children })

/** True for addresses a preview may link to. */
export function safeHref(url: string): boolean {
  const trimmed = url.trim()
  if (/^(https?:|mailto:)/i.test(trimmed)) return true
  // Relative: no scheme before the first slash, question mark or hash.
  return !/^[^/?#]*:/.test(trimmed) && !trimmed.startsWith('//')
}

const INLINE = /(\\[\\`*_{}[\]()#+\-.!~>])|(`+)([^`]|[^`][\s\S]*?[^`])\2(?!`)|(!?)\[([^\]]*)\]\(([^()\s]*)\)|(\*\*|__)(?=\S)([\s\S]*?\S)\7|(\*|_)(?=\S)([\s\S]*?\S)\9|~~(?=\S)([\s\S]*?\S)~~/

/** The inline markup of one paragraph's text. */
export function inlineMarkdown(source: string): Markup[] {
  const out: Markup[] = []
  let rest = source
  while (rest !== '') {
    const found = INLINE.exec(rest)
    if (found === null) {
      out.push(rest)
      break
    }
    if (found.index > 0) out.push(rest.slice(0, found.index))
    const [whole, escaped, , code, bang, label, href, , strong, , em, strike] = found
    if (escaped !== undefined) out.push(escaped.slice(1))
    else if (code !== undefined) out.push(el('code', [code.trim() === '' ? code : code.replace(/^ (.*) $/s, '$1')]))
    else if (label !== undefined) {
      const text = bang === '!' ? `Image: ${label === '' ? (href ?? '') : label}` : label
      out.push(href !== undefined && safeHref(href) && href !== '' ? el('a', bang === '!' ? [text] : inlineMarkdown(text), { href }) : whole)
    } else if (strong !== undefined) out.push(el('strong', inlineMarkdown(strong)))
    else if (em !== undefined) out.push(el('em', inlineMarkdown(em)))
    else if (strike !== undefined) out.push(el('s', inlineMarkdown(strike)))
    rest = rest.slice(found.index + whole.length)
  }
  return out
}

/** Inline markup of several lines: line breaks kept as `<br>`. */
const lines = (texts: readonly string[]): Markup[] => texts.flatMap((text, index) => (index === 0 ? inlineMarkdown(text) : [el('br', []), ...inlineMarkdown(text)]))

const LIST_ITEM = /^(\s*)([-*+]|\d{1,9}[.)])\s+(.*)$/

/** A list starting at `start`: items, deeper-indented items as a nested list; returns the next line. */
function list(source: readonly string[], start: number): [MarkupElement, number] {
  const first = LIST_ITEM.exec(source[start] as string) as RegExpExecArray
  const indent = (first[1] as string).length
  const ordered = /\d/.test(first[2] as string)
  const items: MarkupElement[] = []
  let index = start
  while (index < source.length) {
    const item = LIST_ITEM.exec(source[index] as string)
    if (item === null || (item[1] as string).length < indent) break
    if ((item[1] as string).length > indent && items.length > 0) {
      const [nested, next] = list(source, index)
      const last = items.pop() as MarkupElement
      items.push(el('li', [...last.children, nested]))
      index = next
      continue
    }
    if (/\d/.test(item[2] as string) !== ordered) break
    items.push(el('li', inlineMarkdown(item[3] as string)))
    index++
  }
  return [el(ordered ? 'ol' : 'ul', items), index]
}

/** The preview of a Markdown text: headings, paragraphs, lists, quotes, fenced code, rules. */
export function markdownToMarkup(source: string): MarkupElement[] {
  const all = source.replace(/\r\n?/g, '\n').split('\n')
  const out: MarkupElement[] = []
  let index = 0
  while (index < all.length) {
    const line = all[index] as string
    const fence = /^\s*(```|~~~)/.exec(line)
    if (line.trim() === '') index++
    else if (fence !== null) {
      const end = all.findIndex((other, at) => at > index && other.trim().startsWith(fence[1] as string))
      const stop = end === -1 ? all.length : end
      out.push(el('pre', [el('code', [all.slice(index + 1, stop).join('\n')])]))
      index = stop + 1
    } else if (/^#{1,6}(\s|$)/.test(line)) {
      const hashes = (/^#+/.exec(line) as RegExpExecArray)[0].length
      out.push(el(`h${hashes}`, inlineMarkdown(line.slice(hashes).replace(/\s+#+\s*$/, '').trim())))
      index++
    } else if (/^\s*([-*_])(\s*\1){2,}\s*$/.test(line)) {
      out.push(el('hr', []))
      index++
    } else if (/^\s*>/.test(line)) {
      const quoted: string[] = []
      while (index < all.length && /^\s*>/.test(all[index] as string)) quoted.push((all[index++] as string).replace(/^\s*> ?/, ''))
      out.push(el('blockquote', markdownToMarkup(quoted.join('\n'))))
    } else if (LIST_ITEM.test(line)) {
      const [made, next] = list(all, index)
      out.push(made)
      index = next
    } else {
      const paragraph: string[] = []
      while (index < all.length && (all[index] as string).trim() !== '' && !/^(#{1,6}(\s|$)|\s*>|\s*(```|~~~))/.test(all[index] as string) && !LIST_ITEM.test(all[index] as string)) paragraph.push((all[index++] as string).trim())
      out.push(el('p', lines(paragraph)))
    }
  }
  return out
}
