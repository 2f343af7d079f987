// The relative links of the documentation pages: every link from a page to another page, to a
// heading of a page (`page.md#anchor`, `#anchor`) or to a file or folder of the repository must
// resolve, so that a reader following one never lands on GitHub's 404 or at the top of a page.
// Links with a scheme (https:, mailto:) are not followed: the checker works offline.
import { existsSync, readFileSync, statSync } from 'node:fs'
import { dirname, relative, resolve, sep } from 'node:path'

/** The lines of a Markdown page outside fenced code blocks, each with its 1-based number. */
export function proseLines(markdown) {
  const lines = []
  let fence
  markdown.split('\n').forEach((line, index) => {
    const opening = /^\s*(`{3,}|~{3,})/.exec(line)
    if (fence === undefined && opening) fence = opening[1]
    else if (fence !== undefined && line.trim().startsWith(fence)) fence = undefined
    else if (fence === undefined) lines.push({ number: index + 1, text: line })
  })
  return lines
}

/** GitHub's anchor for a heading's text (github-slugger's rules, with markup rendered away). */
export function slug(heading) {
  const text = heading
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1') // a link shows its text
    .replace(/[*`]/g, '') // emphasis and code marks
    .replace(/<[^>]+>/g, '') // inline HTML
  return text.toLowerCase().replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '').replace(/ /g, '-')
}

/** The anchors a page's headings get, duplicates numbered as GitHub numbers them. */
export function anchors(markdown) {
  const seen = new Map()
  const result = new Set()
  for (const { text } of proseLines(markdown)) {
    const heading = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(text)
    if (!heading) continue
    const base = slug(heading[1])
    const count = seen.get(base) ?? 0
    seen.set(base, count + 1)
    result.add(count === 0 ? base : `${base}-${count}`)
  }
  return result
}

/** The link targets of one line of prose, inline code left out. */
function linkTargets(line) {
  const prose = line.replace(/`[^`]*`/g, '')
  return [...prose.matchAll(/!?\[(?:[^\]]|\][^(])*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)].map((match) => match[1])
}

/** What is wrong with one link of `page`, or undefined when it resolves. */
function problem(page, target, root, anchorsOf) {
  if (/^[a-z][a-z0-9+.-]*:/i.test(target)) return undefined // another site: not followed offline
  const [path, anchor] = target.split('#', 2)
  const file = path === '' ? page : resolve(path.startsWith('/') ? root : dirname(page), decodeURIComponent(path.replace(/^\//, '')))
  const inside = relative(root, file)
  if (inside.startsWith('..') || inside.startsWith(sep)) return 'points outside the repository'
  if (!existsSync(file)) return `${relative(root, file) || '.'} does not exist`
  if (anchor === undefined || anchor === '') return undefined
  if (statSync(file).isDirectory() || !file.endsWith('.md')) return `#${anchor} is not checkable: ${relative(root, file)} is not a Markdown page`
  return anchorsOf(file).has(anchor.toLowerCase()) ? undefined : `${relative(root, file)} has no heading #${anchor}`
}

/**
 * Every broken relative link of `pages` (absolute paths), as `page:line: link: why`; `root` is the
 * repository's folder (a link must stay inside it, and `/path` starts there).
 */
export function brokenLinks(pages, root) {
  const cache = new Map()
  const anchorsOf = (file) => {
    if (!cache.has(file)) cache.set(file, anchors(readFileSync(file, 'utf8')))
    return cache.get(file)
  }
  const broken = []
  for (const page of pages) {
    for (const { number, text } of proseLines(readFileSync(page, 'utf8'))) {
      for (const target of linkTargets(text)) {
        const why = problem(page, target, root, anchorsOf)
        if (why !== undefined) broken.push(`${relative(root, page)}:${number}: broken link (${target}): ${why}`)
      }
    }
  }
  return broken
}
