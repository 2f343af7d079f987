/** @jsxImportSource hono/jsx */
// Editors' pages, generated from the content types: per collection type a list (sort, a filter,
// `_q` search, pagination, a column per locale showing which versions exist), and per document a
// page with one form per locale: a fitting input per attribute, shared (non-localized) attributes
// marked, the version of a source locale beside each field while translating, localizations
// created from it, and with draft & publish the publication actions. Every read and write is a call
// of the content API (api-client.ts); its 400s are shown next to the field they name.
import type { Context } from 'hono'
import { routeName, sortableFields, type ContentType } from '../content-types.js'
import { fieldErrorsOf, messageOf, type ApiAnswer } from './api-client.js'
import { documentPath, draftsProbe, effectiveType, localesOf, readDocument, readVersionsOf, statusOf, type DocumentView, type Locale } from './documents.js'
import { AttributeInput, editable, fieldName, inputText, readData, shownText, supported, type FormMode } from './fields.js'
import type { Form } from './form.js'
import { Csrf, Notice, Page, Problem, to, type PageContext } from './layout.js'
import { queryOf } from './paths.js'
import { attributesOf, displayNameOf, hasDraftAndPublish, isLocalized, typeAt, typesOf } from './types.js'
import { seeOther, type Ui } from './ui.js'

const OPERATORS = ['$eq', '$ne', '$containsi', '$contains', '$startsWith', '$lt', '$lte', '$gt', '$gte', '$null', '$notNull'] as const
const PAGE_SIZES = [10, 25, 50, 100] as const
const LABEL_TYPES = new Set(['string', 'uid', 'email', 'text'])

/** The attribute that names a document in lists and titles: the first text attribute. */
function labelAttribute(type: ContentType): string | undefined {
  return attributesOf(type).find(([, attribute]) => LABEL_TYPES.has(attribute.type) && attribute.private !== true)?.[0]
}

const NOTICES: Record<string, string> = {
  saved: 'Saved.',
  created: 'Created.',
  deleted: 'Version deleted.',
  published: 'Published.',
  unpublished: 'Unpublished: the draft stays.',
  discarded: 'Draft discarded: it is the published version again.',
}

