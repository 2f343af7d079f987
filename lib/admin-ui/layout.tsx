/** @jsxImportSource ./jsx */
// The page frame of the admin web interface: head (our stylesheet and script only), a skip link,
// the navigation, notices and problems, and the CSRF field every form carries. The JSX runtime
// (jsx/jsx-runtime.ts, Hono's rendering) escapes every value it renders, so content (untrusted
// input) always shows as text.
import type { Child } from 'hono/jsx'
import { raw } from 'hono/html'
import { routeName, type ContentType } from '../content-types.js'
import { displayNameOf } from './types.js'
import { relativeTo } from './paths.js'

export const CSRF_FIELD = '_csrf'

/** What every page of a signed-in session knows: where it is, its CSRF token, the types. */
export interface PageContext {
  readonly here: string
  readonly csrf: string
  readonly types: readonly ContentType[]
  /** The deployment takes uploads: the navigation has the media library. */
  readonly media?: boolean
}

/** A link target relative to the current page (see paths.ts). */
export const to = (page: { here: string }, path: string) => relativeTo(page.here, path)

/** The hidden CSRF field of a form. */
export function Csrf(props: { token: string }) {
  return <input type="hidden" name={CSRF_FIELD} value={props.token} />
}

interface FrameProps {
  readonly here: string
  readonly title: string
  readonly children?: Child
}

/** The document around a page, signed in or not. */
export function Frame(props: FrameProps & { header?: Child }) {
  return (
    <>
      {raw('<!DOCTYPE html>')}
      <html lang="en">
        <head>
          <meta charset="utf-8" />
          <meta name="viewport" content="width=device-width, initial-scale=1" />
          <title>{`${props.title} · Content admin`}</title>
          <link rel="stylesheet" href={relativeTo(props.here, '/admin/assets/admin.css')} />
          <script src={relativeTo(props.here, '/admin/assets/admin.js')} defer></script>
        </head>
        <body>
          <a class="skip" href="#main">Skip to content</a>
          {props.header}
          <main id="main" tabindex={-1}>
            <h1>{props.title}</h1>
            {props.children}
          </main>
        </body>
      </html>
    </>
  )
}

/** A signed-in page: the frame with the navigation and the sign-out button. */
export function Page(props: { page: PageContext; title: string; section?: string; children?: Child }) {
  const { page } = props
  const link = (path: string, label: string, section: string) => (
    <li><a href={to(page, path)} aria-current={props.section === section ? 'page' : undefined}>{label}</a></li>
  )
  const header = (
    <header class="top">
      <a class="brand" href={to(page, '/admin')}>Content admin</a>
      <nav aria-label="Main">
        <ul>
          {page.types.map((type) => link(`/admin/content/${routeName(type)}`, displayNameOf(type), `content:${routeName(type)}`))}
          {page.media === true ? link('/admin/media', 'Media library', 'media') : null}
          {link('/admin/locales', 'Locales', 'locales')}
          {link('/admin/tokens', 'API tokens', 'tokens')}
          {link('/admin/public-role', 'Public role', 'public-role')}
          {link('/admin/hooks', 'Webhooks', 'webhooks')}
        </ul>
      </nav>
      <form method="post" action={to(page, '/admin/sign-out')}>
        <Csrf token={page.csrf} />
        <button type="submit" class="secondary">Sign out</button>
      </form>
    </header>
  )
  return <Frame here={page.here} title={props.title} header={header}>{props.children}</Frame>
}

/** A success message, announced to screen readers. */
export function Notice(props: { text: string | undefined }) {
  return props.text === undefined ? null : <div class="notice" role="status"><p>{props.text}</p></div>
}

/** A secret shown only once after it is made (a token's key, a webhook's signing secret), in a read-only field with a copy button. */
export function ShownOnce(props: { text: string; id: string; label: string; value: string; copy: string }) {
  return (
    <div class="notice" role="status">
      <p>{props.text}</p>
      <div class="field">
        <label for={props.id}>{props.label}</label>
        <input id={props.id} class="key" type="text" readonly value={props.value} />
        <button type="button" class="secondary" data-copy={props.id} hidden>{props.copy}</button>
      </div>
    </div>
  )
}

/** What went wrong, announced at once; `explain` adds what the user can do about it. */
export function Problem(props: { text: string | undefined; explain?: string }) {
  if (props.text === undefined) return null
  return (
    <div class="problem" role="alert">
      <p>{props.text}</p>
      {props.explain === undefined ? null : <p>{props.explain}</p>}
    </div>
  )
}
