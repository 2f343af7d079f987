/** @jsxImportSource ./jsx */
// The webhooks pages (integration.md §20): the list with a create form (the signing secret shown
// once), and one page per webhook with its settings, the test action, its delivery log and a
// redeliver action per attempt. Each action is one call of the admin API through the in-process client.
import type { Context } from 'hono'
import type { DeliveryAttempt } from '../storage/webhooks.js'
import { WEBHOOK_EVENTS } from '../webhooks/messages.js'
import type { WebhookView } from '../webhooks/service.js'
import { messageOf, type ApiAnswer } from './api-client.js'
import type { Form } from './form.js'
import { Csrf, Notice, Page, Problem, ShownOnce, to, type PageContext } from './layout.js'
import { errorFor, noticeOf, TextField } from './operator-common.js'
import { queryOf } from './paths.js'
import { seeOther, type Ui } from './ui.js'

/** The admin API's answers, as lib/webhooks/ and lib/storage/webhooks.ts describe them. */
type Webhook = WebhookView
type Attempt = DeliveryAttempt

interface Result { readonly statusCode: number | null; readonly durationMs: number; readonly error: string | null }

const resultText = (result: Result) =>
  result.error === null ? `Delivered: HTTP ${result.statusCode} in ${result.durationMs} ms.` : `Not delivered (${result.error}) after ${result.durationMs} ms.`

/** `Name: value` lines into headers; a line with a name only keeps that header's stored value. */
function headersOf(text: string): Record<string, string | null> {
  const lines = text.split(/\r?\n/).map((line) => line.trim()).filter((line) => line !== '')
  return Object.fromEntries(lines.map((line) => {
    const colon = line.indexOf(':')
    return colon === -1 ? [line, null] : [line.slice(0, colon).trim(), line.slice(colon + 1).trim()]
  }))
}

function WebhookFields(props: { values: { name: string; url: string; events: readonly string[]; headers: string; isEnabled: boolean }; problem: ApiAnswer | undefined; editing: boolean }) {
  const { values, problem } = props
  return (
    <>
      <div class="row">
        <TextField id="webhook-name" name="name" label="Name" value={values.name} error={errorFor(problem, 'name')} maxlength={100} />
        <TextField id="webhook-url" name="url" label="URL" value={values.url} error={errorFor(problem, 'url')} placeholder="https://example.com/hook" />
      </div>
      <fieldset>
        <legend>Events</legend>
        {WEBHOOK_EVENTS.map((event) => (
          <label class="check"><input type="checkbox" name="event" value={event} checked={values.events.includes(event)} />{` ${event}`}</label>
        ))}
      </fieldset>
      <div class="field">
        <label for="webhook-headers">Headers, one <code>Name: value</code> a line</label>
        <textarea id="webhook-headers" name="headers" rows={3} aria-describedby="webhook-headers-hint">{values.headers}</textarea>
        <span id="webhook-headers-hint" class="hint">{props.editing ? 'Values are never shown back: a line with a name only keeps that header\'s value; a header left out is removed.' : 'Sent with every delivery; the values are never shown back.'}</span>
      </div>
      <label class="check"><input type="checkbox" name="isEnabled" value="true" checked={values.isEnabled} />{' Enabled'}</label>
    </>
  )
}

