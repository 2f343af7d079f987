// The blocks editor's model: Strapi's blocks JSON to the editor's markup and back. Normalized JSON
// (as Strapi's Slate editor saves it) comes back exactly; what a browser's editing leaves in the
// markup is read the way Slate normalizes it.
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { blocksToMarkup, markupToBlocks, MARKS, type Block, type Markup } from '../../lib/admin-ui/blocks/model.js'
import { rounds } from '../support/rounds.js'

const roundTrip = (blocks: Block[]) => markupToBlocks(blocksToMarkup(blocks))

// ---- a generator of normalized blocks JSON (no two neighbour texts with the same marks, no empty
// text except beside a link or alone, links between texts, nested lists with their indentLevel)
const text = fc.string({ unit: fc.constantFrom('a', 'Z', ' ', 'é', '<', '>', '&', '"', "'", '\n', '漢', '*'), minLength: 1, maxLength: 8 })
const markSet = fc.subarray([...MARKS])
const run = fc.array(markSet, { minLength: 1, maxLength: 3 })
  .filter((sets) => sets.every((set, index) => index === 0 || set.join() !== sets[index - 1]!.join()))
  .chain((sets) => fc.tuple(...sets.map((set) => text.map((value) => ({ type: 'text', text: value, ...Object.fromEntries(set.map((mark) => [mark, true])) })))))
const empty = { type: 'text', text: '' }
const url = fc.constantFrom('https://example.com/a?b=1&c=2', 'mailto:x@example.com', '/relative', '')
const link = fc.tuple(url, run, fc.boolean()).map(([href, children, strapiExtra]) => ({ type: 'link', url: href, children, ...(strapiExtra ? { rel: '', target: '' } : {}) }))
const inline = fc.oneof(
  fc.constant([empty]),
  run,
  fc.tuple(fc.oneof(run, fc.constant([empty])), fc.array(fc.tuple(link, fc.oneof(run, fc.constant([empty]))), { minLength: 1, maxLength: 2 }))
    .map(([first, rest]) => [...first, ...rest.flatMap(([a, after]) => [a, ...after])]),
) as fc.Arbitrary<unknown[]>
const image = fc.record({ name: fc.constant('cat.png'), alternativeText: fc.string({ maxLength: 5 }), url: fc.constant('/uploads/cat_1a2b.png'), caption: fc.constantFrom(null, 'A cat'), width: fc.nat(4000), height: fc.nat(4000), formats: fc.constant({ thumbnail: { url: '/uploads/thumbnail_cat.png', width: 156, height: 156 } }), hash: fc.constant('cat_1a2b'), ext: fc.constant('.png'), mime: fc.constant('image/png'), size: fc.double({ min: 0, max: 999, noNaN: true }), previewUrl: fc.constant(null), provider: fc.constant('local'), provider_metadata: fc.constant(null), createdAt: fc.constant('2026-11-27T10:00:00.000Z'), updatedAt: fc.constant('2026-11-27T10:00:00.000Z') })
const listOf = (depth: number): fc.Arbitrary<Block> => fc.tuple(fc.constantFrom('ordered', 'unordered'), fc.array(depth < 3 ? fc.oneof({ weight: 3, arbitrary: inline.map((children) => ({ type: 'list-item', children })) }, { weight: 1, arbitrary: fc.constant(null) }) : inline.map((children) => ({ type: 'list-item', children })), { minLength: 1, maxLength: 3 }))
  .chain(([format, items]) => fc.tuple(...items.map((item) => (item === null ? listOf(depth + 1) : fc.constant(item as Block)))).map((children) => ({ type: 'list', format, ...(depth > 0 ? { indentLevel: depth } : {}), children }) as Block))
const block: fc.Arbitrary<Block> = fc.oneof(
  inline.map((children) => ({ type: 'paragraph', children })),
  fc.tuple(fc.integer({ min: 1, max: 6 }), inline).map(([level, children]) => ({ type: 'heading', level, children })),
  inline.map((children) => ({ type: 'quote', children })),
  fc.tuple(fc.option(fc.constantFrom('plaintext', 'javascript'), { nil: undefined }), fc.string({ maxLength: 20 })).map(([language, code]) => ({ type: 'code', ...(language === undefined ? {} : { language }), children: [{ type: 'text', text: code }] })),
  listOf(0),
  image.map((value) => ({ type: 'image', image: value, children: [empty] })),
) as fc.Arbitrary<Block>