/** The documents of a collection type, one row each, with a column per locale. */
async function listPage(ui: Ui, c: Context, page: PageContext, type: ContentType): Promise<Response> {
  const locales = await localesOf(ui.api)
  const q = c.req.query()
  const locale = locales.some((entry) => entry.code === q.locale) ? (q.locale as string) : (locales[0]?.code ?? 'en')
  const sortable = sortableFields(type).filter((field) => field !== 'locale')
  const sortField = sortable.includes(q.sort ?? '') ? (q.sort as string) : 'updatedAt'
  const direction = q.direction === 'asc' ? 'asc' : 'desc'
  const pageNumber = /^[1-9]\d{0,5}$/.test(q.page ?? '') ? Number(q.page) : 1
  const pageSize = PAGE_SIZES.find((size) => String(size) === q.pageSize) ?? 10 // as Strapi's admin
  const field = sortable.includes(q.field ?? '') ? q.field : undefined
  const operator = OPERATORS.find((op) => op === q.op) ?? '$eq'
  const search = (q.q ?? '').trim()
  const params = new URLSearchParams({ locale, sort: `${sortField}:${direction}`, 'pagination[page]': String(pageNumber), 'pagination[pageSize]': String(pageSize) })
  if (field !== undefined && (q.value !== undefined && q.value !== '' || operator === '$null' || operator === '$notNull')) {
    params.set(`filters[${field}][${operator}]`, operator === '$null' || operator === '$notNull' ? 'true' : (q.value ?? ''))
  }
  if (search !== '') params.set('_q', search)
  if (hasDraftAndPublish(type)) params.set('status', 'draft')
  const answer = await ui.api.call('GET', `/api/${routeName(type)}?${params}`)
  const rows = answer.status === 200 ? (answer.body.data as Record<string, any>[]) : []
  const pagination = answer.status === 200 ? answer.body.meta.pagination : { page: 1, pageCount: 0, total: 0 }
  const views = await Promise.all(rows.map((row) => readVersionsOf(ui.api, type, String(row.documentId))))
  const label = labelAttribute(type)
  const base = `/admin/content/${routeName(type)}`
  const keep = { locale, sort: sortField, direction, q: search, field, op: field === undefined ? undefined : operator, value: field === undefined ? undefined : q.value, pageSize }
  const title = displayNameOf(type)
  return c.html(
    <Page page={page} title={title} section={`content:${routeName(type)}`}>
      <Notice text={NOTICES[q.notice ?? '']} />
      <p><a class="button" href={to(page, `${base}/new${queryOf({ locale })}`)}>{`New ${title.toLowerCase()}`}</a></p>
      <form method="get" action={to(page, base)} role="search" aria-label={`Find ${title}`}>
        <div class="row">
          <div class="field">
            <label for="list-q">Search</label>
            <input id="list-q" type="search" name="q" value={search} aria-describedby="list-q-hint" />
            <span id="list-q-hint" class="hint">Words in any searchable text attribute</span>
          </div>
          <div class="field">
            <label for="list-locale">Locale</label>
            <select id="list-locale" name="locale">{locales.map((entry) => <option value={entry.code} selected={entry.code === locale}>{entry.name}</option>)}</select>
          </div>
          <div class="field">
            <label for="list-sort">Sort by</label>
            <select id="list-sort" name="sort">{sortable.map((name) => <option value={name} selected={name === sortField}>{name}</option>)}</select>
          </div>
          <div class="field">
            <label for="list-direction">Order</label>
            <select id="list-direction" name="direction">
              <option value="asc" selected={direction === 'asc'}>ascending</option>
              <option value="desc" selected={direction === 'desc'}>descending</option>
            </select>
          </div>
        </div>
        <fieldset>
          <legend>Filter</legend>
          <div class="row">
            <div class="field">
              <label for="list-field">Field</label>
              <select id="list-field" name="field">
                <option value="">(no filter)</option>
                {sortable.map((name) => <option value={name} selected={name === field}>{name}</option>)}
              </select>
            </div>
            <div class="field">
              <label for="list-op">Condition</label>
              <select id="list-op" name="op">{OPERATORS.map((op) => <option value={op} selected={op === operator}>{op}</option>)}</select>
            </div>
            <div class="field">
              <label for="list-value">Value</label>
              <input id="list-value" type="text" name="value" value={q.value ?? ''} />
            </div>
            <div class="field">
              <label for="list-size">Per page</label>
              <select id="list-size" name="pageSize">{PAGE_SIZES.map((size) => <option value={String(size)} selected={size === pageSize}>{String(size)}</option>)}</select>
            </div>
          </div>
        </fieldset>
        <button type="submit">Show</button>
      </form>
      {answer.status === 200 ? null : <Problem text={messageOf(answer)} />}
      <div class="scroll" role="region" aria-label={`${title} list`} tabindex={0}>
        <table>
          <caption>{`${pagination.total} in ${locale}, page ${pagination.page} of ${Math.max(1, pagination.pageCount)}`}</caption>
          <thead>
            <tr>
              <th scope="col">{label ?? 'documentId'}</th>
              <th scope="col">Updated</th>
              {locales.map((entry) => <th scope="col" class="center"><abbr title={entry.name}>{entry.code}</abbr></th>)}
            </tr>
          </thead>
          <tbody>
            {rows.map((row, index) => {
              const view = views[index] as DocumentView
              const name = label === undefined || row[label] === null || row[label] === '' ? row.documentId : String(row[label])
              return (
                <tr>
                  <th scope="row"><a href={to(page, `${base}/${row.documentId}${queryOf({ locale })}`)}>{name}</a></th>
                  <td><time datetime={row.updatedAt}>{String(row.updatedAt ?? '').slice(0, 16).replace('T', ' ')}</time></td>
                  {locales.map((entry) => <td class="center"><VersionBadge type={type} view={view} locale={entry.code} /></td>)}
                </tr>
              )
            })}
          </tbody>
        </table>
      </div>
      <nav class="pages" aria-label="Pages">
        {pagination.page > 1 ? <a href={to(page, `${base}${queryOf({ ...keep, page: pagination.page - 1 })}`)} rel="prev">Previous page</a> : null}
        <span>{`Page ${pagination.page} of ${Math.max(1, pagination.pageCount)}`}</span>
        {pagination.page < pagination.pageCount ? <a href={to(page, `${base}${queryOf({ ...keep, page: pagination.page + 1 })}`)} rel="next">Next page</a> : null}
      </nav>
    </Page>,
  )
}

