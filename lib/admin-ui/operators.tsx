/** @jsxImportSource ./jsx */
// Operators' pages: locales (locales-page.tsx), API tokens (create with the key shown once, a
// permission matrix for custom tokens, revoke) and the public role. Each action is one call of the
// admin API through the in-process client; its errors are shown as the API words them, next to
// the field they name.
import type { Context } from 'hono'
import { messageOf, type ApiAnswer } from './api-client.js'
import { Csrf, Notice, Page, Problem, ShownOnce, to, type PageContext } from './layout.js'
import { registerLocalesPage } from './locales-page.js'
import { PermissionMatrix } from './matrix.js'
import { errorFor, FieldMessage, noticeOf, TextField } from './operator-common.js'
import { queryOf } from './paths.js'
import { seeOther, type Ui } from './ui.js'
import { registerWebhooksPages } from './webhooks-page.js'

interface Token {
  readonly id: number
  readonly name: string
  readonly type: string
  readonly permissions: readonly string[]
  readonly createdAt: string
  readonly description: string
  readonly expiresAt: string | null
}

/** The expiry choices of a new token, as Strapi's (days; '' never expires). */
const EXPIRIES = [['7', '7 days'], ['30', '30 days'], ['90', '90 days'], ['', 'Unlimited']] as const
const when = (iso: string) => `${iso.slice(0, 16).replace('T', ' ')} UTC`
/** A token's expiry in words, for its row. */
const expiryText = (token: Token, now: number) => token.expiresAt === null ? 'never' : `${Date.parse(token.expiresAt) <= now ? 'expired' : 'expires'} ${when(token.expiresAt)}`

/** Success messages after a redirect, by code: the query names a code, never the text. */

export function registerOperatorPages(ui: Ui): void {
  const { api } = ui
  registerLocalesPage(ui)
  registerWebhooksPages(ui)

  const tokensPage = async (c: Context, page: PageContext, view: { created?: Token & { accessKey: string }; problem?: ApiAnswer; form?: { name: string; type: string; permissions: string[]; description: string; expiry: string } } = {}, status = 200) => {
    const tokens = (await api.call('GET', '/admin/api-tokens')).body.data as Token[]
    const filled = view.form ?? { name: '', type: 'read-only', permissions: [], description: '', expiry: '30' }
    const now = Date.now()
    const nameError = errorFor(view.problem, 'name')
    return c.html(
      <Page page={page} title="API tokens" section="tokens">
        <Notice text={noticeOf(c)} />
        <Problem text={view.problem === undefined ? undefined : messageOf(view.problem)} />
        {view.created === undefined ? null : (
          <ShownOnce text={`Token ${view.created.name} created. Copy its key now: it is shown only this once, and stored only as a hash.`} id="new-key" label="Access key" value={view.created.accessKey} copy="Copy key" />
        )}
        <div class="scroll" role="region" aria-label="Tokens" tabindex={0}>
          <table>
            <caption>{tokens.length === 0 ? 'No tokens yet' : tokens.length === 1 ? 'One token' : `${tokens.length} tokens`}</caption>
            <thead><tr><th scope="col">Name</th><th scope="col">Type</th><th scope="col">Actions allowed</th><th scope="col">Created</th><th scope="col">Expiry</th><th scope="col"><span class="hint">Revoke</span></th></tr></thead>
            <tbody>
              {tokens.map((token) => (
                <tr>
                  <th scope="row">{token.name}{token.description === '' ? null : <span class="hint">{token.description}</span>}</th>
                  <td>{token.type}</td>
                  <td>{token.type === 'custom' ? (token.permissions.length === 0 ? 'none' : token.permissions.join(', ')) : `${token.permissions.length} (${token.type})`}</td>
                  <td><time datetime={token.createdAt}>{token.createdAt.slice(0, 16).replace('T', ' ')}</time></td>
                  <td>{expiryText(token, now)}</td>
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
            <TextField id="token-name" name="name" label="Name" value={filled.name} error={nameError} maxlength={100} />
            <div class="field">
              <label for="token-type">Type</label>
              <select id="token-type" name="type">
                {['read-only', 'full-access', 'custom'].map((type) => <option value={type} selected={filled.type === type}>{type}</option>)}
              </select>
            </div>
            <div class="field">
              <label for="token-expiry">Expires after</label>
              <select id="token-expiry" name="expiry">{EXPIRIES.map(([days, label]) => <option value={days} selected={filled.expiry === days}>{label}</option>)}</select>
            </div>
          </div>
          <div class="field">
            <label for="token-description">Description</label>
            <textarea id="token-description" name="description" rows={2} maxlength={1000}>{filled.description}</textarea>
            <FieldMessage id="token-description-error" text={errorFor(view.problem, 'description')} />
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
    const filled = { name: form.text('name')?.trim() ?? '', type: form.text('type') ?? '', permissions: form.all('permission'), description: form.text('description') ?? '', expiry: form.text('expiry') ?? '' }
    // Days in the form, the API's lifespan in ms (which it checks); empty: unlimited.
    const lifespan = /^\d{1,3}$/.test(filled.expiry) ? Number(filled.expiry) * 86_400_000 : null
    const body = { name: filled.name, type: filled.type, description: filled.description, lifespan, ...(filled.type === 'custom' ? { permissions: filled.permissions } : {}) }
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

