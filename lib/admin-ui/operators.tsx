/** @jsxImportSource hono/jsx */
// Operators' pages: locales (add, rename, default, fallback, delete), API tokens (create with the
// key shown once, a permission matrix for custom tokens, revoke) and the public role. Each action
// is one call of the admin API through the in-process client; its errors are shown as the API
// words them, next to the field they name.
import type { Context } from 'hono'
import { fieldErrorsOf, messageOf, type ApiAnswer } from './api-client.js'
import { Csrf, Notice, Page, Problem, to, type PageContext } from './layout.js'
import { PermissionMatrix } from './matrix.js'
import { queryOf } from './paths.js'
import { seeOther, type Ui } from './ui.js'

interface Locale {
  readonly code: string
  readonly name: string
  readonly isDefault: boolean
  readonly fallback: string | null
}

interface Token {
  readonly id: number
  readonly name: string
  readonly type: string
  readonly permissions: readonly string[]
  readonly createdAt: string
}

/** Success messages after a redirect, by code: the query names a code, never the text. */
const NOTICES: Record<string, (subject: string) => string> = {
  'locale-added': (code) => `Locale ${code} added.`,
  'locale-saved': (code) => `Locale ${code} saved. If its fallback changed, rebuild the served lists below.`,
  'locale-default': (code) => `${code} is now the default locale.`,
  'locale-deleted': (code) => `Locale ${code} deleted.`,
  'token-revoked': (name) => `Token ${name} revoked: it is refused from now on.`,
  'role-saved': () => 'Public role saved.',
}

export function noticeOf(c: Context): string | undefined {
  const code = c.req.query('notice')
  const render = code === undefined ? undefined : NOTICES[code]
  return render?.((c.req.query('subject') ?? '').slice(0, 100))
}

/** Why a locale cannot be deleted (the API's 409), and what to do about it. */
function explainLocaleConflict(message: string): string {
  if (/default/i.test(message)) return 'Make another locale the default first, then delete this one.'
  if (/fallback of/i.test(message)) return 'Other locales fall back to this one: change their fallback first.'
  if (/content/i.test(message)) return 'Documents still have versions in this locale: delete those versions first (the content lists show, per locale, which documents have one).'
  return 'A locale can be deleted only when it is not the default, no other locale falls back to it, and no document has a version in it.'
}

/** An error message tied to a field by id, for aria-describedby. */
function FieldMessage(props: { id: string; text: string | undefined }) {
  return props.text === undefined ? null : <span id={props.id} class="error">{props.text}</span>
}

/** The first field error of an answer for `field`. */
const errorFor = (answer: ApiAnswer | undefined, field: string) =>
  answer === undefined ? undefined : fieldErrorsOf(answer).find((error) => error.path[0] === field)?.message

interface LocalesView {
  readonly problem?: { answer: ApiAnswer; explain?: string }
  readonly adding?: { code: string; name: string; fallback: string; isDefault: boolean }
  readonly reindex?: { cursor?: string; documents: number; done: boolean }
}

