/** @jsxImportSource ./jsx */
// The admin web interface at `/admin`: server-rendered pages (JSX, see jsx/jsx-runtime.ts) for
// operators (locales, API tokens, the public role) and editors (one list and one document page
// per content type), behind a session opened with the admin token. Every page is sent with a strict
// Content-Security-Policy (our own script and stylesheet only, no inline script), and every form
// post is refused without the session's CSRF token.
import type { Context, Hono, MiddlewareHandler } from 'hono'
import { routeName } from '../content-types.js'
import { createBaseApp } from '../http.js'
import type { Services } from '../services.js'
import { createApiClient, type ApiClient } from './api-client.js'
import { assetText, EDITOR_SCRIPT, SCRIPT, STYLESHEET, type Asset } from './assets.js'
import { registerEditorImages } from './editor-images.js'
import { formOf } from './form.js'
import { CSRF_FIELD, Csrf, Frame, Page, Problem, to, type PageContext } from './layout.js'
import { registerOperatorPages } from './operators.js'
import { relativeTo } from './paths.js'
import { rememberSession, sameText, sessionCookieOf, SessionKeys } from './session.js'
import { registerSignIn, type Refusal } from './sign-in.js'
import { displayNameOf, typesOf } from './types.js'
import { seeOther, type AdminPages, type Ui } from './ui.js'

/** No script but ours, no inline script or style, no framing, forms post only to us. */
export const CONTENT_SECURITY_POLICY =
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'"

/** The policy with images also from `imageOrigin` (the media files' CDN, when not our own origin). */
export function contentSecurityPolicy(imageOrigin: string | undefined): string {
  return imageOrigin === undefined ? CONTENT_SECURITY_POLICY : CONTENT_SECURITY_POLICY.replace("img-src 'self'", `img-src 'self' ${imageOrigin}`)
}

/** The origin of the media files' URLs, if they are absolute (S3 or the CDN, not `/uploads/`). */
function mediaOrigin(services: Services): string | undefined {
  const url = services.media?.blobs.urlOf('uploads/x')
  return url !== undefined && /^https?:\/\//.test(url) ? new URL(url).origin : undefined
}

const headersWith = (policy: string): MiddlewareHandler => async (c, next) => {
  await next()
  // The API's CORS headers are for the JSON API: pages are for our own origin only.
  for (const name of ['Access-Control-Allow-Origin', 'Access-Control-Expose-Headers']) c.header(name, undefined)
  c.header('Content-Security-Policy', policy)
  c.header('X-Content-Type-Options', 'nosniff')
  c.header('X-Frame-Options', 'DENY')
  c.header('Referrer-Policy', 'no-referrer')
  if (c.res.headers.get('Cache-Control') === null) c.header('Cache-Control', 'no-store')
}

const PAGE = 'adminPage'
/** The page context the session middleware left for the handler. */
const pageOf = (c: Context) => c.get(PAGE) as PageContext

/**
 * The admin web interface's routes, to be mounted beside the admin API (see createAdminSite):
 * the sign-in, the settings pages, and the page sets of `pages` (documents, media library);
 * `api` is the in-process API its pages call, with those sets' apps (tests pass one that counts the calls).
 */
export function createAdminUi(services: Services, api: ApiClient = createApiClient(services), pages: AdminPages = {}): Hono {
  const app = createBaseApp(services.config, undefined, true)
  const securityHeaders = headersWith(contentSecurityPolicy(mediaOrigin(services)))
  const keys = new SessionKeys(services.adminToken)
  const types = typesOf(services)

  const refused: Refusal = (c, status, title, text) =>
    c.html(<Frame here={c.req.path} title={title}><Problem text={text} /><p><a href={relativeTo(c.req.path, '/admin')}>Back to the admin</a></p></Frame>, status)

  /** A signed-in session, still live (not signed out), or a redirect to the sign-in page. */
  const signedIn: MiddlewareHandler = async (c, next) => {
    const session = keys.verify(sessionCookieOf(c), Date.now())
    if (session === undefined || !(await services.adminSessions.isLive(session.nonce))) return seeOther(c, '/admin/sign-in')
    rememberSession(c, session)
    const page: PageContext = { here: c.req.path, csrf: keys.csrfOf(session), types, media: pages.library !== undefined }
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

  registerSignIn(app, ui, keys, securityHeaders, refused)

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
      <h2>Sessions</h2>
      <form method="post" action={to(page, '/admin/sign-out-everywhere')}>
        <Csrf token={page.csrf} />
        <p class="hint" id="everywhere-hint">Ends every signed-in session of this admin interface, in every browser, this one included.</p>
        <button type="submit" class="secondary" aria-describedby="everywhere-hint">Sign out everywhere</button>
      </form>
    </Page>,
  ))

  registerOperatorPages(ui)
  // The blocks editor's image list, for the document pages' script: a path under `/admin/*`,
  // which the stack routes to the admin function, so every process serves it.
  registerEditorImages(ui)
  pages.editors?.pages(ui)
  // The library's pages need the upload API: only a process that takes uploads registers them.
  pages.library?.pages(ui)
  return app
}
