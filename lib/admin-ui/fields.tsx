/** @jsxImportSource ./jsx */
// One input per attribute, chosen by its type, and the reverse: the `data` of an API write read
// back from the submitted form. Generic over the content types: every decision here is made from
// an attribute's type and schema settings, never its name.
import type { ContentType } from '../content-types.js'
import type { Form } from './form.js'
import { attributesOf, isLocalized, type AttributeView } from './types.js'

/** What a form does with the version: create a document, update a version, add a localization. */
export type FormMode = 'create' | 'update' | 'localization'

const TEXT_TYPES = new Set(['string', 'email', 'uid', 'text', 'richtext'])
const NUMBER_TYPES = new Set(['integer', 'biginteger', 'float', 'decimal'])
const EDITABLE = new Set([...TEXT_TYPES, ...NUMBER_TYPES, 'password', 'enumeration', 'boolean', 'date', 'time', 'datetime', 'json', 'blocks'])

/** The form field name of an attribute (prefixed: no clash with `_csrf` or other controls). */
export const fieldName = (name: string) => `f.${name}`

/** True for attributes whose value is never shown (write-only). */
const writeOnly = (attribute: AttributeView) => attribute.type === 'password' || attribute.private === true

/** True for attributes this interface has an input for (relations, media and components not yet). */
export function supported(attribute: AttributeView): boolean {
  return EDITABLE.has(attribute.type)
}

/** True for attributes a form may write: supported, and not set by the API alone (`writable: false`). */
export function editable(attribute: AttributeView): boolean {
  return supported(attribute) && attribute.writable !== false
}

/** An attribute's stored value as the text of its input. */
export function inputText(attribute: AttributeView, value: unknown): string {
  if (value === null || value === undefined || writeOnly(attribute)) return ''
  if (attribute.type === 'json' || attribute.type === 'blocks') return JSON.stringify(value, null, 2)
  if (attribute.type === 'datetime' && typeof value === 'string') return value.slice(0, 19)
  return String(value)
}

/** A stored value shown as text (the source column of a translation). */
export function shownText(attribute: AttributeView, value: unknown): string {
  if (writeOnly(attribute)) return '(hidden)'
  if (value === null || value === undefined || value === '') return '(empty)'
  if (attribute.type === 'boolean') return value === true ? 'yes' : 'no'
  if (attribute.type === 'datetime' && typeof value === 'string') return `${value.slice(0, 19).replace('T', ' ')} UTC`
  return inputText(attribute, value)
}

interface InputProps {
  readonly id: string
  readonly name: string
  readonly attribute: AttributeView
  readonly text: string
  readonly checked: boolean
  readonly describedBy: string
  readonly invalid: boolean
  readonly disabled: boolean
}

