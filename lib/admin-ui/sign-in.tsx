/** @jsxImportSource ./jsx */
// Signing in to and out of the admin web interface: the sign-in form (its own CSRF token, then the
// throttle, then the token), sign-out (this session's item deleted), and sign-out everywhere
// (every session's).
import type { Context, Hono, MiddlewareHandler } from 'hono'
import { adminTokenMatches } from '../access.js'
import { formOf } from './form.js'
import { CSRF_FIELD, Csrf, Frame, Problem } from './layout.js'
import { relativeTo } from './paths.js'
import { clearSessionCookie, currentSession, endSignIn, SessionKeys, setSessionCookie, signInCsrfValid, startSignIn } from './session.js'
import { clientAddressOf, SignInThrottle } from './sign-in-throttle.js'
import { seeOther, type Ui } from './ui.js'

/** An error page of the interface, with its status. */
export type Refusal = (c: Context, status: 401 | 403 | 429, title: string, text: string) => Response | Promise<Response>

/** The sign-in and sign-out routes of `app`; `headers` are the security headers every page gets. */
export function registerSignIn(app: Hono, ui: Ui, keys: SessionKeys, headers: MiddlewareHandler, refused: Refusal): void {
  const { services } = ui
  const throttle = new SignInThrottle(services.signInAttempts, services.config.signIn)

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
  app.get('/admin/sign-in', headers, (c) => signInPage(c))
  app.post('/admin/sign-in', headers, async (c) => {
    const form = await formOf(c)
    if (!signInCsrfValid(c, keys, form.text(CSRF_FIELD) ?? '')) {
      return refused(c, 403, 'Refused', 'This sign-in form was sent without its security (CSRF) token, or it expired. Reload the page and sign in again.')
    }
    const client = clientAddressOf(c)
    const wait = await throttle.admit(client)
    if (wait !== undefined) {
      c.header('Retry-After', String(wait))
      return refused(c, 429, 'Too many attempts', `Too many sign-in attempts with a wrong token: nothing was checked. Try again in ${durationOf(wait)}.`)
    }
    if (!adminTokenMatches(`Bearer ${form.text('token') ?? ''}`, services.adminToken)) return signInPage(c, 'That is not the admin token.')
    await throttle.succeeded(client)
    const { value, session } = keys.issue(Date.now())
    await services.adminSessions.open(session.nonce, session.expires)
    setSessionCookie(c, value)
    endSignIn(c)
    return seeOther(c, '/admin')
  })
  ui.action('/admin/sign-out', async (c) => {
    await services.adminSessions.end(currentSession(c).nonce)
    clearSessionCookie(c)
    return seeOther(c, '/admin/sign-in')
  })
  ui.action('/admin/sign-out-everywhere', async (c) => {
    await services.adminSessions.endAll()
    clearSessionCookie(c)
    return seeOther(c, '/admin/sign-in')
  })
}

/** Seconds as a person reads them: `40 seconds`, `15 minutes`. */
function durationOf(seconds: number): string {
  if (seconds < 90) return `${seconds} second${seconds === 1 ? '' : 's'}`
  return `${Math.ceil(seconds / 60)} minutes`
}
