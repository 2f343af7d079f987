/** @jsxImportSource ../jsx */
// The component, zone and media fields of a document form, as the plain fields are shown
// (document-page.tsx): shared ones marked (and inherited, read-only, by a new localization), the
// source locale's value beside each in the side-by-side view; and the reverse, the `data` a
// submitted form writes for them. The edits' state (edits.ts) comes back through `FormState`.
import type { Child } from 'hono/jsx'
import type { ComponentField, ContentType } from '../../content-types.js'
import type { VersionView } from '../documents.js'
import type { FormMode } from '../fields.js'
import type { Form } from '../form.js'
import type { PageContext } from '../layout.js'
import { filesIn, type FileSummary } from '../media-files.js'
import { MediaPicker, mediaAttributes, mediaField } from '../media-picker.js'
import { isLocalized } from '../types.js'
import { ComponentFieldset, SourceValue, type FieldContext } from './fieldset.js'
import { entriesFromForm, entriesFromStored, valueOf, type EntryState } from './state.js'

/** What a re-shown form carries for these fields: edited entries, media choices, the focus. */
export interface ComponentFormState {
  readonly components?: ReadonlyMap<string, EntryState[]>
  readonly media?: ReadonlyMap<string, string[]>
  readonly focus?: string
  readonly errors?: ReadonlyMap<string, string>
}

interface Props {
  readonly page: PageContext
  readonly type: ContentType
  readonly mode: FormMode
  readonly current: VersionView | undefined
  readonly anyVersion: VersionView | undefined
  readonly source: VersionView | undefined
  readonly sourceLocale: string | undefined
  readonly state: ComponentFormState
  readonly library: readonly FileSummary[]
  readonly requiredText: string
}

const localizedField = (type: ContentType, field: ComponentField) => isLocalized(type, { type: 'component', localized: field.localized })

const ids = (value: unknown): string[] => (Array.isArray(value) ? value : value === null || value === undefined ? [] : [value]).map((file: any) => String(file?.documentId ?? file))

/** Every component, zone and media field of the form, each beside its source value if shown. */
export function ComponentAndMediaFields(props: Props) {
  const { page, type, mode, state, source } = props
  const files = filesIn([props.current?.document, props.anyVersion?.document])
  for (const file of props.library) if (!files.has(file.documentId)) files.set(file.documentId, file)
  const pair = (name: string, sourceShown: Child, field: Child) => (
    <div class={`pair${source === undefined ? '' : ' with-source'}`}>
      {source === undefined ? null : (
        <div class="field">
          <span class="label">{`${name} in ${props.sourceLocale ?? ''}`}</span>
          <div class="source" id={`cf-${name}-source`} lang={props.sourceLocale}>{sourceShown}</div>
        </div>
      )}
      {field}
    </div>
  )
  const components = Object.entries(type.components).map(([name, field]) => {
    const shared = !localizedField(type, field)
    const inherited = mode === 'localization' && shared
    const stored = (inherited ? props.anyVersion : props.current)?.document[name]
    const entries = state.components?.get(name) ?? entriesFromStored(field, stored)
    const ctx: FieldContext = { page, errors: state.errors, disabled: inherited, focus: state.focus, files, library: props.library, requiredText: props.requiredText }
    const label = shared ? <>{name} <span class="badge shared">shared</span></> : name
    const hint = shared ? (inherited ? 'Shared by every locale: it keeps the value of the other versions.' : 'Shared by every locale: a change here changes every version.') : undefined
    return pair(name, <SourceValue field={field} value={source?.document[name]} />, <ComponentFieldset ctx={ctx} field={field} path={name} label={label} entries={entries} hint={hint} />)
  })
  const media = mediaAttributes(type).map(([name, relation]) => {
    const selected = state.media?.get(name) ?? ids(props.current?.document[name])
    const shown = ids(source?.document[name]).map((id) => files.get(id)?.name ?? id).join(', ')
    return pair(name, shown === '' ? '(empty)' : shown, <MediaPicker page={page} name={mediaField(name)} id={`media-${name}`} label={name} relation={relation} selected={selected} files={files} library={props.library} error={state.errors?.get(name)} disabled={false} upload />)
  })
  return <>{components}{media}</>
}

/** The component values a submitted form holds, by attribute (the fields it showed). */
export function componentsFromForm(type: ContentType, form: Form): Map<string, EntryState[]> {
  const values = new Map<string, EntryState[]>()
  for (const [name, field] of Object.entries(type.components)) {
    const entries = entriesFromForm(form, field, name)
    if (entries !== undefined) values.set(name, entries)
  }
  return values
}

/** The component and zone values of a write's `data`, and the problems that stop it (by path). */
export function componentData(type: ContentType, form: Form, mode: FormMode): { data: Record<string, unknown>; problems: Map<string, string> } {
  const data: Record<string, unknown> = {}
  const problems = new Map<string, string>()
  for (const [name, entries] of componentsFromForm(type, form)) {
    const field = type.components[name] as ComponentField
    // A new localization inherits the shared values (their inputs are disabled: never posted).
    if (mode === 'localization' && !localizedField(type, field)) continue
    if (mode === 'create' && entries.length === 0) continue
    data[name] = valueOf(field, entries, name, problems)
  }
  return { data, problems }
}

/** True when the type's form has a file field (it then posts as multipart/form-data). */
export function takesUploads(type: ContentType): boolean {
  return mediaAttributes(type).length > 0
}
