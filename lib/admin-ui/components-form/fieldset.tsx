/** @jsxImportSource ../jsx */
// Component fields on a document form (content-model.md §18): a component as a fieldset of its
// attributes (nested components as nested fieldsets), a repeatable component and a dynamic zone as
// an ordered list of such fieldsets, each with Move up, Move down and Remove buttons, and an Add
// button (a zone's with a select of its components by display name). The buttons post the form
// (edits.ts), so all of it works without script and from the keyboard; `min`, `max` and
// `required` are said in the field's hint, and the API's errors shown at the path they name.
import type { Child } from 'hono/jsx'
import type { Attribute, ComponentField, ComponentSchema, Relation } from '../../content-types.js'
import { AttributeInput, shownText } from '../fields.js'
import type { PageContext } from '../layout.js'
import type { FileSummary } from '../media-files.js'
import { MediaPicker } from '../media-picker.js'
import { domId } from './edits.js'
import { pathName, schemaIn, type EntryState } from './state.js'

/** What every fieldset of one form shares. */
export interface FieldContext {
  readonly page: PageContext
  readonly errors: ReadonlyMap<string, string> | undefined
  readonly disabled: boolean
  /** The DOM id an edit left the focus on. */
  readonly focus: string | undefined
  readonly files: ReadonlyMap<string, FileSummary>
  readonly library: readonly FileSummary[]
  /** Said after `required` (drafts may be saved without). */
  readonly requiredText: string
}

function fieldHint(field: ComponentField): string {
  const names = field.components.map((component) => component.displayName).join(', ')
  const what = field.kind === 'dynamiczone' ? `A dynamic zone: blocks of ${names}, in order.` : field.repeatable ? `A repeatable ${field.components[0]?.displayName ?? ''} component, in order.` : `A ${field.components[0]?.displayName ?? ''} component.`
  const bounds = [field.min === undefined ? undefined : `at least ${field.min}`, field.max === undefined ? undefined : `at most ${field.max}`].filter((part) => part !== undefined)
  return `${what}${bounds.length === 0 ? '' : ` ${bounds.join(', ')} ${field.kind === 'dynamiczone' ? 'blocks' : 'entries'}.`}`
}

/** One attribute of an entry. */
function Leaf(props: { ctx: FieldContext; path: string; name: string; attribute: Attribute; text: string }) {
  const { ctx, path, name, attribute, text } = props
  const id = domId(`${path}.${name}`)
  const error = ctx.errors?.get(`${path}.${name}`)
  const input = <AttributeInput id={id} name={`${path}.${name}`} attribute={attribute as never} text={text} checked={text === 'true'} describedBy={`${id}-error`} invalid={error !== undefined} disabled={ctx.disabled} />
  const label = `${name}${attribute.required === true ? ctx.requiredText : ''}`
  return (
    <div class="field">
      {attribute.type === 'boolean' ? <label for={id}>{input} {label}</label> : <><label for={id}>{label}</label>{input}</>}
      <span id={`${id}-error`} class="error">{error ?? ''}</span>
    </div>
  )
}

/** A relation inside an entry: documentIds as text (a media attribute gets its picker). */
function Link(props: { ctx: FieldContext; path: string; name: string; relation: Relation; text: string }) {
  const { ctx, path, name, relation, text } = props
  const id = domId(`${path}.${name}`)
  const error = ctx.errors?.get(`${path}.${name}`)
  if (relation.media !== undefined) {
    return <MediaPicker page={ctx.page} name={pathName(`${path}.${name}`)} id={id} label={name} relation={relation} selected={text.split(',').filter((part) => part !== '')} files={ctx.files} library={ctx.library} error={error} disabled={ctx.disabled} upload={false} />
  }
  const target = relation.target.split('.').at(-1) ?? relation.target
  return (
    <div class="field">
      <label for={id}>{`${name} → ${target}`}</label>
      <input type="text" id={id} name={pathName(`${path}.${name}`)} value={text} disabled={ctx.disabled} aria-describedby={`${id}-hint ${id}-error`} aria-invalid={error === undefined ? undefined : 'true'} />
      <span id={`${id}-hint`} class="hint">{relation.many ? 'documentIds, separated by commas, in order.' : 'A documentId (empty for none).'}</span>
      <span id={`${id}-error`} class="error">{error ?? ''}</span>
    </div>
  )
}

/** An edit button (a submit of the document form); it takes the focus after its own edit. */
function EditButton(props: { ctx: FieldContext; id: string; intent: string; text: string; hidden: string; disabled?: boolean }) {
  return (
    <button type="submit" class="secondary" id={props.id} name="intent" value={props.intent} disabled={props.ctx.disabled || props.disabled === true} autofocus={props.ctx.focus === props.id} data-focus={props.ctx.focus === props.id ? '' : undefined}>
      {props.text}<span class="visually-hidden">{` ${props.hidden}`}</span>
    </button>
  )
}

