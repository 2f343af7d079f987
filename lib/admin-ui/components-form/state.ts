// Component, repeatable and dynamic-zone values on a document form (content-model.md §18), as
// texts: read from a stored version (populated) or from a submitted form, edited (add, remove,
// move), and turned into the `data` of an API write. Every component field is a list of entries
// (a single component holds at most one), so one shape serves all three. Form names are the
// field's path under `f.`: `f.blocks._n` (the count), `f.blocks.0._uid`, `f.blocks.0._id`,
// `f.blocks.0.heading`, `f.blocks.0.ctas.1.text`.
import { isPrivate, type Attribute, type ComponentField, type ComponentSchema, type Relation } from '../../content-types.js'
import { inputText, parseText } from '../fields.js'
import type { Form } from '../form.js'

/** One entry as the form shows it: its component, its id (none when new), texts and nested lists. */
export interface EntryState {
  readonly uid: string
  readonly id: number | undefined
  /** Each attribute's input text; a relation's or media attribute's documentIds joined by commas. */
  readonly texts: Map<string, string>
  readonly nested: Map<string, EntryState[]>
}

/** Most entries a form may post in one list (a bound on what a request makes us read). */
const MAX_ENTRIES = 500

/** The form name of a path below a component field. */
export const pathName = (path: string) => `f.${path}`

const documentIds = (value: unknown): string[] =>
  (Array.isArray(value) ? value : value === null || value === undefined ? [] : [value]).flatMap((item) => {
    const id = typeof item === 'string' ? item : (item as { documentId?: unknown })?.documentId
    return typeof id === 'string' ? [id] : []
  })

/** The schema of an entry by uid, if the field holds it. */
export function schemaIn(field: ComponentField, uid: string): ComponentSchema | undefined {
  return field.components.find((component) => component.uid === uid)
}

/** The entries of a stored (populated) value of `field`. */
export function entriesFromStored(field: ComponentField, value: unknown): EntryState[] {
  const entries = Array.isArray(value) ? value : value === null || value === undefined ? [] : [value]
  return entries.flatMap((entry: Record<string, unknown>) => {
    const schema = field.kind === 'dynamiczone' ? schemaIn(field, String(entry.__component)) : field.components[0]
    if (schema === undefined || typeof entry !== 'object' || entry === null) return []
    const texts = new Map<string, string>()
    for (const [name, attribute] of Object.entries(schema.attributes)) texts.set(name, inputText(attribute as never, entry[name]))
    for (const name of Object.keys(schema.relations)) texts.set(name, documentIds(entry[name]).join(','))
    const nested = new Map(Object.entries(schema.components).map(([name, below]) => [name, entriesFromStored(below, entry[name])]))
    return [{ uid: schema.uid, id: typeof entry.id === 'number' ? entry.id : undefined, texts, nested }]
  })
}

/** A new, empty entry of `schema` (schema defaults filled in). */
export function newEntry(schema: ComponentSchema): EntryState {
  const texts = new Map<string, string>()
  for (const [name, attribute] of Object.entries(schema.attributes)) texts.set(name, inputText(attribute as never, attribute.default))
  for (const name of Object.keys(schema.relations)) texts.set(name, '')
  return { uid: schema.uid, id: undefined, texts, nested: new Map(Object.keys(schema.components).map((name) => [name, []])) }
}

/** The entries of `field` a form posted under `path`, or undefined when the form did not hold it. */
export function entriesFromForm(form: Form, field: ComponentField, path: string): EntryState[] | undefined {
  const count = form.text(pathName(`${path}._n`))
  if (count === undefined || !/^\d{1,4}$/.test(count)) return undefined
  const entries: EntryState[] = []
  for (let i = 0; i < Math.min(Number(count), MAX_ENTRIES, field.repeatable ? MAX_ENTRIES : 1); i++) {
    const at = `${path}.${i}`
    const schema = schemaIn(field, form.text(pathName(`${at}._uid`)) ?? '')
    if (schema === undefined) continue
    const id = form.text(pathName(`${at}._id`)) ?? ''
    const texts = new Map<string, string>()
    for (const [name, attribute] of Object.entries(schema.attributes)) {
      const text = form.text(pathName(`${at}.${name}`))
      texts.set(name, attribute.type === 'boolean' ? (text === 'true' ? 'true' : 'false') : (text ?? ''))
    }
    for (const [name, relation] of Object.entries(schema.relations)) {
      texts.set(name, relation.media === undefined ? (form.text(pathName(`${at}.${name}`)) ?? '') : form.all(pathName(`${at}.${name}`)).filter((value) => value !== '').join(','))
    }
    const nested = new Map(Object.entries(schema.components).map(([name, below]) => [name, entriesFromForm(form, below, `${at}.${name}`) ?? []]))
    entries.push({ uid: schema.uid, id: /^\d{1,15}$/.test(id) ? Number(id) : undefined, texts, nested })
  }
  return entries
}

type Problems = Map<string, string>

/** One attribute's text as its value in `data`, or undefined to leave it out (kept, or its default). */
function attributeValue(attribute: Attribute, text: string, isNew: boolean, path: string, problems: Problems): unknown {
  if (attribute.writable === false) return undefined
  if (attribute.type === 'boolean') return text === 'true'
  if (text.trim() === '') return isPrivate(attribute) || isNew ? undefined : null
  const parsed = parseText(attribute as never, attribute.type === 'json' || attribute.type === 'blocks' ? text.trim() : text)
  if ('problem' in parsed) {
    problems.set(path, `${path.split('.').at(-1)} ${parsed.problem}`)
    return undefined
  }
  return parsed.value
}

/** A relation's (or media attribute's) text as its value: a documentId or null, or an array of them. */
function linkValue(relation: Relation, text: string): unknown {
  const ids = text.split(/[\s,]+/).filter((id) => id !== '')
  return relation.many ? ids : (ids[0] ?? null)
}

/** The value `entries` of `field` write, with the problems found on the way (by path). */
export function valueOf(field: ComponentField, entries: readonly EntryState[], path: string, problems: Problems): unknown {
  const values = entries.flatMap((entry, index) => {
    const schema = schemaIn(field, entry.uid)
    if (schema === undefined) return []
    const at = `${path}.${index}`
    const value: Record<string, unknown> = field.kind === 'dynamiczone' ? { __component: entry.uid } : {}
    if (entry.id !== undefined) value.id = entry.id
    for (const [name, attribute] of Object.entries(schema.attributes)) {
      const written = attributeValue(attribute, entry.texts.get(name) ?? '', entry.id === undefined, `${at}.${name}`, problems)
      if (written !== undefined) value[name] = written
    }
    for (const [name, relation] of Object.entries(schema.relations)) value[name] = linkValue(relation, entry.texts.get(name) ?? '')
    for (const [name, below] of Object.entries(schema.components)) value[name] = valueOf(below, entry.nested.get(name) ?? [], `${at}.${name}`, problems)
    return [value]
  })
  return field.repeatable ? values : (values[0] ?? null)
}

/** The API path of a form path (`blocks.0.title` → blocks, 0, title): how field errors are keyed. */
export function errorKey(path: readonly (string | number)[]): string {
  return path.map(String).join('.')
}
