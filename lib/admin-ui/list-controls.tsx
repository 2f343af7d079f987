/** @jsxImportSource ./jsx */
// The list page's controls (issue 37): filter conditions in words, the column chooser, sortable
// column headers, and the bulk actions on the selected rows. All plain forms and links: they work
// without script.
import { CONDITIONS, MAX_CONDITIONS, type Condition } from './list-query.js'
import { Csrf, to, type PageContext } from './layout.js'
import { queryOf } from './paths.js'

/** The id of the bulk actions' form, which the rows' checkboxes belong to. */
export const BULK_FORM = 'bulk-form'

/** The filter rows: the conditions set, then empty rows up to MAX_CONDITIONS. All must hold. */
export function ConditionRows(props: { fields: readonly string[]; conditions: readonly Condition[] }) {
  const rows = Array.from({ length: MAX_CONDITIONS }, (_, index) => props.conditions[index])
  return (
    <fieldset>
      <legend>Show only documents where (every condition holds)</legend>
      {rows.map((condition, index) => (
        <div class="row" role="group" aria-label={`Condition ${index + 1}`}>
          <div class="field">
            <label for={`c${index}-field`}>Field</label>
            <select id={`c${index}-field`} name={`c${index}.field`}>
              <option value="">(no condition)</option>
              {props.fields.map((name) => <option value={name} selected={name === condition?.field}>{name}</option>)}
            </select>
          </div>
          <div class="field">
            <label for={`c${index}-op`}>Condition</label>
            <select id={`c${index}-op`} name={`c${index}.op`}>{CONDITIONS.map(([words, op]) => <option value={op} selected={op === (condition?.op ?? '$containsi')}>{words}</option>)}</select>
          </div>
          <div class="field">
            <label for={`c${index}-value`}>Value</label>
            <input id={`c${index}-value`} type="text" name={`c${index}.value`} value={condition?.value ?? ''} />
          </div>
        </div>
      ))}
    </fieldset>
  )
}

/** The column chooser: one checkbox per choosable column; the choice is kept for the type. */
export function ColumnChooser(props: { choosable: readonly string[]; shown: readonly string[] }) {
  return (
    <fieldset>
      <legend>Columns</legend>
      <input type="hidden" name="cols" value="" />
      <div class="row">
        {props.choosable.map((column) => <label class="inline"><input type="checkbox" name="cols" value={column} checked={props.shown.includes(column)} />{` ${column}`}</label>)}
      </div>
    </fieldset>
  )
}

/** A column header that sorts the list by its field: ascending first, then the other way. */
export function SortHeader(props: { page: PageContext; base: string; keep: Record<string, string | number | undefined>; field: string; label: string; sort: string; direction: string }) {
  const current = props.sort === props.field
  const next = current && props.direction === 'asc' ? 'desc' : 'asc'
  return (
    <th scope="col" aria-sort={current ? (props.direction === 'asc' ? 'ascending' : 'descending') : undefined}>
      <a href={to(props.page, `${props.base}${queryOf({ ...props.keep, sort: props.field, direction: next })}`)}>
        {props.label}<span class="visually-hidden">{`: sort ${next === 'asc' ? 'ascending' : 'descending'}`}</span>
        {current ? <span aria-hidden="true">{props.direction === 'asc' ? ' ▲' : ' ▼'}</span> : null}
      </a>
    </th>
  )
}

/** The bulk actions on the rows selected, in the list's locale. */
export function BulkActions(props: { page: PageContext; base: string; locale: string; drafts: boolean }) {
  return (
    <form id={BULK_FORM} method="post" action={to(props.page, `${props.base}${queryOf({ locale: props.locale })}`)} class="row" aria-label="Selected rows" data-confirm-intent="bulk-delete" data-confirm={`Delete the selected documents' ${props.locale} versions?`}>
      <Csrf token={props.page.csrf} />
      <span class="label">{`Selected rows (${props.locale}):`}</span>
      {props.drafts ? (
        <>
          <button type="submit" name="intent" value="bulk-publish" class="secondary">Publish selected</button>
          <button type="submit" name="intent" value="bulk-unpublish" class="secondary">Unpublish selected</button>
        </>
      ) : null}
      <button type="submit" name="intent" value="bulk-delete" class="danger">Delete selected</button>
    </form>
  )
}