/** One entry: its attributes, relations and nested components, and its buttons. */
function Entry(props: { ctx: FieldContext; field: ComponentField; path: string; index: number; count: number; entry: EntryState; schema: ComponentSchema }) {
  const { ctx, field, entry, schema, index, count } = props
  const at = `${props.path}.${index}`
  const title = field.repeatable ? `${schema.displayName} ${index + 1}` : schema.displayName
  const focused = ctx.focus === domId(at)
  return (
    <fieldset class="entry" id={domId(at)} data-focus={focused ? '' : undefined}>
      <legend>{title}</legend>
      <input type="hidden" name={pathName(`${at}._uid`)} value={entry.uid} disabled={ctx.disabled} />
      {entry.id === undefined ? null : <input type="hidden" name={pathName(`${at}._id`)} value={String(entry.id)} disabled={ctx.disabled} />}
      {Object.entries(schema.attributes).map(([name, attribute]) => <Leaf ctx={ctx} path={at} name={name} attribute={attribute} text={entry.texts.get(name) ?? ''} />)}
      {Object.entries(schema.relations).filter(([, relation]) => relation.private !== true).map(([name, relation]) => <Link ctx={ctx} path={at} name={name} relation={relation} text={entry.texts.get(name) ?? ''} />)}
      {Object.entries(schema.components).map(([name, below]) => <ComponentFieldset ctx={ctx} field={below} path={`${at}.${name}`} label={name} entries={entry.nested.get(name) ?? []} />)}
      <div class="row entry-actions">
        {field.repeatable ? <EditButton ctx={ctx} id={domId(at, 'up')} intent={`c-up:${at}`} text="Move up" hidden={title} disabled={index === 0} /> : null}
        {field.repeatable ? <EditButton ctx={ctx} id={domId(at, 'down')} intent={`c-down:${at}`} text="Move down" hidden={title} disabled={index === count - 1} /> : null}
        <EditButton ctx={ctx} id={domId(at, 'remove')} intent={`c-remove:${at}`} text="Remove" hidden={title} />
      </div>
    </fieldset>
  )
}

/** A component, repeatable component or zone at `path`, with its entries and add control. */
export function ComponentFieldset(props: { ctx: FieldContext; field: ComponentField; path: string; label: Child; entries: readonly EntryState[]; hint?: string }) {
  const { ctx, field, path, entries } = props
  const id = domId(path)
  const limit = field.repeatable ? (field.max ?? Infinity) : 1
  const full = entries.length >= limit
  const error = ctx.errors?.get(path)
  const addId = domId(path, 'add')
  return (
    <fieldset class={`component ${field.kind}`} id={id} aria-describedby={`${id}-hint ${id}-error`} aria-invalid={error === undefined ? undefined : 'true'}>
      <legend>{props.label}{field.required === true ? ctx.requiredText : ''}</legend>
      <p class="hint" id={`${id}-hint`}>{[fieldHint(field), props.hint].filter((part) => part !== undefined).join(' ')}</p>
      <input type="hidden" name={pathName(`${path}._n`)} value={String(entries.length)} disabled={ctx.disabled} />
      {entries.length === 0 ? <p class="hint">{field.repeatable ? '(no entries)' : '(empty)'}</p> : (
        <ol class="entries">
          {entries.map((entry, index) => {
            const schema = schemaIn(field, entry.uid)
            return schema === undefined ? null : <li><Entry ctx={ctx} field={field} path={path} index={index} count={entries.length} entry={entry} schema={schema} /></li>
          })}
        </ol>
      )}
      {full && !field.repeatable ? null : (
        <div class="row">
          {field.kind === 'dynamiczone' ? (
            <div class="field">
              <label for={domId(path, 'choose')}>Block to add</label>
              <select id={domId(path, 'choose')} name={pathName(`${path}._add`)} disabled={ctx.disabled || full}>
                {field.components.map((component) => <option value={component.uid}>{component.displayName}</option>)}
              </select>
            </div>
          ) : null}
          <div class="field">
            <EditButton ctx={ctx} id={addId} intent={`c-add:${path}`} text={field.kind === 'dynamiczone' ? 'Add block' : field.repeatable ? 'Add an entry' : `Add ${field.components[0]?.displayName ?? 'component'}`} hidden={`to ${path}`} disabled={full} />
          </div>
        </div>
      )}
      <span id={`${id}-error`} class="error">{error ?? ''}</span>
    </fieldset>
  )
}

/** A stored component value shown as text (the source column of the side-by-side view). */
export function SourceValue(props: { field: ComponentField; value: unknown }) {
  const entries = (Array.isArray(props.value) ? props.value : props.value === null || props.value === undefined ? [] : [props.value]) as Record<string, unknown>[]
  if (entries.length === 0) return <span>(empty)</span>
  return (
    <ol class="source-entries">
      {entries.map((entry) => {
        const schema = props.field.kind === 'dynamiczone' ? schemaIn(props.field, String(entry.__component)) : props.field.components[0]
        if (schema === undefined) return null
        return (
          <li>
            <strong>{schema.displayName}</strong>
            <dl>
              {Object.entries(schema.attributes).map(([name, attribute]) => <><dt>{name}</dt><dd>{shownText(attribute as never, entry[name])}</dd></>)}
              {Object.entries(schema.components).map(([name, below]) => <><dt>{name}</dt><dd><SourceValue field={below} value={entry[name]} /></dd></>)}
            </dl>
          </li>
        )
      })}
    </ol>
  )
}