/** Whether a locale version exists, and with draft & publish its state. */
function VersionBadge(props: { type: ContentType; view: DocumentView; locale: string }) {
  if (!props.view.editable.has(props.locale)) return <span class="badge missing">missing</span>
  if (!hasDraftAndPublish(props.type)) return <span class="badge exists">exists</span>
  const status = statusOf(props.view, props.locale)
  return <span class={`badge ${status === 'published' ? 'exists' : 'draft'}`}>{status}</span>
}

interface FormState {
  /** Submitted input texts, by attribute, shown again after a refused write. */
  readonly submitted?: ReadonlyMap<string, string>
  /** Problems by attribute (the API's field errors, or the form's own). */
  readonly errors?: ReadonlyMap<string, string>
  readonly problem?: string
}

interface DocumentPageProps {
  readonly page: PageContext
  readonly type: ContentType
  readonly documentId: string | undefined
  readonly locales: readonly Locale[]
  readonly view: DocumentView
  readonly locale: string
  readonly source: string | undefined
  readonly notice: string | undefined
  readonly state: FormState
}

/** The document's page: locale tabs, the side-by-side choice, and the form of one locale. */
function DocumentPage(props: DocumentPageProps) {
  const { page, type, documentId, locales, view, locale, state } = props
  const base = type.kind === 'single' ? `/admin/content/${routeName(type)}` : documentId === undefined ? `/admin/content/${routeName(type)}` : `/admin/content/${routeName(type)}/${documentId}`
  const current = view.editable.get(locale)
  const anyVersion = [...view.editable.values()][0]
  const mode: FormMode = documentId === undefined && type.kind === 'collection' ? 'create' : current !== undefined ? 'update' : anyVersion === undefined ? (type.kind === 'single' ? 'create' : 'create') : 'localization'
  const source = props.source !== undefined && props.source !== locale ? view.editable.get(props.source) : undefined
  const label = labelAttribute(type)
  const named = label === undefined ? undefined : (current ?? anyVersion)?.document[label]
  const title = mode === 'create' && type.kind === 'collection' ? `New ${displayNameOf(type).toLowerCase()}` : `${displayNameOf(type)}${typeof named === 'string' && named !== '' ? `: ${named}` : ''}`
  const draftAndPublish = hasDraftAndPublish(type)
  const localeName = locales.find((entry) => entry.code === locale)?.name ?? locale
  const others = locales.filter((entry) => entry.code !== locale && view.editable.has(entry.code))
  return (
    <Page page={page} title={title} section={`content:${routeName(type)}`}>
      {type.kind === 'collection' ? <p><a href={to(page, `/admin/content/${routeName(type)}${queryOf({ locale })}`)}>{`Back to the ${displayNameOf(type).toLowerCase()} list`}</a></p> : null}
      <Notice text={props.notice} />
      <Problem text={state.problem} />
      {mode === 'create' && type.kind === 'collection' ? null : (
        <nav aria-label="Locales of this document">
          <ul class="tabs">
            {locales.map((entry) => (
              <li>
                <a href={to(page, `${base}${queryOf({ locale: entry.code, source: props.source })}`)} aria-current={entry.code === locale ? 'page' : undefined}>
                  {entry.code} <VersionBadge type={type} view={view} locale={entry.code} />
                </a>
              </li>
            ))}
          </ul>
        </nav>
      )}
      {others.length === 0 ? null : (
        <form method="get" action={to(page, base)} class="row" aria-label="Side by side">
          <input type="hidden" name="locale" value={locale} />
          <div class="field">
            <label for="source-locale">Show beside each field</label>
            <select id="source-locale" name="source">
              <option value="">(nothing)</option>
              {others.map((entry) => <option value={entry.code} selected={entry.code === props.source}>{`the ${entry.name} version`}</option>)}
            </select>
          </div>
          <div class="field"><button type="submit" class="secondary">Show side by side</button></div>
        </form>
      )}
      <h2 id="version-title">
        {mode === 'create' ? `In ${localeName}` : mode === 'localization' ? `Create the ${localeName} localization` : `The ${localeName} version`}
      </h2>
      <form method="post" action={to(page, `${base}${queryOf({ locale, source: props.source })}`)} aria-labelledby="version-title" novalidate>
        <Csrf token={page.csrf} />
        {current?.etag === undefined ? null : <input type="hidden" name="_etag" value={current.etag} />}
        {mode === 'create' && type.kind === 'collection' ? (
          <div class="field">
            <label for="new-locale">Locale</label>
            <select id="new-locale" name="_locale">{locales.map((entry) => <option value={entry.code} selected={entry.code === locale}>{entry.name}</option>)}</select>
          </div>
        ) : null}
        {attributesOf(type).map(([name, attribute]) => {
          const id = `attr-${name}`
          const shared = !isLocalized(type, attribute)
          if (!supported(attribute)) {
            return <p class="hint">{`${name} (${attribute.type}) cannot be edited here yet.`}</p>
          }
          // Shared values of a new localization are inherited; values the API sets are shown only.
          const inherited = (mode === 'localization' && shared) || !editable(attribute)
          const stored = (mode === 'localization' && shared ? anyVersion : current)?.document[name]
          const value = mode === 'create' && stored === undefined ? attribute.default : stored
          const text = state.submitted?.get(name) ?? inputText(attribute, value)
          const error = state.errors?.get(name)
          const hints = [
            shared ? (mode === 'localization' ? 'Shared by every locale: it keeps the value of the other versions.' : 'Shared by every locale: a change here changes every version.') : undefined,
            attribute.type === 'json' || attribute.type === 'blocks' ? `JSON${attribute.type === 'blocks' ? ' (an array of blocks)' : ''}` : undefined,
            attribute.type === 'datetime' ? 'UTC' : undefined,
            attribute.type === 'password' || attribute.private === true ? 'Write-only: leave empty to keep the current value.' : undefined,
            editable(attribute) ? undefined : 'Set by the API.',
          ].filter((hint) => hint !== undefined)
          const describedBy = [hints.length > 0 ? `${id}-hint` : undefined, source === undefined ? undefined : `${id}-source`, `${id}-error`].filter((part) => part !== undefined).join(' ')
          return (
            <div class={`pair${source === undefined ? '' : ' with-source'}`}>
              {source === undefined ? null : (
                <div class="field">
                  <span class="label">{`${name} in ${props.source}`}</span>
                  <div class="source" id={`${id}-source`} lang={props.source}>
                    {attribute.type === 'json' || attribute.type === 'blocks' ? <pre>{shownText(attribute, source.document[name])}</pre> : shownText(attribute, source.document[name])}
                  </div>
                </div>
              )}
              <div class="field">
                {attribute.type === 'boolean' ? (
                  <label for={id}>
                    <AttributeInput id={id} name={name} attribute={attribute} text={text} checked={state.submitted?.has(name) ? text === 'true' : value === true} describedBy={describedBy} invalid={error !== undefined} disabled={inherited} />{' '}
                    {name}{attribute.required === true ? ' (required)' : ''} {shared ? <span class="badge shared">shared</span> : null}
                  </label>
                ) : (
                  <label for={id}>
                    {name}{attribute.required === true ? ' (required)' : ''} {shared ? <span class="badge shared">shared</span> : null}
                  </label>
                )}
                {attribute.type === 'boolean' ? null : <AttributeInput id={id} name={name} attribute={attribute} text={text} checked={false} describedBy={describedBy} invalid={error !== undefined} disabled={inherited} />}
                {hints.length === 0 ? null : <span id={`${id}-hint`} class="hint">{hints.join(' ')}</span>}
                <span id={`${id}-error`} class="error">{error === undefined ? '' : error}</span>
                {attribute.type === 'json' || attribute.type === 'blocks' ? <span id={`${id}-live`} class="error" aria-live="polite"></span> : null}
              </div>
            </div>
          )
        })}
        <div class="row">
          {draftAndPublish ? (
            <>
              <button type="submit" name="intent" value="save">{mode === 'update' ? 'Save draft' : mode === 'localization' ? `Create ${locale} draft` : 'Create draft'}</button>
              <button type="submit" name="intent" value="save-publish" class="secondary">Save and publish</button>
            </>
          ) : (
            <button type="submit" name="intent" value="save">{mode === 'update' ? `Save ${locale}` : mode === 'localization' ? `Create ${locale} localization` : 'Create'}</button>
          )}
        </div>
      </form>
      {mode !== 'update' ? null : (
        <>
          <h2>Other actions</h2>
          <div class="row">
            {draftAndPublish ? (
              <form method="post" action={to(page, `${base}${queryOf({ locale })}`)}>
                <Csrf token={page.csrf} />
                <button type="submit" name="intent" value="publish" class="secondary">{`Publish ${locale}`}</button>{' '}
                {view.published.has(locale) ? <button type="submit" name="intent" value="unpublish" class="secondary">{`Unpublish ${locale}`}</button> : null}{' '}
                {statusOf(view, locale) === 'modified' ? <button type="submit" name="intent" value="discard-draft" class="secondary">Discard draft</button> : null}
              </form>
            ) : null}
            <form method="post" action={to(page, `${base}${queryOf({ locale })}`)} data-confirm={`Delete the ${locale} version?`}>
              <Csrf token={page.csrf} />
              <button type="submit" name="intent" value="delete" class="danger">{`Delete the ${locale} version`}</button>
            </form>
          </div>
        </>
      )}
    </Page>
  )
}

