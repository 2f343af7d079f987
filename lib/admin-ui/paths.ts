// Every link, form action and redirect of the admin web interface is relative to the page it is
// on: behind API Gateway the app sees `/admin/...` while the browser is at `/<stage>/admin/...`,
// and relative URLs work under any such prefix without the app knowing it.

/** Links made, by page and target: a page makes dozens, most of them the same on every view. */
const made = new Map<string, string>()
const MADE_MAX = 4096

/** `to` (an app path, optionally with a query) relative to the page at app path `from`. */
export function relativeTo(from: string, to: string): string {
  const key = `${from}\n${to}`
  let link = made.get(key)
  if (link === undefined) {
    // Bounded: paths and queries come from requests.
    if (made.size >= MADE_MAX) made.clear()
    link = relativeLink(from, to)
    made.set(key, link)
  }
  return link
}

function relativeLink(from: string, to: string): string {
  const queryAt = to.indexOf('?')
  const path = queryAt === -1 ? to : to.slice(0, queryAt)
  const query = queryAt === -1 ? '' : to.slice(queryAt)
  const fromDir = from.split('/').slice(0, -1)
  const target = path.split('/')
  let shared = 0
  while (shared < fromDir.length && shared < target.length - 1 && fromDir[shared] === target[shared]) shared++
  const rest = target.slice(shared).join('/')
  // A first segment with a colon would read as a URL scheme.
  const relative = '../'.repeat(fromDir.length - shared) + (rest.includes(':') && shared === fromDir.length ? `./${rest}` : rest)
  return (relative === '' ? './' : relative) + query
}

/** A query string of the defined entries (`?a=1&b=2`), or '' when there are none. */
export function queryOf(entries: Record<string, string | number | undefined>): string {
  const params = new URLSearchParams()
  for (const [key, value] of Object.entries(entries)) if (value !== undefined && value !== '') params.set(key, String(value))
  const text = params.toString()
  return text === '' ? '' : `?${text}`
}
