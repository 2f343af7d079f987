/** @jsxImportSource ./jsx */
// The document page of the editors: tabs for its locales (each saying whether that version exists),
// the choice of a source locale shown beside each field, and the form of one locale, one fitting
// input per attribute, shared (non-localized) attributes marked, the API's errors next to their
// field; with draft & publish, the publication actions.
import { routeName, type ContentType } from '../content-types.js'
import { statusOf, type DocumentView, type Locale } from './documents.js'
import { AttributeInput, editable, inputText, shownText, supported, type FormMode } from './fields.js'
import { Csrf, Notice, Page, Problem, to, type PageContext } from './layout.js'
import { queryOf } from './paths.js'
import { ComponentAndMediaFields, takesUploads, type ComponentFormState } from './components-form/document-fields.js'
import type { FileSummary } from './media-files.js'
import type { Picked, RelationView } from './relation-links.js'
import { RelationPicker, SEARCH_FORM } from './relation-pickers.js'
import { DOCUMENT_FORM, StatusBar } from './status-bar.js'
import { attributesOf, displayNameOf, hasDraftAndPublish, isLocalized, labelAttribute } from './types.js'

export const NOTICES: Record<string, string> = {
  saved: 'Saved.',
  created: 'Created.',
  deleted: 'Version deleted.',
  published: 'Published.',
  unpublished: 'Unpublished: the draft stays.',
  discarded: 'Draft discarded: it is the published version again.',
  'published-all': 'Every locale with a draft to publish is published.',
  'unpublished-all': 'Every locale unpublished: the drafts stay.',
  'discarded-all': 'Every modified draft discarded.',
}

/** Whether a locale version exists, and with draft & publish its state. */
export function VersionBadge(props: { type: ContentType; view: DocumentView; locale: string }) {
  if (!props.view.editable.has(props.locale)) return <span class="badge missing">missing</span>
  if (!hasDraftAndPublish(props.type)) return <span class="badge exists">exists</span>
  const status = statusOf(props.view, props.locale)
  return <span class={`badge ${status === 'published' ? 'exists' : 'draft'}`}>{status}</span>
}

/** The required attributes a draft leaves empty: what its publication would refuse (private ones are never read). */
function publicationBlockers(type: ContentType, draft: Record<string, unknown>): string[] {
  return attributesOf(type)
    .filter(([name, attribute]) => attribute.required === true && attribute.private !== true && attribute.type !== 'password' && (draft[name] ?? null) === null)
    .map(([name]) => name)
}

export interface FormState extends ComponentFormState {
  /** Said after an edit of a component list (nothing saved yet). */
  readonly notice?: string
  /** Submitted input texts, by attribute, shown again after a refused write. */
  readonly submitted?: ReadonlyMap<string, string>
  /** Problems by attribute (the API's field errors, or the form's own). */
  readonly errors?: ReadonlyMap<string, string>
  readonly problem?: string
  /** Submitted relation picks, by relation, shown again after a refused write. */
  readonly picked?: ReadonlyMap<string, Picked>
}

interface DocumentPageProps {
  readonly page: PageContext
  readonly type: ContentType
  readonly documentId: string | undefined
  readonly locales: readonly Locale[]
  readonly view: DocumentView
  readonly locale: string
  readonly source: string | undefined
  readonly notice: string | undefined
  readonly state: FormState
  /** The type's relations as this version links them, with their pickers' candidates. */
  readonly relations: readonly RelationView[]
  /** The library's newest files, offered by the media pickers (none without media attributes). */
  readonly library?: readonly FileSummary[]
}

