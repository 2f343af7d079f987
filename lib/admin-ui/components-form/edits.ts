// The structural edits of component lists on a document form, without script: each is a submit
// button (`intent` = `c-add:<field path>`, `c-remove:`, `c-up:`, `c-down:<entry path>`) whose
// post comes back as the same page with the list changed and nothing saved. A zone's add reads
// the component chosen in its select (`f.<path>._add`). The focus goes back to where the keyboard
// user was: the moved entry's button, the new entry, or the list's add button after a remove.
import type { ComponentField, ContentType } from '../../content-types.js'
import type { Form } from '../form.js'
import { newEntry, pathName, schemaIn, type EntryState } from './state.js'

/** True for a form post that edits a component list instead of saving. */
export function isComponentEdit(intent: string | undefined): boolean {
  return intent !== undefined && /^c-(add|remove|up|down):[A-Za-z0-9_.]{1,400}$/.test(intent)
}

/** The DOM id of an element of a component field (`cf-blocks-0-heading`, plus a suffix). */
export const domId = (path: string, suffix = '') => `cf-${path.replaceAll('.', '-')}${suffix === '' ? '' : `-${suffix}`}`

/** The list at a field path (`blocks`, `blocks.0.ctas`) and its field, if the path names one. */
function listAt(type: ContentType, values: Map<string, EntryState[]>, path: string): { list: EntryState[]; field: ComponentField } | undefined {
  const [first, ...rest] = path.split('.')
  let field = type.components[first ?? '']
  let list = values.get(first ?? '')
  for (let i = 0; i + 1 < rest.length && field !== undefined && list !== undefined; i += 2) {
    const entry = list[Number(rest[i])]
    const name = rest[i + 1] as string
    const schema = entry === undefined ? undefined : schemaIn(field, entry.uid)
    field = schema?.components[name]
    list = entry?.nested.get(name)
  }
  if (rest.length % 2 !== 0 || field === undefined || list === undefined) return undefined
  return { list, field }
}

/** Applies an edit intent to `values` (changed in place); the DOM id to focus after it, if any. */
export function applyEdit(type: ContentType, values: Map<string, EntryState[]>, intent: string, form: Form): string | undefined {
  const [action, path] = intent.slice(2).split(':') as [string, string]
  if (action === 'add') {
    const found = listAt(type, values, path)
    if (found === undefined) return undefined
    const { list, field } = found
    const limit = field.repeatable ? (field.max ?? Infinity) : 1
    const schema = field.kind === 'dynamiczone' ? schemaIn(field, form.text(pathName(`${path}._add`)) ?? '') : field.components[0]
    if (schema === undefined || list.length >= limit) return domId(path, 'add')
    list.push(newEntry(schema))
    return domId(`${path}.${list.length - 1}`)
  }
  const cut = path.lastIndexOf('.')
  const found = listAt(type, values, path.slice(0, cut))
  const index = Number(path.slice(cut + 1))
  if (found === undefined || !Number.isInteger(index) || index >= found.list.length) return undefined
  const { list } = found
  const listPath = path.slice(0, cut)
  if (action === 'remove') {
    list.splice(index, 1)
    return list.length === 0 ? domId(listPath, 'add') : domId(`${listPath}.${Math.min(index, list.length - 1)}`, 'remove')
  }
  const to = action === 'up' ? index - 1 : index + 1
  if (to < 0 || to >= list.length) return domId(path, action)
  const [moved] = list.splice(index, 1)
  list.splice(to, 0, moved as EntryState)
  // At either end the button that moved it is disabled: the other one takes the focus.
  const next = action === 'up' ? (to === 0 ? 'down' : 'up') : to === list.length - 1 ? 'up' : 'down'
  return domId(`${listPath}.${to}`, next)
}
