// The type of a file from its bytes (content-model.md §19): never from its name or Content-Type.
import sharp from 'sharp'
import { describe, expect, it } from 'vitest'
import { cleanName } from '../../lib/media/files.js'
import { isActive, sniff } from '../../lib/media/sniff.js'

const text = (value: string) => Buffer.from(value)

describe('sniff', () => {
  it.each([
    ['an SVG', text('<svg xmlns="http://www.w3.org/2000/svg"/>'), 'image/svg+xml', '.svg'],
    ['an SVG after an XML declaration and a comment', text('<?xml version="1.0"?>\n<!-- x -->\n<svg xmlns="http://www.w3.org/2000/svg"></svg>'), 'image/svg+xml', '.svg'],
    ['HTML', text('<!DOCTYPE html><html><body>hi</body></html>'), 'text/html', '.html'],
    ['a script tag in text', text('hello <script>alert(1)</script>'), 'text/html', '.html'],
    ['other XML', text('<?xml version="1.0"?><note/>'), 'application/xml', '.xml'],
    ['plain UTF-8 text', text('déjà vu, 42\n'), 'text/plain', '.txt'],
    ['binary noise', Buffer.from([0, 1, 2, 3, 255, 254, 0, 7]), 'application/octet-stream', '.bin'],
    ['a PDF', text('%PDF-1.7\n%âãÏÓ\n1 0 obj\n'), 'application/pdf', '.pdf'],
  ])('takes %s as %s', async (_, bytes, mime, ext) => {
    expect(await sniff(bytes)).toEqual({ mime, ext })
  })

  it('takes a JPEG as image/jpeg with the extension .jpg, and a PNG as image/png', async () => {
    const image = sharp({ create: { width: 2, height: 2, channels: 3, background: '#000' } })
    expect(await sniff(await image.clone().jpeg().toBuffer())).toEqual({ mime: 'image/jpeg', ext: '.jpg' })
    expect(await sniff(await image.clone().png().toBuffer())).toEqual({ mime: 'image/png', ext: '.png' })
  })

  it('names SVG, HTML and XML active, images and text not', () => {
    expect(['image/svg+xml', 'text/html', 'application/xml'].every(isActive)).toBe(true)
    expect(['image/png', 'text/plain', 'application/pdf'].some(isActive)).toBe(false)
  })
})

describe('cleanName', () => {
  it.each([
    ['../../etc/passwd', 'passwd'],
    ['C:\\Users\\me\\a.png', 'a.png'],
    ['a\u0000b\u001f.png', 'ab.png'],
    ['..', 'file'],
    ['dir/', 'file'],
    [`${'x'.repeat(300)}.png`, `${'x'.repeat(251)}.png`],
  ])('stores %j as %j', (raw, stored) => {
    expect(cleanName(raw)).toBe(stored)
  })
})
