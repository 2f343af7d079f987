// The admin web interface's sessions and sign-in throttle (issue 33, point 4), over real HTTP on
// DynamoDB Local: a signed-out cookie is refused, sign-out everywhere ends every session (from the
// interface, the admin API and another process), and failed sign-ins are slowed per client address
// (each client a loopback address of its own, 127.0.0.x, as the local server sees it) and overall,
// for one window only, parallel attempts counted exactly.
import { request as httpRequest } from 'node:http'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { SESSION_CHECK_TTL_MS } from '../../lib/admin-sessions.js'
import { ADMIN_TOKEN, createPeer, createTestContext, holdWrites, tableSnapshot, type TestContext } from '../support/context.js'
import { startServer, type TestServer } from '../support/server.js'

interface Answer {
  readonly status: number
  readonly headers: Record<string, string | string[] | undefined>
  readonly body: string
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))
const csrfIn = (html: string) => /name="_csrf" value="([^"]+)"/.exec(html)?.[1] ?? ''
const cookiesOf = (answer: Answer) => ([answer.headers['set-cookie'] ?? []].flat()).map((line) => line.split(';')[0]).join('; ')
const locationOf = (answer: Answer) => String(answer.headers.location ?? '')

/** One HTTP request to `server` from the loopback address `from` (the client's address the server sees). */
function send(server: TestServer, from: string, method: string, path: string, options: { cookie?: string; form?: Record<string, string>; token?: string } = {}): Promise<Answer> {
  const url = new URL(path, server.url)
  const body = options.form === undefined ? undefined : new URLSearchParams(options.form).toString()
  const headers: Record<string, string> = {}
  if (options.cookie !== undefined) headers.Cookie = options.cookie
  if (body !== undefined) headers['Content-Type'] = 'application/x-www-form-urlencoded'
  if (options.token !== undefined) headers.Authorization = `Bearer ${options.token}`
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: url.hostname, port: url.port, path: url.pathname, method, headers, localAddress: from }, (res) => {
      let text = ''
      res.setEncoding('utf8')
      res.on('data', (chunk: string) => { text += chunk })
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text }))
    })
    req.on('error', reject)
    req.end(body)
  })
}

/** A client at loopback address `from`: its sign-in form (pre-session cookie and CSRF token), reused for every attempt. */
async function clientAt(server: TestServer, from: string) {
  const page = await send(server, from, 'GET', '/admin/sign-in')
  const form = { cookie: cookiesOf(page), csrf: csrfIn(page.body) }
  return {
    /** One sign-in attempt with `token`. */
    signIn: (token: string) => send(server, from, 'POST', '/admin/sign-in', { cookie: form.cookie, form: { _csrf: form.csrf, token } }),
    get: (path: string, cookie: string) => send(server, from, 'GET', path, { cookie }),
    post: (path: string, cookie: string, fields: Record<string, string>) => send(server, from, 'POST', path, { cookie, form: fields }),
  }
}

/** Signs in from `from`; the session cookie and the CSRF token of its forms. */
async function signedIn(server: TestServer, from = '127.0.0.1'): Promise<{ cookie: string; csrf: string }> {
  const client = await clientAt(server, from)
  const answer = await client.signIn(ADMIN_TOKEN)
  expect(answer.status).toBe(303)
  const cookie = [answer.headers['set-cookie'] ?? []].flat().find((line) => line.startsWith('admin_session='))?.split(';')[0] ?? ''
  const home = await client.get('/admin', cookie)
  expect(home.status).toBe(200)
  return { cookie, csrf: csrfIn(home.body) }
}

const WRONG = 'not-the-admin-token-0123456789'

/** Expects the answer to `path` to be a 303 to the sign-in page (what the interface answers without a session). */
function expectSentToSignIn(answer: Answer, path: string): void {
  expect({ path, status: answer.status, to: new URL(locationOf(answer), `http://localhost${path}`).pathname }).toEqual({ path, status: 303, to: '/admin/sign-in' })
}