/** The input of one attribute. */
export function AttributeInput(props: InputProps) {
  const { attribute, id, text } = props
  const common = {
    id,
    name: fieldName(props.name),
    'aria-describedby': props.describedBy,
    'aria-invalid': props.invalid ? 'true' : undefined,
    disabled: props.disabled,
    required: attribute.required === true && !writeOnly(attribute) && attribute.type !== 'boolean',
  }
  const numeric = (value: number | string | undefined) => (typeof value === 'number' ? value : undefined)
  switch (attribute.type) {
    case 'text':
    case 'richtext':
      // richtext: the editors' script (blocks/browser/) adds a toolbar and a preview.
      return <textarea class="prose" rows={5} maxlength={attribute.maxLength} minlength={attribute.minLength} data-editor={attribute.type === 'richtext' ? 'markdown' : undefined} data-label={props.name} {...common}>{text}</textarea>
    case 'json':
    case 'blocks':
      // blocks: the editors' script puts its blocks editor over the JSON, which stays the field.
      return <textarea data-json="" data-label={props.name} data-editor={attribute.type === 'blocks' ? 'blocks' : undefined} rows={8} spellcheck={false} {...common}>{text}</textarea>
    case 'enumeration':
      return (
        <select {...common}>
          <option value="" selected={text === ''}>(none)</option>
          {(attribute.enum ?? []).map((option) => <option value={option} selected={option === text}>{option}</option>)}
        </select>
      )
    case 'boolean':
      return <input type="checkbox" value="true" checked={props.checked} {...common} />
    case 'integer':
      return <input type="number" step="1" value={text} min={numeric(attribute.min)} max={numeric(attribute.max)} {...common} />
    case 'float':
    case 'decimal':
      return <input type="number" step="any" value={text} min={numeric(attribute.min)} max={numeric(attribute.max)} {...common} />
    case 'biginteger':
      return <input type="text" inputmode="numeric" pattern="-?[0-9]{1,19}" value={text} {...common} />
    case 'date':
      return <input type="date" value={text} {...common} />
    case 'time':
      return <input type="time" step="1" value={text} {...common} />
    case 'datetime':
      return <input type="datetime-local" step="1" value={text} {...common} />
    case 'password':
      return <input type="password" autocomplete="new-password" value="" {...common} />
    case 'email':
      return <input type="email" value={text} maxlength={attribute.maxLength} {...common} />
    default:
      if (writeOnly(attribute)) return <input type="password" autocomplete="off" value="" {...common} />
      return <input type="text" value={text} maxlength={attribute.maxLength} minlength={attribute.minLength} {...common} />
  }
}

/** The `data` a submitted form writes, or the problems that stop it before the API is asked. */
export function readData(type: ContentType, form: Form, mode: FormMode): { data: Record<string, unknown>; problems: Map<string, string> } {
  const data: Record<string, unknown> = {}
  const problems = new Map<string, string>()
  for (const [name, attribute] of attributesOf(type)) {
    if (!editable(attribute)) continue
    // A new localization inherits the shared values: the API refuses them in its body.
    if (mode === 'localization' && !isLocalized(type, attribute)) continue
    if (attribute.type === 'boolean') {
      data[name] = form.text(fieldName(name)) === 'true'
      continue
    }
    const raw = form.text(fieldName(name))
    if (raw === undefined) continue
    // Browsers send a textarea's line breaks as CRLF: the value keeps the LF it was written with.
    const text = attribute.type === 'json' || attribute.type === 'blocks' ? raw.trim() : attribute.type === 'text' || attribute.type === 'richtext' ? raw.replaceAll('\r\n', '\n') : raw
    if (text === '') {
      // Write-only values are kept when left empty; a new document leaves empty fields unset
      // (so schema defaults apply); an update clears them.
      if (!writeOnly(attribute) && mode !== 'create') data[name] = null
      continue
    }
    const parsed = parseText(attribute, text)
    // Shown next to the field, and read out on its own: the message names its field, as the API's do.
    if ('problem' in parsed) problems.set(name, `${name} ${parsed.problem}`)
    else data[name] = parsed.value
  }
  return { data, problems }
}

/** One input's text as the attribute's JSON value (component fields parse theirs with it too). */
export function parseText(attribute: AttributeView, text: string): { value: unknown } | { problem: string } {
  switch (attribute.type) {
    case 'integer':
      return /^-?\d+$/.test(text.trim()) ? { value: Number(text.trim()) } : { problem: 'must be a whole number' }
    case 'float':
    case 'decimal': {
      const value = Number(text.trim())
      return text.trim() !== '' && Number.isFinite(value) ? { value } : { problem: 'must be a number' }
    }
    case 'json':
    case 'blocks':
      try {
        return { value: JSON.parse(text) as unknown }
      } catch (error) {
        return { problem: `is not valid JSON: ${error instanceof Error ? error.message : String(error)}` }
      }
    case 'datetime':
      // The input has no zone: the page says its times are UTC.
      return { value: /(Z|[+-]\d\d:\d\d)$/.test(text) ? text : `${text}Z` }
    default:
      return { value: text }
  }
}