export function registerEditorPages(ui: Ui): void {
  const { api } = ui
  const notFoundPage = (c: Context, page: PageContext) => c.html(<Page page={page} title="Not found"><p>There is nothing here.</p><p><a href={to(page, '/admin')}>Back to the admin</a></p></Page>, 404)

  const showDocument = async (c: Context, page: PageContext, type: ContentType, documentId: string | undefined, state: FormState = {}, status = 200) => {
    const locales = await localesOf(api)
    const q = c.req.query()
    const locale = locales.some((entry) => entry.code === q.locale) ? (q.locale as string) : (locales[0]?.code ?? 'en')
    const view = documentId === undefined && type.kind === 'collection' ? { editable: new Map(), published: new Map() } : await readDocument(api, type, documentId, locales)
    if (documentId !== undefined && view.editable.size === 0) return notFoundPage(c, page)
    const source = q.source === undefined || q.source === '' ? undefined : q.source
    return c.html(<DocumentPage page={page} type={type} documentId={documentId} locales={locales} view={view} locale={locale} source={source} notice={NOTICES[q.notice ?? '']} state={state} />, status as 200)
  }

  /** A refused write: the page again, with what was typed and each problem next to its field. */
  const refusedWrite = (c: Context, page: PageContext, type: ContentType, documentId: string | undefined, form: Form, answer: ApiAnswer | undefined, local?: Map<string, string>) => {
    const submitted = new Map<string, string>()
    for (const [name, attribute] of attributesOf(type)) {
      const text = form.text(fieldName(name))
      if (attribute.type === 'boolean') submitted.set(name, text === 'true' ? 'true' : 'false')
      else if (text !== undefined && attribute.type !== 'password') submitted.set(name, text)
    }
    const errors = new Map(local)
    if (answer !== undefined) for (const error of fieldErrorsOf(answer)) if (error.path[0] !== undefined && !errors.has(error.path[0])) errors.set(error.path[0], error.message)
    const problem = answer === undefined ? 'Some fields need a fix before saving.' : answer.status === 412 ? 'This version was changed by someone else since you opened it: reload the page to see the change, then apply yours again.' : messageOf(answer)
    const status = answer?.status ?? 400
    return showDocument(c, page, type, documentId, { submitted, errors, problem }, status)
  }

  /** One form post on a document: save (create, update, localize), delete, or a publication action. */
  const act = async (c: Context, page: PageContext, type: ContentType, documentId: string | undefined, form: Form) => {
    const locale = c.req.query('locale') ?? ''
    const source = c.req.query('source')
    const intent = form.text('intent') ?? 'save'
    const path = documentPath(type, documentId)
    const back = (notice: string, id = documentId) => seeOther(c, `${type.kind === 'single' || id === undefined ? `/admin/content/${routeName(type)}` : `/admin/content/${routeName(type)}/${id}`}${queryOf({ locale, source, notice })}`)
    if (intent === 'delete') {
      const answer = await api.call('DELETE', `${path}?${new URLSearchParams({ locale })}`)
      if (answer.status !== 204) return refusedWrite(c, page, type, documentId, form, answer)
      const left = type.kind === 'collection' && documentId !== undefined ? (await readDocument(api, type, documentId, await localesOf(api))).editable.size : 1
      return left === 0 ? seeOther(c, `/admin/content/${routeName(type)}${queryOf({ notice: 'deleted' })}`) : back('deleted')
    }
    if (intent === 'publish' || intent === 'unpublish' || intent === 'discard-draft') {
      const answer = await api.call('POST', `${path}/actions/${intent}?${new URLSearchParams({ locale })}`)
      if (answer.status !== 200) return refusedWrite(c, page, type, documentId, form, answer)
      return back(intent === 'publish' ? 'published' : intent === 'unpublish' ? 'unpublished' : 'discarded')
    }
    const status: Record<string, string> = hasDraftAndPublish(type) && intent !== 'save-publish' ? { status: 'draft' } : {}
    if (documentId === undefined && type.kind === 'collection') {
      const target = form.text('_locale') ?? locale
      const { data, problems } = readData(type, form, 'create')
      if (problems.size > 0) return refusedWrite(c, page, type, documentId, form, undefined, problems)
      const answer = await api.call('POST', `${path}?${new URLSearchParams({ locale: target, ...status })}`, { data })
      if (answer.status !== 200 && answer.status !== 201) return refusedWrite(c, page, type, documentId, form, answer)
      return seeOther(c, `/admin/content/${routeName(type)}/${answer.body.data.documentId}${queryOf({ locale: target, notice: 'created' })}`)
    }
    const etag = form.text('_etag')
    const existing = (await readDocument(api, type, documentId, await localesOf(api))).editable
    const mode: FormMode = existing.has(locale) ? 'update' : existing.size === 0 ? 'create' : 'localization'
    const { data, problems } = readData(type, form, mode)
    if (problems.size > 0) return refusedWrite(c, page, type, documentId, form, undefined, problems)
    const answer = await api.call('PUT', `${path}?${new URLSearchParams({ locale, ...status })}`, { data }, etag === undefined ? {} : { 'If-Match': etag })
    if (answer.status !== 200) return refusedWrite(c, page, type, documentId, form, answer)
    return back(mode === 'update' ? 'saved' : 'created')
  }

  const drafts = draftsProbe(api, typesOf(ui.services))
  /** The type a path names, as the pages treat it (see effectiveType). */
  const typeFor = async (c: Context) => {
    const type = typeAt(ui.services, c.req.param('route') ?? '')
    return type === undefined ? undefined : effectiveType(type, drafts)
  }

  ui.page('/admin/content/:route', async (c, page) => {
    const type = await typeFor(c)
    if (type === undefined) return notFoundPage(c, page)
    return type.kind === 'collection' ? listPage(ui, c, page, type) : showDocument(c, page, type, undefined)
  })
  ui.page('/admin/content/:route/new', async (c, page) => {
    const type = await typeFor(c)
    return type?.kind === 'collection' ? showDocument(c, page, type, undefined) : notFoundPage(c, page)
  })
  ui.page('/admin/content/:route/:documentId', async (c, page) => {
    const type = await typeFor(c)
    const documentId = c.req.param('documentId') ?? ''
    return type?.kind === 'collection' && /^[a-z0-9]{24}$/.test(documentId) ? showDocument(c, page, type, documentId) : notFoundPage(c, page)
  })
  ui.action('/admin/content/:route', async (c, page, form) => {
    const type = await typeFor(c)
    return type === undefined ? notFoundPage(c, page) : act(c, page, type, undefined, form)
  })
  ui.action('/admin/content/:route/:documentId', async (c, page, form) => {
    const type = await typeFor(c)
    const documentId = c.req.param('documentId') ?? ''
    return type?.kind === 'collection' && /^[a-z0-9]{24}$/.test(documentId) ? act(c, page, type, documentId, form) : notFoundPage(c, page)
  })
}
