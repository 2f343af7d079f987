/** @jsxImportSource ./jsx */
// The input of a media attribute on a document form (content-model.md §19), without script: the
// chosen files first (a single one as the checked radio, a multiple one's as checked boxes, in
// order), then the library's newest files its `allowedTypes` accept to choose from, each with its
// thumbnail; and a file field to upload a new one (sent with the save). A hidden `_on` field says
// the picker was on the form, so choosing none is told apart from not showing it.
import type { ComponentSchema, ContentType, Relation } from '../content-types.js'
import type { Form } from './form.js'
import { to, type PageContext } from './layout.js'
import { allowedFile, uploadFiles, type FileSummary } from './media-files.js'
import type { ApiClient } from './api-client.js'

/** The form name of a top-level media attribute's picker. */
export const mediaField = (name: string) => `m.${name}`

const ACCEPT: Record<string, string> = { images: 'image/*', videos: 'video/*', audios: 'audio/*' }

/** The file input's `accept`: the kinds `allowedTypes` names (anything when it names files). */
const acceptOf = (allowed: readonly string[] | undefined) => (allowed === undefined || allowed.includes('files') ? undefined : allowed.map((kind) => ACCEPT[kind]).join(','))

/** A file's thumbnail: an image with the file's alternative text, or its type in words. */
export function Thumbnail(props: { page: PageContext; file: FileSummary | undefined; decorative?: boolean }) {
  const { file, page } = props
  if (file?.thumbnail === undefined) return <span class="thumb none" aria-hidden="true">{file === undefined ? '?' : file.mime.split('/')[1] ?? 'file'}</span>
  const src = file.thumbnail.startsWith('/') ? to(page, file.thumbnail) : file.thumbnail
  return <img class="thumb" src={src} alt={props.decorative === true ? '' : file.alternativeText || file.name} loading="lazy" width="96" height="64" />
}

interface PickerProps {
  readonly page: PageContext
  /** The form name of the choice (`m.cover`, or a path inside a component). */
  readonly name: string
  readonly id: string
  readonly label: string
  readonly relation: Relation
  readonly selected: readonly string[]
  readonly files: ReadonlyMap<string, FileSummary>
  readonly library: readonly FileSummary[]
  readonly error: string | undefined
  readonly disabled: boolean
  /** Offer a file field to upload a new file with the save (top-level pickers). */
  readonly upload: boolean
}

/** The picker of one media attribute. */
export function MediaPicker(props: PickerProps) {
  const { page, name, id, relation, selected, files, disabled } = props
  const allowed = relation.media?.allowedTypes
  const chosen = new Set(selected)
  const offered = props.library.filter((file) => !chosen.has(file.documentId) && allowedFile(allowed, file))
  const option = (documentId: string, checked: boolean) => {
    const file = files.get(documentId) ?? props.library.find((each) => each.documentId === documentId)
    return (
      <li>
        <label class="media-choice">
          <input type={relation.many ? 'checkbox' : 'radio'} name={name} value={documentId} checked={checked} disabled={disabled} />
          <Thumbnail page={page} file={file} decorative />
          <span>{file === undefined ? documentId : file.name}</span>
        </label>
      </li>
    )
  }
  const hint = `${relation.many ? 'Several files, in order' : 'One file'}${allowed === undefined ? '' : `: ${allowed.join(', ')}`}${relation.media?.required === true ? ' (required)' : ''}.`
  return (
    <fieldset class="media" id={id} aria-describedby={`${id}-hint ${id}-error`} aria-invalid={props.error === undefined ? undefined : 'true'}>
      <legend>{props.label}</legend>
      <input type="hidden" name={`${name}._on`} value="1" disabled={disabled} />
      <p class="hint" id={`${id}-hint`}>{hint} The newest files of the library are offered; the media library page has them all.</p>
      <ul class="media-choices">
        {relation.many ? null : (
          <li><label class="media-choice"><input type="radio" name={name} value="" checked={chosen.size === 0} disabled={disabled} /> <span>(none)</span></label></li>
        )}
        {selected.map((documentId) => option(documentId, true))}
        {offered.map((file) => option(file.documentId, false))}
      </ul>
      {props.upload && !disabled ? (
        <div class="field">
          <label for={`${id}-upload`}>{relation.many ? 'Or upload new files (added last)' : 'Or upload a new file (chosen instead)'}</label>
          <input type="file" id={`${id}-upload`} name={`${name}.upload`} accept={acceptOf(allowed)} multiple={relation.many} />
        </div>
      ) : null}
      <span id={`${id}-error`} class="error">{props.error ?? ''}</span>
    </fieldset>
  )
}

/** The media attributes of a type a form shows. */
export function mediaAttributes(type: ContentType): [string, Relation][] {
  return Object.entries(type.relations).filter(([, relation]) => relation.media !== undefined && relation.private !== true)
}

/** True when a form of the type has a media picker, at top level or inside a component. */
export function usesMedia(type: ContentType): boolean {
  const inside = (schemas: readonly ComponentSchema[]): boolean =>
    schemas.some((schema) => Object.values(schema.relations).some((relation) => relation.media !== undefined) || Object.values(schema.components).some((field) => inside(field.components)))
  return mediaAttributes(type).length > 0 || Object.values(type.components).some((field) => inside(field.components))
}

/** The files each top-level picker of a submitted form chose, by attribute (pickers the form held). */
export function chosenMedia(type: ContentType, form: Form): Map<string, string[]> {
  const chosen = new Map<string, string[]>()
  for (const [name] of mediaAttributes(type)) {
    if (form.has(`${mediaField(name)}._on`)) chosen.set(name, form.all(mediaField(name)).filter((value) => value !== ''))
  }
  return chosen
}

/**
 * The media values of a write's `data`: each picker's choice, with files uploaded in its file field
 * first (a single attribute takes the upload instead of its choice). A refused upload is returned
 * as a problem of its attribute.
 */
export async function mediaData(api: ApiClient, type: ContentType, form: Form, creating: boolean): Promise<{ data: Record<string, unknown>; problems: Map<string, string> }> {
  const data: Record<string, unknown> = {}
  const problems = new Map<string, string>()
  for (const [name, ids] of chosenMedia(type, form)) {
    const relation = type.relations[name] as Relation
    const uploads = form.files(`${mediaField(name)}.upload`)
    let picked = ids
    if (uploads.length > 0) {
      const uploaded = await uploadFiles(api, relation.many ? uploads : uploads.slice(0, 1))
      if ('message' in uploaded) {
        problems.set(name, `${name}: ${uploaded.message}`)
        continue
      }
      picked = relation.many ? [...ids, ...uploaded.files.map((file) => file.documentId)] : uploaded.files.map((file) => file.documentId)
    }
    if (creating && picked.length === 0) continue
    data[name] = relation.many ? picked : (picked[0] ?? null)
  }
  return { data, problems }
}
