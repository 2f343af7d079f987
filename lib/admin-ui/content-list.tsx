/** @jsxImportSource ./jsx */
// The list page of a collection type: search (`_q`), locale, sort (by clicking a column header),
// filter conditions in words and pages (list-query.ts, list-controls.tsx), passed to the content
// API's list, and a column per locale showing which versions of each document exist (and their
// status, with draft & publish), read for the whole page at once; a column per to-one relation
// shows its target's label, populated by the list read itself. The columns shown are chosen per
// type (kept in a cookie); selected rows take bulk actions (list-bulk.ts).
import type { Context } from 'hono'
import { getCookie, setCookie } from 'hono/cookie'
import { routeName, type ContentType } from '../content-types.js'
import { messageOf } from './api-client.js'
import { localesOf, readVersionsOfPage, type DocumentView } from './documents.js'
import { NOTICES, VersionBadge } from './document-page.js'
import { Notice, Page, Problem, to, type PageContext } from './layout.js'
import { queryOf } from './paths.js'
import { BULK_FORM, BulkActions, ColumnChooser, ConditionRows, SortHeader } from './list-controls.js'
import { bulkNotice } from './list-bulk.js'
import { choosableColumns, columnsOf, conditionQuery, conditionsOf, filterableFields, filterParams } from './list-query.js'
import { shownRelations } from './relation-links.js'
import { displayNameOf, hasDraftAndPublish, labelAttribute } from './types.js'
import type { Ui } from './ui.js'

const PAGE_SIZES = [10, 25, 50, 100] as const

/** The documents of a collection type, one row each, with a column per locale. */
export async function listPage(ui: Ui, c: Context, page: PageContext, type: ContentType): Promise<Response> {
  const locales = await localesOf(ui.api)
  const q = c.req.query()
  const locale = locales.some((entry) => entry.code === q.locale) ? (q.locale as string) : (locales[0]?.code ?? 'en')
  const sortable = filterableFields(type)
  const sortField = sortable.includes(q.sort ?? '') ? (q.sort as string) : 'updatedAt'
  const direction = q.direction === 'asc' ? 'asc' : 'desc'
  const pageNumber = /^[1-9]\d{0,5}$/.test(q.page ?? '') ? Number(q.page) : 1
  const pageSize = PAGE_SIZES.find((size) => String(size) === q.pageSize) ?? 10 // as Strapi's admin
  const conditions = conditionsOf(type, q)
  const search = (q.q ?? '').trim()
  const params = new URLSearchParams([['locale', locale], ['sort', `${sortField}:${direction}`], ['pagination[page]', String(pageNumber)], ['pagination[pageSize]', String(pageSize)], ...filterParams(conditions)])
  if (search !== '') params.set('_q', search)
  if (hasDraftAndPublish(type)) params.set('status', 'draft')
  // To-one relations: one populate on the list read (their label only), never a read per row.
  const toOne = shownRelations(page.types, type).filter(({ relation }) => !relation.many)
  for (const { name, target } of toOne) params.set(`populate[${name}][fields][0]`, labelAttribute(target) ?? 'documentId')
  const answer = await ui.api.call('GET', `/api/${routeName(type)}?${params}`)
  const rows = answer.status === 200 ? (answer.body.data as Record<string, any>[]) : []
  const pagination = answer.status === 200 ? answer.body.meta.pagination : { page: 1, pageCount: 0, total: 0 }
  const views = await readVersionsOfPage(ui.api, type, rows, locales)
  const label = labelAttribute(type)
  const base = `/admin/content/${routeName(type)}`
  const keep = { locale, sort: sortField, direction, q: search, ...conditionQuery(conditions), pageSize }
  const title = displayNameOf(type)
  // The columns: as chosen in the form (`cols`, kept per type in a cookie), else as kept.
  const choosable = choosableColumns(type, label)
  const cookie = `admin_cols_${routeName(type)}`
  const chosen = c.req.queries('cols')?.filter((column) => column !== '')
  const columns = columnsOf(choosable, chosen, getCookie(c, cookie))
  if (chosen !== undefined) setCookie(c, cookie, columns.join(','), { path: '/admin', httpOnly: true, sameSite: 'Strict', maxAge: 31_536_000 })
  const header = (field: string, text: string) => <SortHeader page={page} base={base} keep={keep} field={field} label={text} sort={sortField} direction={direction} />
  const cell = (value: unknown, column: string) => column.endsWith('At') && typeof value === 'string'
    ? <td><time datetime={value}>{value.slice(0, 16).replace('T', ' ')}</time></td>
    : <td>{value === null || value === undefined ? '' : typeof value === 'object' ? JSON.stringify(value) : String(value)}</td>
  return c.html(
    <Page page={page} title={title} section={`content:${routeName(type)}`}>
      <Notice text={bulkNotice(q) ?? NOTICES[q.notice ?? '']} />
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
            <label for="list-size">Per page</label>
            <select id="list-size" name="pageSize">{PAGE_SIZES.map((size) => <option value={String(size)} selected={size === pageSize}>{String(size)}</option>)}</select>
          </div>
        </div>
        <input type="hidden" name="sort" value={sortField} />
        <input type="hidden" name="direction" value={direction} />
        <ConditionRows fields={sortable} conditions={conditions} />
        <ColumnChooser choosable={choosable} shown={columns} />
        <button type="submit">Show</button>
      </form>
      {answer.status === 200 ? null : <Problem text={messageOf(answer)} />}
      <BulkActions page={page} base={base} locale={locale} drafts={hasDraftAndPublish(type)} />
      <div class="scroll" role="region" aria-label={`${title} list`} tabindex={0}>
        <table>
          <caption>{`${pagination.total} in ${locale}, page ${pagination.page} of ${Math.max(1, pagination.pageCount)}`}</caption>
          <thead>
            <tr>
              <th scope="col"><span class="visually-hidden">Select</span></th>
              {label === undefined ? <th scope="col">documentId</th> : header(label, label)}
              {toOne.map(({ name }) => <th scope="col">{name}</th>)}
              {columns.map((column) => header(column, column))}
              {locales.map((entry) => <th scope="col" class="center"><abbr title={entry.name}>{entry.code}</abbr></th>)}
            </tr>
          </thead>
          <tbody>
            {rows.map((row) => {
              const view = views.get(String(row.documentId)) as DocumentView
              const name = label === undefined || row[label] === null || row[label] === '' ? row.documentId : String(row[label])
              return (
                <tr>
                  <td><input type="checkbox" name="ids" value={row.documentId} form={BULK_FORM} aria-label={`Select ${name}`} /></td>
                  <th scope="row"><a href={to(page, `${base}/${row.documentId}${queryOf({ locale })}`)}>{name}</a></th>
                  {toOne.map(({ name, target }) => {
                    const linked = row[name] as Record<string, any> | null | undefined
                    const shown = labelAttribute(target)
                    return <td>{linked === null || linked === undefined ? '' : shown === undefined || linked[shown] === null || linked[shown] === '' ? String(linked.documentId) : String(linked[shown])}</td>
                  })}
                  {columns.map((column) => cell(row[column], column))}
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

