/** @jsxImportSource ./jsx */
// The permission matrix of a custom token or the public role: one row per content type (plus one
// per other action, such as listing locales), one column per action, a checkbox per cell. Built
// from the action names the API knows (allActions), so new types and actions show up by themselves.
import { allActions } from '../access.js'
import type { ContentType } from '../content-types.js'
import { displayNameOf } from './types.js'

interface Row {
  readonly key: string
  readonly label: string
  readonly actions: ReadonlyMap<string, string>
}

/** Layouts made, by the types they were made for (the process's: fixed at start). */
const layouts = new WeakMap<readonly ContentType[], { rows: Row[]; columns: string[] }>()

/** The matrix's rows and columns for `types` (made once per list of types). */
function layout(types: readonly ContentType[]): { rows: Row[]; columns: string[] } {
  let made = layouts.get(types)
  if (made === undefined) layouts.set(types, (made = makeLayout(types)))
  return made
}

/** The matrix's rows and columns for `types`: each cell maps a column to an action name. */
function makeLayout(types: readonly ContentType[]): { rows: Row[]; columns: string[] } {
  const known = allActions(types)
  const columns: string[] = []
  const rows: Row[] = types.map((type) => {
    const actions = new Map<string, string>()
    for (const name of known.filter((action) => action.startsWith(`${type.uid}.`))) {
      const column = name.slice(type.uid.length + 1)
      if (!columns.includes(column)) columns.push(column)
      actions.set(column, name)
    }
    return { key: type.uid, label: displayNameOf(type), actions }
  })
  const claimed = new Set(rows.flatMap((row) => [...row.actions.values()]))
  // Other actions (a plugin's) share a row per prefix: `plugin::upload.content-api.find` and `.upload` are one row.
  const others = new Map<string, Map<string, string>>()
  for (const name of known.filter((action) => !claimed.has(action))) {
    const at = name.lastIndexOf('.')
    const column = name.slice(at + 1)
    if (!columns.includes(column)) columns.push(column)
    const prefix = name.slice(0, at)
    if (!others.has(prefix)) others.set(prefix, new Map())
    others.get(prefix)?.set(column, name)
  }
  for (const [prefix, actions] of others) rows.push({ key: prefix, label: prefix.replace(/^plugin::/, ''), actions })
  return { rows, columns }
}

/** The matrix as a table of checkboxes named `permission`; `granted` are checked. */
export function PermissionMatrix(props: { types: readonly ContentType[]; granted: ReadonlySet<string>; caption: string; id?: string }) {
  const { rows, columns } = layout(props.types)
  return (
    <div class="scroll" id={props.id} role="region" aria-label={props.caption} tabindex={0}>
      <table>
        <caption>{props.caption}</caption>
        <thead>
          <tr>
            <th scope="col">Content</th>
            {columns.map((column) => <th scope="col" class="center">{column}</th>)}
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr>
              <th scope="row">
                {row.label}{' '}
                {/* The accessible name starts with the visible word, as speech control users say it. */}
                <button type="button" class="secondary" data-toggle-row={row.key} hidden>all<span class="visually-hidden">{` actions of ${row.label}: check or clear them`}</span></button>
              </th>
              {columns.map((column) => {
                const action = row.actions.get(column)
                if (action === undefined) return <td class="center"><span aria-hidden="true">–</span></td>
                return (
                  <td class="center">
                    <input type="checkbox" name="permission" value={action} data-row={row.key} checked={props.granted.has(action)} aria-label={`${row.label}: ${column}`} title={action} />
                  </td>
                )
              })}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  )
}