export function registerWebhooksPages(ui: Ui): void {
  const { api } = ui

  const listPage = async (c: Context, page: PageContext, view: { created?: Webhook & { secret: string }; problem?: ApiAnswer; form?: Form } = {}, status = 200) => {
    const webhooks = (await api.call('GET', '/admin/webhooks')).body.data as Webhook[]
    const form = view.form
    const values = { name: form?.text('name') ?? '', url: form?.text('url') ?? '', events: form?.all('event') ?? ['entry.publish'], headers: form?.text('headers') ?? '', isEnabled: form === undefined || form.has('isEnabled') }
    return c.html(
      <Page page={page} title="Webhooks" section="webhooks">
        <Notice text={noticeOf(c)} />
        <Problem text={view.problem === undefined ? undefined : messageOf(view.problem)} />
        {view.created === undefined ? null : (
          <ShownOnce text={`Webhook ${view.created.name} created. Copy its signing secret now: it is shown only this once.`} id="new-secret" label="Signing secret" value={view.created.secret} copy="Copy secret" />
        )}
        <div class="scroll" role="region" aria-label="Webhooks" tabindex={0}>
          <table>
            <caption>{webhooks.length === 0 ? 'No webhooks yet' : webhooks.length === 1 ? 'One webhook' : `${webhooks.length} webhooks`}</caption>
            <thead><tr><th scope="col">Name</th><th scope="col">URL</th><th scope="col">Events</th><th scope="col">State</th></tr></thead>
            <tbody>
              {webhooks.map((webhook) => (
                <tr>
                  <th scope="row"><a href={to(page, `/admin/hooks/${webhook.id}`)}>{webhook.name}</a></th>
                  <td><code>{webhook.url}</code></td>
                  <td>{webhook.events.join(', ')}</td>
                  <td>{webhook.isEnabled ? 'enabled' : 'disabled'}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
        <h2 id="create-title">Create a webhook</h2>
        <form method="post" action={to(page, '/admin/hooks')} aria-labelledby="create-title">
          <Csrf token={page.csrf} />
          <WebhookFields values={values} problem={view.problem} editing={false} />
          <p><button type="submit">Create webhook</button></p>
        </form>
      </Page>,
      status as 200,
    )
  }

  const hookPage = async (c: Context, page: PageContext, view: { problem?: ApiAnswer; result?: Result; form?: Form } = {}, status = 200) => {
    const id = encodeURIComponent(c.req.param('id') ?? '')
    const answer = await api.call('GET', `/admin/webhooks/${id}`)
    if (answer.status !== 200) return listPage(c, page, { problem: answer }, answer.status)
    const webhook = answer.body.data as Webhook
    const attempts = (await api.call('GET', `/admin/webhooks/${id}/deliveries`)).body.data as Attempt[]
    const form = view.form
    const values = form === undefined
      ? { name: webhook.name, url: webhook.url, events: webhook.events, headers: Object.keys(webhook.headers).join('\n'), isEnabled: webhook.isEnabled }
      : { name: form.text('name') ?? '', url: form.text('url') ?? '', events: form.all('event'), headers: form.text('headers') ?? '', isEnabled: form.has('isEnabled') }
    const action = (path: string, label: string, extra: { class?: string; confirm?: string } = {}) => (
      <form method="post" action={to(page, `/admin/hooks/${webhook.id}${path}`)} data-confirm={extra.confirm} class="inline">
        <Csrf token={page.csrf} />
        <button type="submit" class={extra.class ?? 'secondary'}>{label}</button>
      </form>
    )
    return c.html(
      <Page page={page} title={`Webhook ${webhook.name}`} section="webhooks">
        <Notice text={view.result === undefined ? noticeOf(c) : resultText(view.result)} />
        <Problem text={view.problem === undefined ? undefined : messageOf(view.problem)} />
        <form method="post" action={to(page, `/admin/hooks/${webhook.id}`)}>
          <Csrf token={page.csrf} />
          <WebhookFields values={values} problem={view.problem} editing />
          <p><button type="submit">Save webhook</button></p>
        </form>
        <p>{action('/test', 'Send a test message')} {action('/delete', 'Delete webhook', { class: 'danger', confirm: `Delete the webhook ${webhook.name} and its delivery log?` })}</p>
        <h2>Last deliveries</h2>
        <div class="scroll" role="region" aria-label="Deliveries" tabindex={0}>
          <table>
            <caption>{attempts.length === 0 ? 'No attempts yet' : `The last ${attempts.length} attempts, newest first`}</caption>
            <thead><tr><th scope="col">When</th><th scope="col">Event</th><th scope="col">Status</th><th scope="col">Duration</th><th scope="col">Outcome</th><th scope="col"><span class="hint">Redeliver</span></th></tr></thead>
            <tbody>
              {attempts.map((attempt) => (
                <tr>
                  <td><time datetime={attempt.at}>{attempt.at.slice(0, 19).replace('T', ' ')}</time></td>
                  <td>{attempt.event}</td>
                  <td>{attempt.statusCode === null ? '—' : String(attempt.statusCode)}</td>
                  <td>{`${attempt.durationMs} ms`}</td>
                  <td>{attempt.error === null ? attempt.outcome : `${attempt.outcome}: ${attempt.error}`}</td>
                  <td>{action(`/deliveries/${attempt.seq}/redeliver`, 'Redeliver')}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </Page>,
      status as 200,
    )
  }

  const body = (form: Form) => ({
    name: form.text('name')?.trim() ?? '',
    url: form.text('url')?.trim() ?? '',
    events: form.all('event'),
    headers: headersOf(form.text('headers') ?? ''),
    isEnabled: form.has('isEnabled'),
  })

  ui.page('/admin/hooks', (c, page) => listPage(c, page))
  ui.action('/admin/hooks', async (c, page, form) => {
    const answer = await api.call('POST', '/admin/webhooks', body(form))
    if (answer.status === 201) return listPage(c, page, { created: answer.body.data }, 201)
    return listPage(c, page, { problem: answer, form }, answer.status)
  })
  ui.page('/admin/hooks/:id', (c, page) => hookPage(c, page))
  ui.action('/admin/hooks/:id', async (c, page, form) => {
    const answer = await api.call('PUT', `/admin/webhooks/${encodeURIComponent(c.req.param('id') ?? '')}`, body(form))
    if (answer.status === 200) return seeOther(c, `/admin/hooks/${answer.body.data.id}${queryOf({ notice: 'webhook-saved', subject: answer.body.data.name })}`)
    return hookPage(c, page, { problem: answer, form }, answer.status)
  })
  ui.action('/admin/hooks/:id/delete', async (c, page) => {
    const answer = await api.call('DELETE', `/admin/webhooks/${encodeURIComponent(c.req.param('id') ?? '')}`)
    if (answer.status === 204) return seeOther(c, `/admin/hooks${queryOf({ notice: 'webhook-deleted' })}`)
    return listPage(c, page, { problem: answer }, answer.status)
  })
  const send = (path: (id: string, c: Context) => string) => async (c: Context, page: PageContext) => {
    const answer = await api.call('POST', path(encodeURIComponent(c.req.param('id') ?? ''), c))
    return answer.status === 200 ? hookPage(c, page, { result: answer.body.data }) : hookPage(c, page, { problem: answer }, answer.status)
  }
  ui.action('/admin/hooks/:id/test', send((id) => `/admin/webhooks/${id}/test`))
  ui.action('/admin/hooks/:id/deliveries/:seq/redeliver', send((id, c) => `/admin/webhooks/${id}/deliveries/${encodeURIComponent(c.req.param('seq') ?? '')}/redeliver`))
}
