// The admin pages' JSX runtime (lib/admin-ui/jsx/jsx-runtime.ts) renders what Hono's JSX renders:
// the same trees, built with each runtime, give the same HTML, escaping included.
import { Fragment as HonoFragment, jsx as honoJsx } from 'hono/jsx/jsx-runtime'
import { raw } from 'hono/html'
import { describe, expect, it } from 'vitest'
import { Fragment, jsx } from '../../lib/admin-ui/jsx/jsx-runtime.js'

type Runtime = { jsx: (tag: any, props: Record<string, unknown>) => unknown; Fragment: any }
const OURS: Runtime = { jsx, Fragment }
const HONO: Runtime = { jsx: honoJsx as Runtime['jsx'], Fragment: HonoFragment }

/** Trees as the compiled pages build them (jsx(tag, props) with children in props), for either runtime. */
const TREES: [string, (r: Runtime) => unknown][] = [
  ['text and attributes, escaped', (r) => r.jsx('p', { class: 'a"b', title: `<'&>`, children: `Tom & "Jerry" <script>alert('x')</script>` })],
  ['void elements, with and without attributes', (r) => r.jsx('div', { children: [r.jsx('br', {}), r.jsx('input', { type: 'text', name: 'q', value: 'x"y' }), r.jsx('meta', { charset: 'utf-8' })] })],
  ['boolean attributes, true and false', (r) => r.jsx('select', { multiple: true, disabled: false, children: [r.jsx('option', { value: 'a', selected: true, children: 'A' }), r.jsx('option', { value: 'b', selected: false, children: 'B' })] })],
  ['other attributes with booleans, numbers, null and undefined', (r) => r.jsx('main', { 'aria-invalid': true, 'aria-hidden': false, tabindex: -1, 'data-n': 0, title: null, id: undefined, children: 'x' })],
  ['hidden, readonly, required, defer', (r) => r.jsx('form', { children: [r.jsx('input', { hidden: true, readonly: true, required: true }), r.jsx('script', { src: 'a.js', defer: true })] })],
  ['React names', (r) => r.jsx('label', { htmlFor: 'f', className: 'c', children: 'L' })],
  ['children: numbers, nested arrays, null, false, empty strings', (r) => r.jsx('ul', { children: [1, [r.jsx('li', { children: 'a' }), [r.jsx('li', { children: 2 })]], null, false, true, undefined, '', 0] })],
  ['fragments and components, null components', (r) => {
    const Item = (props: { text: string }) => r.jsx('li', { children: props.text })
    const Nothing = () => null
    return r.jsx(r.Fragment, { children: [r.jsx('ul', { children: ['x<y', 'z'].map((text) => r.jsx(Item, { text })) }), r.jsx(Nothing, {}), r.jsx(r.Fragment, { children: 'tail &' })] })
  }],
  ['raw HTML and escaped strings as children and attributes', (r) => r.jsx(r.Fragment, { children: [raw('<!DOCTYPE html>'), r.jsx('a', { href: raw('?a=1&amp;b=2'), children: raw('<b>bold</b>') })] })],
  ['a component whose children are elements', (r) => {
    const Frame = (props: { title: string; children?: unknown }) => r.jsx('section', { children: [r.jsx('h2', { children: props.title }), props.children] })
    return r.jsx(Frame, { title: 'T & U', children: [r.jsx('p', { children: 'one' }), r.jsx('p', { children: 'two' })] })
  }],
  ['a textarea keeps its text as is, escaped', (r) => r.jsx('textarea', { name: 'd', children: '{"a": "<b>"}\n  line' })],
]

describe('the admin JSX runtime', () => {
  it.each(TREES)('renders %s as Hono does', async (_name, tree) => {
    // Act
    const ours = String(tree(OURS))
    const hono = String(await (tree(HONO) as { toString(): string | Promise<string> }).toString())

    // Assess
    expect(ours).toBe(hono)
  })

  it('refuses what it does not render rather than rendering it wrong', () => {
    expect(() => jsx('div', { dangerouslySetInnerHTML: { __html: '<b>' } })).toThrow(/dangerouslySetInnerHTML/)
    expect(() => jsx('div', { style: { color: 'red' } })).toThrow(/style/)
    expect(() => jsx('div', { children: Promise.resolve('x') })).toThrow(/async/)
  })
})
