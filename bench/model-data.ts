// The documents of the components and media benchmark (bench/model/, issues 34 and 35): landing
// pages with a zone of 8 blocks (about 20 KB a version, nested components inside), image files with
// Strapi's four formats, and articles whose cover names one of them. Deterministic from a seed.
import type { Attributes } from '../lib/body.js'
import type { FileAttributes, FileFormat } from '../lib/media/file-type.js'
import { words } from './seed.js'

/** About `chars` characters of words. */
function prose(rnd: () => number, chars: number): string {
  let text = ''
  while (text.length < chars) text += `${words(rnd, 'en', 12)}. `
  return text.slice(0, chars)
}

/** The zone's blocks in order: one hero, then text and cards alternating (8 in all). */
const ZONE = ['hero', 'text', 'cards', 'text', 'cards', 'text', 'cards', 'text'] as const
/** Characters of text in each block (its long text fields together). */
const BLOCK_CHARS = 2300

/** The zone of landing `i`, as a write stores it: each entry with its `__component` and an id unique in the document, nested entries too. */
export function landingBlocks(rnd: () => number, i: number): Attributes[] {
  let id = 0
  const link = (label: string) => ({ id: ++id, label, url: `/pages/${i}/${label.toLowerCase().replace(/\s+/g, '-')}` })
  return ZONE.map((kind, k): Attributes => {
    const heading = `${words(rnd, 'en', 3)} ${k}`
    if (kind === 'hero') return { __component: 'blocks.hero', id: ++id, heading, text: prose(rnd, BLOCK_CHARS), cta: link('Read more') }
    if (kind === 'text') return { __component: 'blocks.text', id: ++id, heading, body: prose(rnd, BLOCK_CHARS) }
    const cards = Array.from({ length: 3 }, (_, c) => ({ id: ++id, title: words(rnd, 'en', 2), text: prose(rnd, 250), link: link(`Card ${c}`) }))
    return { __component: 'blocks.cards', id: ++id, heading, intro: prose(rnd, BLOCK_CHARS - 750), cards }
  })
}

/** Strapi's breakpoints, as the formats of a 1600 x 1067 image. */
const FORMATS: readonly [string, number, number][] = [['thumbnail', 234, 156], ['large', 1000, 667], ['medium', 750, 500], ['small', 500, 333]]

/** The attributes of image file `i` as an upload of a 1600 x 1067 JPEG leaves them (its objects are not stored). */
export function imageAttributes(rnd: () => number, i: number): FileAttributes {
  const hash = Math.floor(rnd() * 2 ** 48).toString(16).padStart(12, '0')
  const formats: Record<string, FileFormat> = {}
  for (const [name, width, height] of FORMATS) {
    const bytes = Math.round(width * height * 0.12)
    formats[name] = { name: `${name}_cover-${i}.jpg`, hash: `${name}_${hash}`, ext: '.jpg', mime: 'image/jpeg', path: null, width, height, size: bytes / 1000, sizeInBytes: bytes, url: `/uploads/${name}_${hash}.jpg` }
  }
  return {
    name: `cover-${i}.jpg`, alternativeText: `Cover ${i}`, caption: null, width: 1600, height: 1067, formats, hash, ext: '.jpg', mime: 'image/jpeg',
    size: 204.8, url: `/uploads/${hash}.jpg`, previewUrl: null, provider: 'local', provider_metadata: null,
  }
}
