/** @jsxImportSource ./jsx */
// The locales page: add, rename, make default, set a fallback, delete (a refused delete says why and
// what to do first), and rebuild the served lists after a fallback change. Each action is one call
// of the admin API through the in-process client.
import type { Context } from 'hono'
import { messageOf, type ApiAnswer } from './api-client.js'
import type { Form } from './form.js'
import { Csrf, Notice, Page, Problem, to, type PageContext } from './layout.js'
import { errorFor, noticeOf, TextField } from './operator-common.js'
import { queryOf } from './paths.js'
import { seeOther, type Ui } from './ui.js'

interface Locale {
  readonly code: string
  readonly name: string
  readonly isDefault: boolean
  readonly fallback: string | null
}


/** Why a locale cannot be deleted (the API's 409), and what to do about it. */
function explainLocaleConflict(message: string): string {
  if (/default/i.test(message)) return 'Make another locale the default first, then delete this one.'
  if (/fallback of/i.test(message)) return 'Other locales fall back to this one: change their fallback first.'
  if (/content/i.test(message)) return 'Documents still have versions in this locale: delete those versions first (the content lists show, per locale, which documents have one).'
  return 'A locale can be deleted only when it is not the default, no other locale falls back to it, and no document has a version in it.'
}


interface LocalesView {
  readonly problem?: { answer: ApiAnswer; explain?: string }
  readonly adding?: { code: string; name: string; fallback: string; isDefault: boolean }
  readonly reindex?: { cursor?: string; documents: number; done: boolean }
}


export function registerLocalesPage(ui: Ui): void {
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
            <TextField id="new-code" name="code" label="Code" value={adding.code} error={codeError} placeholder="fr, fr-CA, zh-Hans" />
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
  const changeLocale = (suffix: string, change: (form: Form) => Record<string, unknown>, notice: string) =>
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
}
