/** @jsxImportSource ./jsx */
// The list page of a collection type: search (`_q`), locale, sort, one filter condition and pages,
// passed to the content API's list as they are, and a column per locale showing which versions of
// each document exist (and their status, with draft & publish), read for the whole page at once;
// a column per to-one relation shows its target's label, populated by the list read itself.
import type { Context } from 'hono'
import { routeName, sortableFields, type ContentType } from '../content-types.js'
import { messageOf } from './api-client.js'
import { localesOf, readVersionsOfPage, type DocumentView } from './documents.js'
import { NOTICES, VersionBadge } from './document-page.js'
import { Notice, Page, Problem, to, type PageContext } from './layout.js'
import { queryOf } from './paths.js'
import { shownRelations } from './relation-links.js'
import { displayNameOf, hasDraftAndPublish, labelAttribute } from './types.js'
import type { Ui } from './ui.js'

const OPERATORS = ['$eq', '$ne', '$containsi', '$contains', '$startsWith', '$lt', '$lte', '$gt', '$gte', '$null', '$notNull'] as const
const PAGE_SIZES = [10, 25, 50, 100] as const

/** The documents of a collection type, one row each, with a column per locale. */
export async function listPage(ui: Ui, c: Context, page: PageContext, type: ContentType): Promise<Response> {
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
  // To-one relations: one populate on the list read (their label only), never a read per row.
  const toOne = shownRelations(page.types, type).filter(({ relation }) => !relation.many)
  for (const { name, target } of toOne) params.set(`populate[${name}][fields][0]`, labelAttribute(target) ?? 'documentId')
  const answer = await ui.api.call('GET', `/api/${routeName(type)}?${params}`)
  const rows = answer.status === 200 ? (answer.body.data as Record<string, any>[]) : []
  const pagination = answer.status === 200 ? answer.body.meta.pagination : { page: 1, pageCount: 0, total: 0 }
  const views = await readVersionsOfPage(ui.api, type, rows, locales)
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
              {toOne.map(({ name }) => <th scope="col">{name}</th>)}
              <th scope="col">Updated</th>
              {locales.map((entry) => <th scope="col" class="center"><abbr title={entry.name}>{entry.code}</abbr></th>)}
            </tr>
          </thead>
          <tbody>
            {rows.map((row) => {
              const view = views.get(String(row.documentId)) as DocumentView
              const name = label === undefined || row[label] === null || row[label] === '' ? row.documentId : String(row[label])
              return (
                <tr>
                  <th scope="row"><a href={to(page, `${base}/${row.documentId}${queryOf({ locale })}`)}>{name}</a></th>
                  {toOne.map(({ name, target }) => {
                    const linked = row[name] as Record<string, any> | null | undefined
                    const shown = labelAttribute(target)
                    return <td>{linked === null || linked === undefined ? '' : shown === undefined || linked[shown] === null || linked[shown] === '' ? String(linked.documentId) : String(linked[shown])}</td>
                  })}
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