describe('the blocks model', () => {
  it('gives back every normalized blocks value exactly (property)', () => {
    fc.assert(fc.property(fc.array(block, { maxLength: 6 }), (drawn) => {
      // As the API answers it: JSON text parsed.
      const blocks = JSON.parse(JSON.stringify(drawn)) as Block[]
      expect(roundTrip(blocks)).toStrictEqual(blocks)
      expect(JSON.stringify(roundTrip(blocks))).toBe(JSON.stringify(blocks))
    }), { numRuns: rounds(300) })
  })

  it("gives back Strapi's own document: every block type, marks, a link Strapi inserted with rel and target", () => {
    const document: Block[] = [
      { type: 'heading', level: 2, children: [{ type: 'text', text: 'Title' }] },
      { type: 'paragraph', children: [{ type: 'text', text: 'A ' }, { type: 'text', text: 'bold', bold: true }, { type: 'text', text: ' and ', italic: true, underline: true }, { type: 'text', text: 'x()', code: true }, { type: 'link', url: 'https://strapi.io', children: [{ type: 'text', text: 'Strapi' }], rel: '', target: '' }, { type: 'text', text: '' }] },
      { type: 'list', format: 'unordered', children: [{ type: 'list-item', children: [{ type: 'text', text: 'one' }] }, { type: 'list', format: 'ordered', indentLevel: 1, children: [{ type: 'list-item', children: [{ type: 'text', text: 'one.a', strikethrough: true }] }] }] },
      { type: 'quote', children: [{ type: 'text', text: 'Said.' }] },
      { type: 'code', language: 'plaintext', children: [{ type: 'text', text: 'let a = 1\n<b>' }] },
      { type: 'image', image: { name: 'a.png', alternativeText: 'a', url: '/uploads/a.png', caption: null, width: 10, height: 10, formats: {}, hash: 'a', ext: '.png', mime: 'image/png', size: 0.1, previewUrl: null, provider: 'local', provider_metadata: null, createdAt: '2026-11-27T10:00:00.000Z', updatedAt: '2026-11-27T10:00:00.000Z' }, children: [{ type: 'text', text: '' }] },
    ]
    expect(roundTrip(document)).toStrictEqual(document)
  })

  it('reads what browsers leave: b/i/strike tags, neighbours with equal marks merged, a trailing <br>, stray text, a list nested in an item', () => {
    const p = (children: Markup[], tag = 'p'): Markup => ({ tag, attrs: {}, children })
    const markup: Markup[] = [
      'loose ',
      p(['x'], 'b'),
      p([p(['a'], 'b'), p(['b'], 'strong'), p(['c'], 'i'), p(['d'], 'strike'), p([], 'br')]),
      p([p(['one', p([p(['two'], 'li')], 'ul')], 'li')], 'ol'),
      p([p(['line 1'], 'div'), p(['line 2'], 'div')], 'blockquote'),
    ]
    expect(markupToBlocks(markup)).toStrictEqual([
      { type: 'paragraph', children: [{ type: 'text', text: 'loose ' }, { type: 'text', text: 'x', bold: true }] },
      { type: 'paragraph', children: [{ type: 'text', text: 'ab', bold: true }, { type: 'text', text: 'c', italic: true }, { type: 'text', text: 'd', strikethrough: true }] },
      { type: 'list', format: 'ordered', children: [{ type: 'list-item', children: [{ type: 'text', text: 'one' }] }, { type: 'list', format: 'unordered', indentLevel: 1, children: [{ type: 'list-item', children: [{ type: 'text', text: 'two' }] }] }] },
      { type: 'quote', children: [{ type: 'text', text: 'line 1\nline 2' }] },
    ])
  })

  it('keeps an empty editor empty and an empty paragraph as Slate saves it', () => {
    expect(markupToBlocks([])).toStrictEqual([])
    expect(markupToBlocks([{ tag: 'p', attrs: {}, children: [{ tag: 'br', attrs: {}, children: [] }] }])).toStrictEqual([{ type: 'paragraph', children: [{ type: 'text', text: '' }] }])
  })
})