describe('admin sessions', () => {
  let ctx: TestContext
  let server: TestServer

  beforeAll(async () => {
    ctx = await createTestContext()
    server = await startServer(ctx.app)
  })
  afterAll(() => server?.close())

  it('refuses the cookie of a signed-out session, for pages and for actions, and the action writes nothing', async () => {
    const session = await signedIn(server)
    const client = await clientAt(server, '127.0.0.1')
    expect((await client.post('/admin/sign-out', session.cookie, { _csrf: session.csrf })).status).toBe(303)
    for (const path of ['/admin', '/admin/locales', '/admin/content/articles']) expectSentToSignIn(await client.get(path, session.cookie), path)
    const before = await tableSnapshot(ctx)
    expectSentToSignIn(await client.post('/admin/locales', session.cookie, { _csrf: session.csrf, code: 'it' }), '/admin/locales')
    expect(await tableSnapshot(ctx)).toBe(before)
  })

  it('signs every session out with "Sign out everywhere", this one and another browser\'s', async () => {
    const first = await signedIn(server)
    const second = await signedIn(server, '127.0.0.2')
    const client = await clientAt(server, '127.0.0.1')
    expect((await client.get('/admin', second.cookie)).status).toBe(200)
    expect((await client.get('/admin', first.cookie)).body).toContain('Sign out everywhere')
    expect((await client.post('/admin/sign-out-everywhere', first.cookie, { _csrf: first.csrf })).status).toBe(303)
    expectSentToSignIn(await client.get('/admin', second.cookie), '/admin')
    expectSentToSignIn(await client.get('/admin', first.cookie), '/admin')
    const again = await signedIn(server)
    expect((await client.get('/admin', again.cookie)).status).toBe(200)
  })

  it('refuses "Sign out everywhere" without its CSRF token, and ends nothing', async () => {
    const session = await signedIn(server)
    const client = await clientAt(server, '127.0.0.1')
    expect((await client.post('/admin/sign-out-everywhere', session.cookie, { _csrf: 'forged' })).status).toBe(403)
    expect((await client.get('/admin', session.cookie)).status).toBe(200)
  })

  it('signs every session out through the admin API (the CLI\'s `sessions revoke`), with the admin token only', async () => {
    const session = await signedIn(server)
    expect((await send(server, '127.0.0.1', 'DELETE', '/admin/sessions', { cookie: session.cookie })).status).toBe(401)
    expect((await send(server, '127.0.0.1', 'GET', '/admin', { cookie: session.cookie })).status).toBe(200)
    expect((await send(server, '127.0.0.1', 'DELETE', '/admin/sessions', { token: ADMIN_TOKEN })).status).toBe(204)
    expectSentToSignIn(await send(server, '127.0.0.1', 'GET', '/admin', { cookie: session.cookie }), '/admin')
  })

  it(`ends a session for another process too, within ${SESSION_CHECK_TTL_MS} ms`, async () => {
    const session = await signedIn(server)
    const other = createPeer(ctx)
    const page = () => other.app.request('/admin', { headers: { Cookie: session.cookie } })
    expect((await page()).status).toBe(200) // the other process has seen it live
    const client = await clientAt(server, '127.0.0.1')
    expect((await client.post('/admin/sign-out', session.cookie, { _csrf: session.csrf })).status).toBe(303)
    await pause(SESSION_CHECK_TTL_MS)
    expect((await page()).status).toBe(303)
  })
})

describe('the sign-in throttle', () => {
  const WINDOW_SECONDS = 3
  let ctx: TestContext
  let server: TestServer

  beforeAll(async () => {
    ctx = await createTestContext({ signIn: { clientLimit: 3, globalLimit: 6, windowSeconds: WINDOW_SECONDS } })
    server = await startServer(ctx.app)
  })
  afterAll(() => server?.close())

  /** Expects a 429 with a Retry-After within the window; returns it (seconds). */
  const expectThrottled = (answer: Answer): number => {
    expect(answer.status).toBe(429)
    expect(answer.body).toContain('Too many sign-in attempts')
    const retryAfter = Number(answer.headers['retry-after'])
    expect(retryAfter).toBeGreaterThanOrEqual(1)
    expect(retryAfter).toBeLessThanOrEqual(WINDOW_SECONDS)
    expect([answer.headers['set-cookie'] ?? []].flat().some((line) => line.startsWith('admin_session='))).toBe(false)
    return retryAfter
  }

  it('refuses a client past its failures, even with the right token, until the window passes; other clients go on', async () => {
    const client = await clientAt(server, '127.0.0.11')
    for (let i = 0; i < 3; i++) expect((await client.signIn(WRONG)).status).toBe(401)
    expectThrottled(await client.signIn(WRONG))
    const wait = expectThrottled(await client.signIn(ADMIN_TOKEN))
    const neighbour = await clientAt(server, '127.0.0.12')
    expect((await neighbour.signIn(WRONG)).status).toBe(401)
    expect((await neighbour.signIn(ADMIN_TOKEN)).status).toBe(303)
    await pause(wait * 1000)
    expect((await client.signIn(ADMIN_TOKEN)).status).toBe(303)
  })

  it('starts a client afresh after a successful sign-in', async () => {
    const client = await clientAt(server, '127.0.0.21')
    for (let i = 0; i < 2; i++) expect((await client.signIn(WRONG)).status).toBe(401)
    expect((await client.signIn(ADMIN_TOKEN)).status).toBe(303)
    for (let i = 0; i < 3; i++) expect((await client.signIn(WRONG)).status).toBe(401)
    expectThrottled(await client.signIn(WRONG))
  })

  it('refuses every client past the global budget of failures (a guess spread over addresses), until the window passes', async () => {
    await pause(WINDOW_SECONDS * 1000) // the earlier tests' failures out of the global window
    const clients = await Promise.all([31, 32, 33].map((n) => clientAt(server, `127.0.0.${n}`)))
    for (const client of clients) for (let i = 0; i < 2; i++) expect((await client.signIn(WRONG)).status).toBe(401)
    const operator = await clientAt(server, '127.0.0.34')
    const wait = expectThrottled(await operator.signIn(ADMIN_TOKEN))
    await pause(wait * 1000)
    expect((await operator.signIn(ADMIN_TOKEN)).status).toBe(303)
  })
})

describe('the sign-in throttle under parallel attempts', () => {
  it('counts every one of parallel wrong attempts from one client: exactly its budget are checked, the rest refused', async () => {
    const ctx = await createTestContext({ signIn: { clientLimit: 5, globalLimit: 1000, windowSeconds: 300 } })
    const server = await startServer(ctx.app)
    try {
      const client = await clientAt(server, '127.0.0.41')
      const parallel = 8
      // Every attempt's first counter write held until all have arrived: they meet the counter together.
      holdWrites(ctx, 'client#127.0.0.41', parallel)
      const answers = await Promise.all(Array.from({ length: parallel }, () => client.signIn(WRONG)))
      expect(answers.map((answer) => answer.status).sort()).toEqual([401, 401, 401, 401, 401, 429, 429, 429])
      expect((await client.signIn(ADMIN_TOKEN)).status).toBe(429)
    } finally {
      await server.close()
    }
  })
})