export function registerOperatorPages(ui: Ui): void {
  const { api } = ui

  const localesPage = async (c: Context, page: PageContext, view: LocalesView = {}, status = 200) => {
    const locales = (await api.call('GET', '/admin/i18n/locales')).body.data as Locale[]
    const problem = view.problem
    const adding = view.adding ?? { code: '', name: '', fallback: '', isDefault: false }
    const codeError = errorFor(problem?.answer, 'code')
    const fallbackOptions = (current: string | null, except?: string) => [
      <option value="" selected={current === null || current === ''}>None</option>,
      ...locales.filter((locale) => locale.code !== except).map((locale) => <option value={locale.code} selected={locale.code === current}>{`${locale.name}`}</option>),
    ]
    return c.html(
      <Page page={page} title="Locales" section="locales">
        <Notice text={noticeOf(c)} />
        <Problem text={problem === undefined ? undefined : messageOf(problem.answer)} explain={problem?.explain} />
        {locales.map((locale) => {
          const id = `locale-${locale.code}`
          return (
            <section aria-labelledby={`${id}-title`}>
              <h2 id={`${id}-title`}>
                {locale.name}{' '}
                {locale.isDefault ? <span class="badge exists">default</span> : null}{' '}
                {locale.fallback === null ? null : <span class="badge">{`falls back to ${locale.fallback}`}</span>}
              </h2>
              <form method="post" action={to(page, `/admin/locales/${encodeURIComponent(locale.code)}`)} class="row">
                <Csrf token={page.csrf} />
                <div class="field">
                  <label for={`${id}-name`}>{`Name of ${locale.code}`}</label>
                  <input id={`${id}-name`} name="name" type="text" value={locale.name} required maxlength={100} />
                </div>
                <div class="field">
                  <label for={`${id}-fallback`}>{`Fallback of ${locale.code}`}</label>
                  <select id={`${id}-fallback`} name="fallback">{fallbackOptions(locale.fallback, locale.code)}</select>
                </div>
                <div class="field"><button type="submit">{`Save ${locale.code}`}</button></div>
              </form>
              <div class="row">
                {locale.isDefault ? null : (
                  <form method="post" action={to(page, `/admin/locales/${encodeURIComponent(locale.code)}/default`)}>
                    <Csrf token={page.csrf} />
                    <button type="submit" class="secondary">{`Make ${locale.code} the default`}</button>
                  </form>
                )}
                <form method="post" action={to(page, `/admin/locales/${encodeURIComponent(locale.code)}/delete`)} data-confirm={`Delete the locale ${locale.code}?`}>
                  <Csrf token={page.csrf} />
                  <button type="submit" class="danger">{`Delete ${locale.code}`}</button>
                </form>
              </div>
            </section>
          )
        })}
        <h2 id="add-title">Add a locale</h2>
        <form method="post" action={to(page, '/admin/locales')} aria-labelledby="add-title">
          <Csrf token={page.csrf} />
          <div class="row">
            <div class="field">
              <label for="new-code">Code</label>
              <input id="new-code" name="code" type="text" required value={adding.code} placeholder="fr, fr-CA, zh-Hans" aria-invalid={codeError === undefined ? undefined : 'true'} aria-describedby="new-code-error" />
              <FieldMessage id="new-code-error" text={codeError} />
            </div>
            <div class="field">
              <label for="new-name">Name (optional)</label>
              <input id="new-name" name="name" type="text" value={adding.name} maxlength={100} />
            </div>
            <div class="field">
              <label for="new-fallback">Fallback</label>
              <select id="new-fallback" name="fallback">{fallbackOptions(adding.fallback)}</select>
            </div>
            <div class="field">
              <span class="label">Default</span>
              <label><input type="checkbox" name="isDefault" value="true" checked={adding.isDefault} /> Make it the default</label>
            </div>
          </div>
          <button type="submit">Add locale</button>
        </form>
        <h2 id="reindex-title">Served lists</h2>
        <p class="hint">After a fallback changes, lists in the locales that fall back are read the slower way until their served lists are rebuilt.</p>
        {view.reindex === undefined ? null : (
          <p role="status">{view.reindex.done ? `Rebuilt: ${view.reindex.documents} documents read.` : `${view.reindex.documents} documents read so far; continue to finish.`}</p>
        )}
        <form method="post" action={to(page, '/admin/served-lists')} aria-labelledby="reindex-title">
          <Csrf token={page.csrf} />
          {view.reindex?.cursor === undefined || view.reindex.done ? null : <input type="hidden" name="cursor" value={view.reindex.cursor} />}
          <button type="submit" class="secondary">{view.reindex !== undefined && !view.reindex.done ? 'Continue rebuilding' : 'Rebuild served lists'}</button>
        </form>
      </Page>,
      status as 200,
    )
  }

  ui.page('/admin/locales', (c, page) => localesPage(c, page))
  ui.action('/admin/locales', async (c, page, form) => {
    const adding = { code: form.text('code')?.trim() ?? '', name: form.text('name')?.trim() ?? '', fallback: form.text('fallback') ?? '', isDefault: form.text('isDefault') === 'true' }
    const body = { code: adding.code, ...(adding.name === '' ? {} : { name: adding.name }), ...(adding.fallback === '' ? {} : { fallback: adding.fallback }), ...(adding.isDefault ? { isDefault: true } : {}) }
    const answer = await api.call('POST', '/admin/i18n/locales', body)
    if (answer.status === 201) return seeOther(c, `/admin/locales${queryOf({ notice: 'locale-added', subject: answer.body.data.code })}`)
    return localesPage(c, page, { problem: { answer }, adding }, answer.status)
  })
  ui.action('/admin/served-lists', async (c, page, form) => {
    const started = Date.now()
    let cursor = form.text('cursor')
    let documents = 0
    // A few seconds per request, well under the function's timeout; the cursor resumes the rest.
    for (;;) {
      const answer = await api.call('POST', '/admin/reindex', cursor === undefined ? {} : { cursor })
      if (answer.status !== 200) return localesPage(c, page, { problem: { answer } }, answer.status)
      const step = answer.body.data as { cursor?: string; documents: number; done: boolean }
      documents += step.documents
      cursor = step.cursor
      if (step.done || Date.now() - started > 4000) return localesPage(c, page, { reindex: { cursor, documents, done: step.done } })
    }
  })
  const changeLocale = (suffix: string, change: (form: import('./form.js').Form) => Record<string, unknown>, notice: string) =>
    ui.action(`/admin/locales/:code${suffix}`, async (c, page, form) => {
      const code = c.req.param('code') ?? ''
      const answer = await api.call('PUT', `/admin/i18n/locales/${encodeURIComponent(code)}`, change(form))
      if (answer.status === 200) return seeOther(c, `/admin/locales${queryOf({ notice, subject: answer.body.data.code })}`)
      return localesPage(c, page, { problem: { answer } }, answer.status)
    })
  changeLocale('', (form) => ({ name: form.text('name')?.trim() ?? '', fallback: (form.text('fallback') ?? '') === '' ? null : form.text('fallback') }), 'locale-saved')
  changeLocale('/default', () => ({ isDefault: true }), 'locale-default')
  ui.action('/admin/locales/:code/delete', async (c, page) => {
    const code = c.req.param('code') ?? ''
    const answer = await api.call('DELETE', `/admin/i18n/locales/${encodeURIComponent(code)}`)
    if (answer.status === 204) return seeOther(c, `/admin/locales${queryOf({ notice: 'locale-deleted', subject: code })}`)
    const explain = answer.status === 409 ? explainLocaleConflict(messageOf(answer)) : undefined
    return localesPage(c, page, { problem: { answer, explain } }, answer.status)
  })

  const tokensPage = async (c: Context, page: PageContext, view: { created?: Token & { accessKey: string }; problem?: ApiAnswer; form?: { name: string; type: string; permissions: string[] } } = {}, status = 200) => {
    const tokens = (await api.call('GET', '/admin/api-tokens')).body.data as Token[]
    const filled = view.form ?? { name: '', type: 'read-only', permissions: [] }
    const nameError = errorFor(view.problem, 'name')
    return c.html(
      <Page page={page} title="API tokens" section="tokens">
        <Notice text={noticeOf(c)} />
        <Problem text={view.problem === undefined ? undefined : messageOf(view.problem)} />
        {view.created === undefined ? null : (
          <div class="notice" role="status">
            <p>{`Token ${view.created.name} created. Copy its key now: it is shown only this once, and stored only as a hash.`}</p>
            <div class="field">
              <label for="new-key">Access key</label>
              <input id="new-key" class="key" type="text" readonly value={view.created.accessKey} />
              <button type="button" class="secondary" data-copy="new-key" hidden>Copy key</button>
            </div>
          </div>
        )}
        <div class="scroll" role="region" aria-label="Tokens" tabindex={0}>
          <table>
            <caption>{tokens.length === 0 ? 'No tokens yet' : tokens.length === 1 ? 'One token' : `${tokens.length} tokens`}</caption>
            <thead><tr><th scope="col">Name</th><th scope="col">Type</th><th scope="col">Actions allowed</th><th scope="col">Created</th><th scope="col"><span class="hint">Revoke</span></th></tr></thead>
            <tbody>
              {tokens.map((token) => (
                <tr>
                  <th scope="row">{token.name}</th>
                  <td>{token.type}</td>
                  <td>{token.type === 'custom' ? (token.permissions.length === 0 ? 'none' : token.permissions.join(', ')) : `${token.permissions.length} (${token.type})`}</td>
                  <td><time datetime={token.createdAt}>{token.createdAt.slice(0, 16).replace('T', ' ')}</time></td>
                  <td>
                    <form method="post" action={to(page, `/admin/tokens/${token.id}/revoke`)} data-confirm={`Revoke the token ${token.name}? Clients using it are refused at once.`}>
                      <Csrf token={page.csrf} />
                      <input type="hidden" name="name" value={token.name} />
                      <button type="submit" class="danger" aria-label={`Revoke ${token.name}`}>Revoke</button>
                    </form>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
        <h2 id="create-title">Create a token</h2>
        <form method="post" action={to(page, '/admin/tokens')} aria-labelledby="create-title">
          <Csrf token={page.csrf} />
          <div class="row">
            <div class="field">
              <label for="token-name">Name</label>
              <input id="token-name" name="name" type="text" required maxlength={100} value={filled.name} aria-invalid={nameError === undefined ? undefined : 'true'} aria-describedby="token-name-error" />
              <FieldMessage id="token-name-error" text={nameError} />
            </div>
            <div class="field">
              <label for="token-type">Type</label>
              <select id="token-type" name="type">
                {['read-only', 'full-access', 'custom'].map((type) => <option value={type} selected={filled.type === type}>{type}</option>)}
              </select>
            </div>
          </div>
          <fieldset id="token-matrix">
            <legend>Permissions (custom tokens only)</legend>
            <PermissionMatrix types={page.types} granted={new Set(filled.permissions)} caption="Actions the custom token may do" />
          </fieldset>
          <button type="submit">Create token</button>
        </form>
      </Page>,
      status as 200,
    )
  }

  ui.page('/admin/tokens', (c, page) => tokensPage(c, page))
  ui.action('/admin/tokens', async (c, page, form) => {
    const filled = { name: form.text('name')?.trim() ?? '', type: form.text('type') ?? '', permissions: form.all('permission') }
    const body = { name: filled.name, type: filled.type, ...(filled.type === 'custom' ? { permissions: filled.permissions } : {}) }
    const answer = await api.call('POST', '/admin/api-tokens', body)
    if (answer.status === 201) return tokensPage(c, page, { created: answer.body.data }, 201)
    return tokensPage(c, page, { problem: answer, form: filled }, answer.status)
  })
  ui.action('/admin/tokens/:id/revoke', async (c, page, form) => {
    const answer = await api.call('DELETE', `/admin/api-tokens/${encodeURIComponent(c.req.param('id') ?? '')}`)
    if (answer.status === 204) return seeOther(c, `/admin/tokens${queryOf({ notice: 'token-revoked', subject: form.text('name') ?? '' })}`)
    return tokensPage(c, page, { problem: answer }, answer.status)
  })

  const rolePage = async (c: Context, page: PageContext, problem?: ApiAnswer, status = 200) => {
    const granted = (await api.call('GET', '/admin/roles/public')).body.data.permissions as string[]
    return c.html(
      <Page page={page} title="Public role" section="public-role">
        <Notice text={noticeOf(c)} />
        <Problem text={problem === undefined ? undefined : messageOf(problem)} />
        <p>What a request without an <code>Authorization</code> header may do. Other processes apply a change within the cache TTL (5 s by default).</p>
        <form method="post" action={to(page, '/admin/public-role')}>
          <Csrf token={page.csrf} />
          <PermissionMatrix types={page.types} granted={new Set(granted)} caption="Actions of the public role" />
          <p><button type="submit">Save public role</button></p>
        </form>
      </Page>,
      status as 200,
    )
  }
  ui.page('/admin/public-role', (c, page) => rolePage(c, page))
  ui.action('/admin/public-role', async (c, page, form) => {
    const answer = await api.call('PUT', '/admin/roles/public', { permissions: form.all('permission') })
    if (answer.status === 200) return seeOther(c, `/admin/public-role${queryOf({ notice: 'role-saved' })}`)
    return rolePage(c, page, answer, answer.status)
  })
}
