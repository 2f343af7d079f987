/** @jsxImportSource ./jsx */
// The admin web interface at `/admin`: server-rendered pages (JSX, see jsx/jsx-runtime.ts) for
// operators (locales, API tokens, the public role) and editors (one list and one document page
// per content type), behind a session opened with the admin token. Every page is sent with a strict
// Content-Security-Policy (our own script and stylesheet only, no inline script), and every form
// post is refused without the session's CSRF token.
import type { Context, Hono, MiddlewareHandler } from 'hono'
import { adminTokenMatches } from '../access.js'
import { routeName } from '../content-types.js'
import { createBaseApp } from '../http.js'
import type { Services } from '../services.js'
import { createApiClient, type ApiClient } from './api-client.js'
import { assetText, EDITOR_SCRIPT, SCRIPT, STYLESHEET, type Asset } from './assets.js'
import { registerEditorPages } from './editors.js'
import { formOf } from './form.js'
import { CSRF_FIELD, Csrf, Frame, Page, Problem, to, type PageContext } from './layout.js'
import { registerOperatorPages } from './operators.js'
import { relativeTo } from './paths.js'
import {
  clearSessionCookie, endSignIn, sameText, sessionCookieOf, SessionKeys, setSessionCookie, signInCsrfValid, startSignIn,
} from './session.js'
import { displayNameOf, typesOf } from './types.js'
import { seeOther, type Ui } from './ui.js'

/** No script but ours, no inline script or style, no framing, forms post only to us. */
export const CONTENT_SECURITY_POLICY =
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'"

const securityHeaders: MiddlewareHandler = async (c, next) => {
  await next()
  // The API's CORS headers are for the JSON API: pages are for our own origin only.
  for (const name of ['Access-Control-Allow-Origin', 'Access-Control-Expose-Headers']) c.header(name, undefined)
  c.header('Content-Security-Policy', CONTENT_SECURITY_POLICY)
  c.header('X-Content-Type-Options', 'nosniff')
  c.header('X-Frame-Options', 'DENY')
  c.header('Referrer-Policy', 'no-referrer')
  if (c.res.headers.get('Cache-Control') === null) c.header('Cache-Control', 'no-store')
}

const PAGE = 'adminPage'
/** The page context the session middleware left for the handler. */
const pageOf = (c: Context) => c.get(PAGE) as PageContext

/**
 * The admin web interface's routes, to be mounted beside the admin API (see createAdminSite);
 * `api` is the in-process API its pages call (tests pass one that counts the calls).
 */
export function createAdminUi(services: Services, api: ApiClient = createApiClient(services)): Hono {
  const app = createBaseApp(services.config, undefined, true)
  const keys = new SessionKeys(services.adminToken)
  const types = typesOf(services)

  const refused = (c: Context, status: 401 | 403, title: string, text: string) =>
    c.html(<Frame here={c.req.path} title={title}><Problem text={text} /><p><a href={relativeTo(c.req.path, '/admin')}>Back to the admin</a></p></Frame>, status)

  /** A signed-in session, or a redirect to the sign-in page. */
  const signedIn: MiddlewareHandler = async (c, next) => {
    const session = keys.verify(sessionCookieOf(c), Date.now())
    if (session === undefined) return seeOther(c, '/admin/sign-in')
    const page: PageContext = { here: c.req.path, csrf: keys.csrfOf(session), types }
    c.set(PAGE, page)
    await next()
  }
  const csrfChecked: MiddlewareHandler = async (c, next) => {
    const form = await formOf(c)
    const page = pageOf(c)
    if (!sameText(form.text(CSRF_FIELD) ?? '', page.csrf)) {
      return refused(c, 403, 'Refused', 'This form was sent without its security (CSRF) token, or with a wrong one, so nothing was changed. Reload the page and try again.')
    }
    await next()
  }

  const ui: Ui = {
    services,
    api,
    page: (path, handler) => {
      app.get(path, securityHeaders, signedIn, (c) => handler(c, pageOf(c)))
    },
    action: (path, handler) => {
      app.post(path, securityHeaders, signedIn, csrfChecked, async (c) => handler(c, pageOf(c), await formOf(c)))
    },
  }

  // Cached briefly: a page view is then one request, under the gateway's low /admin throttle.
  const asset = (file: Asset) => (c: Context) => c.body(assetText(file), 200, { 'Content-Type': `${file.type}; charset=utf-8`, 'Cache-Control': 'private, max-age=300' })
  for (const file of [STYLESHEET, SCRIPT, EDITOR_SCRIPT]) app.get(`/admin/assets/${file.name}`, securityHeaders, asset(file))

  const signInPage = (c: Context, problem?: string) => {
    const csrf = startSignIn(c, keys)
    return c.html(
      <Frame here={c.req.path} title="Sign in">
        <Problem text={problem} />
        <form method="post" action={relativeTo(c.req.path, '/admin/sign-in')}>
          <Csrf token={csrf} />
          {/* For password managers, which expect a user name beside a password. */}
          <input type="text" name="username" value="admin" autocomplete="username" hidden />
          <div class="field">
            <label for="token">Admin token</label>
            <input id="token" name="token" type="password" required autocomplete="current-password" aria-describedby="token-hint" />
            <span id="token-hint" class="hint">The deployment's admin token (printed by <code>npm start</code>; on AWS in the AdminTokenSecret).</span>
          </div>
          <button type="submit">Sign in</button>
        </form>
      </Frame>,
      problem === undefined ? 200 : 401,
    )
  }
  app.get('/admin/sign-in', securityHeaders, (c) => signInPage(c))
  app.post('/admin/sign-in', securityHeaders, async (c) => {
    const form = await formOf(c)
    if (!signInCsrfValid(c, keys, form.text(CSRF_FIELD) ?? '')) {
      return refused(c, 403, 'Refused', 'This sign-in form was sent without its security (CSRF) token, or it expired. Reload the page and sign in again.')
    }
    if (!adminTokenMatches(`Bearer ${form.text('token') ?? ''}`, services.adminToken)) return signInPage(c, 'That is not the admin token.')
    setSessionCookie(c, keys.issue(Date.now()).value)
    endSignIn(c)
    return seeOther(c, '/admin')
  })
  ui.action('/admin/sign-out', (c) => {
    clearSessionCookie(c)
    return seeOther(c, '/admin/sign-in')
  })

  ui.page('/admin', (c, page) => c.html(
    <Page page={page} title="Content">
      <ul class="cards">
        {types.map((type) => (
          <li>
            <h2><a href={to(page, `/admin/content/${routeName(type)}`)}>{displayNameOf(type)}</a></h2>
            <p class="hint">
              {type.kind === 'collection' ? 'Collection type' : 'Single type'} · <code>{`/api/${routeName(type)}`}</code>
            </p>
          </li>
        ))}
      </ul>
      <h2>Operations</h2>
      <ul>
        <li><a href={to(page, '/admin/locales')}>Locales</a>: add, rename, default and fallback</li>
        <li><a href={to(page, '/admin/tokens')}>API tokens</a>: create and revoke</li>
        <li><a href={to(page, '/admin/public-role')}>Public role</a>: what requests without a token may do</li>
        <li><a href={to(page, '/admin/hooks')}>Webhooks</a>: tell other systems when content changes</li>
      </ul>
    </Page>,
  ))

  registerOperatorPages(ui)
  registerEditorPages(ui)
  return app
}
