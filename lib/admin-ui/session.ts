// The admin web interface's session and CSRF tokens. A session is a signed cookie value
// (`v1.<expires>.<nonce>.<hmac>`), and a table item named by its nonce that says it is still live
// (lib/admin-sessions.ts): sign-out and sign-out everywhere delete items, so a copied cookie stops
// working at once. The key is derived from the admin token, so rotating the admin token ends every
// session too. Each form carries a CSRF token derived from the session's nonce (or, on the sign-in
// form, from a short-lived pre-session cookie's nonce).
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto'
import type { Context } from 'hono'
import { getCookie } from 'hono/cookie'

/** How long a session lasts from sign-in (absolute): a working day. */
export const SESSION_TTL_SECONDS = 8 * 60 * 60
/** How long the sign-in form stays valid. */
const SIGN_IN_TTL_SECONDS = 30 * 60

export const SESSION_COOKIE = 'admin_session'
const SIGN_IN_COOKIE = 'admin_sign_in'

/** A signed-in session: its nonce binds the CSRF token of its forms. */
export interface Session {
  readonly nonce: string
  readonly expires: number
}

/** Session and CSRF keys of one admin token; undefined token (no admin routes) signs nothing. */
export class SessionKeys {
  private readonly key: Buffer | undefined

  constructor(adminToken: string | undefined) {
    this.key = adminToken === undefined ? undefined : createHmac('sha256', adminToken).update('admin-ui-session').digest()
  }

  private mac(purpose: string, value: string): string {
    if (this.key === undefined) return ''
    return createHmac('sha256', this.key).update(`${purpose}.${value}`).digest('base64url')
  }

  /** A new session value, valid `SESSION_TTL_SECONDS` from `now` (ms). */
  issue(now: number): { value: string; session: Session } {
    const nonce = randomBytes(18).toString('base64url')
    const expires = Math.floor(now / 1000) + SESSION_TTL_SECONDS
    const body = `v1.${expires}.${nonce}`
    return { value: `${body}.${this.mac('session', body)}`, session: { nonce, expires } }
  }

  /** The session a cookie value holds; undefined when malformed, forged or expired. */
  verify(value: string | undefined, now: number): Session | undefined {
    const match = value === undefined ? null : /^(v1\.(\d{1,12})\.([A-Za-z0-9_-]{24}))\.([A-Za-z0-9_-]{43})$/.exec(value)
    if (match === null || this.key === undefined) return undefined
    const [, body = '', expires = '', nonce = '', mac = ''] = match
    if (!sameText(mac, this.mac('session', body))) return undefined
    if (Number(expires) * 1000 <= now) return undefined
    return { nonce, expires: Number(expires) }
  }

  /** The CSRF token of a session's forms. */
  csrfOf(session: Session): string {
    return this.mac('csrf', session.nonce)
  }

  /** The CSRF token of the sign-in form, bound to its pre-session nonce. */
  signInCsrfOf(nonce: string): string {
    return this.mac('sign-in', nonce)
  }
}

/** Constant-time equality of two strings (false for different lengths). */
export function sameText(a: string, b: string): boolean {
  const left = Buffer.from(a)
  const right = Buffer.from(b)
  return left.length === right.length && timingSafeEqual(left, right)
}

/**
 * `Secure` everywhere but plain http on the loopback (the local server): a browser keeps no
 * Secure cookie from an http origin, and localhost is the only http origin we serve.
 */
function secureFor(c: Context): boolean {
  const url = new URL(c.req.url)
  return !(url.protocol === 'http:' && ['localhost', '127.0.0.1', '[::1]'].includes(url.hostname))
}

/**
 * Sets a cookie: HttpOnly, SameSite=Strict, and no Path, so the browser scopes it to the folder of
 * `/admin/...` under whatever stage prefix the gateway adds (the app never sees that prefix).
 * Written by hand: hono's setCookie always adds a Path.
 */
function writeCookie(c: Context, name: string, value: string, maxAge: number): void {
  const secure = secureFor(c) ? '; Secure' : ''
  c.header('Set-Cookie', `${name}=${value}; Max-Age=${maxAge}; HttpOnly; SameSite=Strict${secure}`, { append: true })
}

/** Sets the session cookie. */
export function setSessionCookie(c: Context, value: string): void {
  writeCookie(c, SESSION_COOKIE, value, SESSION_TTL_SECONDS)
}

/** Clears the session cookie (sign-out). */
export function clearSessionCookie(c: Context): void {
  writeCookie(c, SESSION_COOKIE, '', 0)
}

/** The request's session cookie value. */
export function sessionCookieOf(c: Context): string | undefined {
  return getCookie(c, SESSION_COOKIE)
}

const SESSION_KEY = 'adminSession'

/** Keeps a checked session for the request's handler. */
export function rememberSession(c: Context, session: Session): void {
  c.set(SESSION_KEY as never, session as never)
}

/** The request's checked session (set by the session middleware before any page or action). */
export function currentSession(c: Context): Session {
  return c.get(SESSION_KEY as never) as Session
}

/** Starts a sign-in form: a pre-session nonce in its own cookie; returns the form's CSRF token. */
export function startSignIn(c: Context, keys: SessionKeys): string {
  const kept = getCookie(c, SIGN_IN_COOKIE)
  const nonce = kept !== undefined && /^[A-Za-z0-9_-]{24}$/.test(kept) ? kept : randomBytes(18).toString('base64url')
  writeCookie(c, SIGN_IN_COOKIE, nonce, SIGN_IN_TTL_SECONDS)
  return keys.signInCsrfOf(nonce)
}

/** True when a sign-in post's CSRF token matches its pre-session cookie. */
export function signInCsrfValid(c: Context, keys: SessionKeys, token: string): boolean {
  const nonce = getCookie(c, SIGN_IN_COOKIE)
  return nonce !== undefined && /^[A-Za-z0-9_-]{24}$/.test(nonce) && sameText(token, keys.signInCsrfOf(nonce))
}

/** Ends the pre-session once signed in. */
export function endSignIn(c: Context): void {
  writeCookie(c, SIGN_IN_COOKIE, '', 0)
}
