// The Markdown preview of `richtext` fields: what each construct becomes, and that nothing of the
// source becomes markup the renderer did not choose (raw HTML is text, unsafe links are text).
import { describe, expect, it } from 'vitest'
import { markdownToMarkup, safeHref } from '../../lib/admin-ui/blocks/markdown.js'
import type { Markup } from '../../lib/admin-ui/blocks/model.js'

/** The tree as HTML-like text, for reading expectations (text escaped as a browser would show it). */
const show = (nodes: readonly Markup[]): string => nodes.map((node) => (typeof node === 'string'
  ? node.replaceAll('&', '&amp;').replaceAll('<', '&lt;')
  : `<${node.tag}${Object.entries(node.attrs).map(([key, value]) => ` ${key}="${value}"`).join('')}>${show(node.children)}</${node.tag}>`)).join('')

describe('the Markdown preview', () => {
  it('renders headings, paragraphs with marks, lists (nested), quotes, fenced code and rules', () => {
    const source = '# Title\n\nSome **bold**, *em*, ~~gone~~ and `x < y`.\nNext line with [a link](https://example.com/a).\n\n- one\n- two\n  1. two.a\n\n> quoted **text**\n\n```\n<script>alert(1)</script>\n```\n\n---'
    expect(show(markdownToMarkup(source))).toBe(
      '<h1>Title</h1>'
      + '<p>Some <strong>bold</strong>, <em>em</em>, <s>gone</s> and <code>x &lt; y</code>.<br></br>Next line with <a href="https://example.com/a">a link</a>.</p>'
      + '<ul><li>one</li><li>two<ol><li>two.a</li></ol></li></ul>'
      + '<blockquote><p>quoted <strong>text</strong></p></blockquote>'
      + '<pre><code>&lt;script>alert(1)&lt;/script></code></pre>'
      + '<hr></hr>',
    )
  })

  it.each([
    ['raw HTML', '<img src=x onerror=alert(1)> <b>hi</b>', '<p>&lt;img src=x onerror=alert(1)> &lt;b>hi&lt;/b></p>'],
    ['a javascript: link', '[click](javascript:alert(1))', '<p>[click](javascript:alert(1))</p>'],
    ['a data: link', '[x](data:text/html,hi)', '<p>[x](data:text/html,hi)</p>'],
    ['an image', '![a cat](https://example.com/cat.png)', '<p><a href="https://example.com/cat.png">Image: a cat</a></p>'],
    ['a mailto link', '[mail](mailto:a@example.com)', '<p><a href="mailto:a@example.com">mail</a></p>'],
    ['escaped marks', '\\*not em\\*', '<p>*not em*</p>'],
  ])('keeps %s safe', (_, source, html) => {
    expect(show(markdownToMarkup(source))).toBe(html)
  })

  it.each([
    ['https://a.example', true], ['HTTP://a.example', true], ['mailto:a@b.c', true], ['/uploads/a.png', true], ['#top', true],
    ['javascript:alert(1)', false], [' JavaScript:alert(1)', false], ['java\tscript:x', false], ['vbscript:x', false], ['data:text/html,x', false], ['//evil.example', false],
  ])('safeHref(%j) is %s', (href, safe) => {
    expect(safeHref(href)).toBe(safe)
  })
})