/** The document's page: locale tabs, the side-by-side choice, and the form of one locale. */
export function DocumentPage(props: DocumentPageProps) {
  const { page, type, documentId, locales, view, locale, state } = props
  const base = type.kind === 'single' ? `/admin/content/${routeName(type)}` : documentId === undefined ? `/admin/content/${routeName(type)}` : `/admin/content/${routeName(type)}/${documentId}`
  const current = view.editable.get(locale)
  const anyVersion = [...view.editable.values()][0]
  const mode: FormMode = documentId === undefined && type.kind === 'collection' ? 'create' : current !== undefined ? 'update' : anyVersion === undefined ? (type.kind === 'single' ? 'create' : 'create') : 'localization'
  const source = props.source !== undefined && props.source !== locale ? view.editable.get(props.source) : undefined
  const label = labelAttribute(type)
  const named = label === undefined ? undefined : (current ?? anyVersion)?.document[label]
  const title = mode === 'create' && type.kind === 'collection' ? `New ${displayNameOf(type).toLowerCase()}` : `${displayNameOf(type)}${typeof named === 'string' && named !== '' ? `: ${named}` : ''}`
  const localeName = locales.find((entry) => entry.code === locale)?.name ?? locale
  const others = locales.filter((entry) => entry.code !== locale && view.editable.has(entry.code))
  const draftAndPublish = hasDraftAndPublish(type)
  // A draft may be saved incomplete; publishing it needs every required value (content-model.md §15).
  const required = draftAndPublish ? ' (required to publish)' : ' (required)'
  const blockers = draftAndPublish && current !== undefined ? publicationBlockers(type, current.document) : []
  return (
    <Page page={page} title={title} section={`content:${routeName(type)}`}>
      {attributesOf(type).some(([, attribute]) => attribute.type === 'blocks' || attribute.type === 'richtext') ? <script src={to(page, '/admin/assets/editor.js')} defer></script> : null}
      {type.kind === 'collection' ? <p><a href={to(page, `/admin/content/${routeName(type)}${queryOf({ locale })}`)}>{`Back to the ${displayNameOf(type).toLowerCase()} list`}</a></p> : null}
      <Notice text={props.notice ?? state.notice} />
      <Problem text={state.problem} />
      <StatusBar type={type} view={view} locale={locale} mode={mode} badge={<VersionBadge type={type} view={view} locale={locale} />} blockers={blockers} />
      {mode === 'create' && type.kind === 'collection' ? null : (
        <nav aria-label="Locales of this document">
          <ul class="tabs">
            {locales.map((entry) => (
              <li>
                <a href={to(page, `${base}${queryOf({ locale: entry.code, source: props.source })}`)} aria-current={entry.code === locale ? 'page' : undefined}>
                  {entry.code} <VersionBadge type={type} view={view} locale={entry.code} />
                </a>
              </li>
            ))}
          </ul>
        </nav>
      )}
      {others.length === 0 ? null : (
        <form method="get" action={to(page, base)} class="row" aria-label="Side by side">
          <input type="hidden" name="locale" value={locale} />
          <div class="field">
            <label for="source-locale">Show beside each field</label>
            <select id="source-locale" name="source">
              <option value="">(nothing)</option>
              {others.map((entry) => <option value={entry.code} selected={entry.code === props.source}>{`the ${entry.name} version`}</option>)}
            </select>
          </div>
          <div class="field"><button type="submit" class="secondary">Show side by side</button></div>
        </form>
      )}
      <h2 id="version-title">
        {mode === 'create' ? `In ${localeName}` : mode === 'localization' ? `Create the ${localeName} localization` : `The ${localeName} version`}
      </h2>
      {props.relations.some((relation) => relation.editable) ? (
        // The pickers' search fields belong to this GET form (their `form` attribute), so a search
        // never posts the page's form; it keeps the locale and side-by-side choice.
        <form id={SEARCH_FORM} method="get" action={to(page, mode === 'create' && type.kind === 'collection' ? `${base}/new` : base)}>
          <input type="hidden" name="locale" value={locale} />
          {props.source === undefined ? null : <input type="hidden" name="source" value={props.source} />}
        </form>
      ) : null}
      <form id={DOCUMENT_FORM} method="post" action={to(page, `${base}${queryOf({ locale, source: props.source })}`)} aria-labelledby="version-title" enctype={takesUploads(type) ? 'multipart/form-data' : undefined} novalidate>
        <Csrf token={page.csrf} />
        {current?.etag === undefined ? null : <input type="hidden" name="_etag" value={current.etag} />}
        {mode === 'create' && type.kind === 'collection' ? (
          <div class="field">
            <label for="new-locale">Locale</label>
            <select id="new-locale" name="_locale">{locales.map((entry) => <option value={entry.code} selected={entry.code === locale}>{entry.name}</option>)}</select>
          </div>
        ) : null}
        {attributesOf(type).map(([name, attribute]) => {
          const id = `attr-${name}`
          const shared = !isLocalized(type, attribute)
          if (!supported(attribute)) {
            return <p class="hint">{`${name} (${attribute.type}) cannot be edited here yet.`}</p>
          }
          // Shared values of a new localization are inherited; values the API sets are shown only.
          const inherited = (mode === 'localization' && shared) || !editable(attribute)
          const stored = (mode === 'localization' && shared ? anyVersion : current)?.document[name]
          const value = mode === 'create' && stored === undefined ? attribute.default : stored
          const text = state.submitted?.get(name) ?? inputText(attribute, value)
          const error = state.errors?.get(name)
          const hints = [
            shared ? (mode === 'localization' ? 'Shared by every locale: it keeps the value of the other versions.' : 'Shared by every locale: a change here changes every version.') : undefined,
            attribute.type === 'json' || attribute.type === 'blocks' ? `JSON${attribute.type === 'blocks' ? ' (an array of blocks)' : ''}` : undefined,
            attribute.type === 'datetime' ? 'UTC' : undefined,
            attribute.type === 'password' || attribute.private === true ? 'Write-only: leave empty to keep the current value.' : undefined,
            editable(attribute) ? undefined : 'Set by the API.',
          ].filter((hint) => hint !== undefined)
          const describedBy = [hints.length > 0 ? `${id}-hint` : undefined, source === undefined ? undefined : `${id}-source`, `${id}-error`].filter((part) => part !== undefined).join(' ')
          return (
            <div class={`pair${source === undefined ? '' : ' with-source'}`}>
              {source === undefined ? null : (
                <div class="field">
                  <span class="label">{`${name} in ${props.source}`}</span>
                  <div class="source" id={`${id}-source`} lang={props.source}>
                    {attribute.type === 'json' || attribute.type === 'blocks' ? <pre>{shownText(attribute, source.document[name])}</pre> : shownText(attribute, source.document[name])}
                  </div>
                </div>
              )}
              <div class="field">
                {attribute.type === 'boolean' ? (
                  <label for={id}>
                    <AttributeInput id={id} name={name} attribute={attribute} text={text} checked={state.submitted?.has(name) ? text === 'true' : value === true} describedBy={describedBy} invalid={error !== undefined} disabled={inherited} />{' '}
                    {name}{attribute.required === true ? required : ''} {shared ? <span class="badge shared">shared</span> : null}
                  </label>
                ) : (
                  <label for={id}>
                    {name}{attribute.required === true ? required : ''} {shared ? <span class="badge shared">shared</span> : null}
                  </label>
                )}
                {attribute.type === 'boolean' ? null : <AttributeInput id={id} name={name} attribute={attribute} text={text} checked={false} describedBy={describedBy} invalid={error !== undefined} disabled={inherited} />}
                {hints.length === 0 ? null : <span id={`${id}-hint`} class="hint">{hints.join(' ')}</span>}
                <span id={`${id}-error`} class="error">{error === undefined ? '' : error}</span>
                {attribute.type === 'json' || attribute.type === 'blocks' ? <span id={`${id}-live`} class="error" aria-live="polite"></span> : null}
              </div>
            </div>
          )
        })}
        <ComponentAndMediaFields page={page} type={type} mode={mode} current={current} anyVersion={anyVersion} source={source} sourceLocale={props.source} state={state} library={props.library ?? []} requiredText={required} />
        {props.relations.map((relation) => <RelationPicker page={page} view={relation} locale={locale} picked={state.picked?.get(relation.name)} error={state.errors?.get(relation.name)} />)}
        {/* Saving and publishing: the status bar's buttons, at the top (status-bar.tsx). */}
      </form>
      {mode !== 'update' ? null : (
        <>
          <h2>Other actions</h2>
          <div class="row">
            <form method="post" action={to(page, `${base}${queryOf({ locale })}`)} data-confirm={`Delete the ${locale} version?`}>
              <Csrf token={page.csrf} />
              <button type="submit" name="intent" value="delete" class="danger">{`Delete the ${locale} version`}</button>
            </form>
            {view.editable.size < 2 ? null : (
              <form method="post" action={to(page, `${base}${queryOf({ locale })}`)} data-confirm="Delete every locale version of this document?">
                <Csrf token={page.csrf} />
                <button type="submit" name="intent" value="delete-all" class="danger">{`Delete all ${view.editable.size} versions`}</button>
              </form>
            )}
          </div>
        </>
      )}
    </Page>
  )
}
