/** @jsxImportSource ./jsx */
// The input of one relation on a document page, without script: a to-one is a select of the
// target's documents in the page's locale (with "none"), a to-many lists its links in order, each
// with a remove checkbox, and the candidates to add as checkboxes. Each picker has a search field
// that belongs to the page's GET search form (the `form` attribute), not to the POST form around
// it. Inverse sides (mappedBy) are listed read-only, each link to the owning document's page.
import { routeName } from '../content-types.js'
import { to, type PageContext } from './layout.js'
import { queryOf } from './paths.js'
import { addField, KEEP, MAX_CANDIDATES, relationField, removeField, searchParam, type Linkable, type Picked, type RelationView } from './relation-links.js'
import { displayNameOf } from './types.js'

/** The id of the GET form the pickers' search fields submit. */
export const SEARCH_FORM = 'relation-search'

/** A document as its picker names it: its label (the target's main field), never its id. */
const text = (pick: Linkable) => (pick.label === '' ? '(untitled)' : pick.label)

/** A locale's name in English ("French" for fr), or its code. */
const localeName = (code: string) => {
  try {
    return new Intl.DisplayNames(['en'], { type: 'language' }).of(code) ?? code
  } catch {
    return code
  }
}

/** Links to targets without this locale's version, each with a link to create that localization. */
function MissingLinks(props: { page: PageContext; view: RelationView; locale: string }) {
  const { page, view, locale } = props
  if (view.missing.length === 0) return null
  const language = localeName(locale)
  return (
    <ul class="missing" aria-label={`Linked without a ${language} version`}>
      {view.missing.map((pick) => (
        <li>
          {`${text(pick)}: no ${language} version. `}
          <a href={to(page, `/admin/content/${routeName(view.target)}/${pick.documentId}${queryOf({ locale })}`)}>{`Create the ${language} version of ${text(pick)}`}</a>
        </li>
      ))}
    </ul>
  )
}

interface PickerProps {
  readonly page: PageContext
  readonly view: RelationView
  readonly locale: string
  readonly picked: Picked | undefined
  readonly error: string | undefined
}

/** The search field of a picker, and what its candidate list holds. */
function Search(props: { view: RelationView; id: string; locale: string }) {
  const { view, id } = props
  const what = view.target.pluralName
  const count = view.total > view.candidates.length ? `The first ${view.candidates.length} of ${view.total} ${what}` : `${view.total} ${what}`
  return (
    <div class="row">
      <div class="field">
        <label for={`${id}-find`}>{`Search ${what}`}</label>
        <input id={`${id}-find`} type="search" name={searchParam(view.name)} value={view.search} form={SEARCH_FORM} aria-describedby={`${id}-count`} />
        <span id={`${id}-count`} class="hint">
          {`${count} in ${props.locale}${view.search === '' ? '' : ` matching “${view.search}”`}, at most ${MAX_CANDIDATES} listed. Searching reloads the page: save your changes first.`}
        </span>
      </div>
      <div class="field"><button type="submit" form={SEARCH_FORM} class="secondary">{`Find ${what}`}</button></div>
    </div>
  )
}

/** The picker (or read-only list) of one relation. */
export function RelationPicker(props: PickerProps) {
  const { page, view, picked, error, locale } = props
  const id = `rel-${view.name}`
  const targetName = displayNameOf(view.target)
  const link = (pick: Linkable) => <a href={to(page, `/admin/content/${routeName(view.target)}/${pick.documentId}${queryOf({ locale })}`)}>{text(pick)}</a>
  const errorLine = <span id={`${id}-error`} class="error">{error ?? view.problem ?? ''}</span>
  if (!view.editable) {
    const owner = view.relation.mappedBy === undefined ? 'this interface cannot pick a single type' : `set on ${targetName}.${view.relation.mappedBy}`
    return (
      <div class="field">
        <span class="label" id={`${id}-label`}>{`${view.name} → ${targetName}`}</span>
        {view.linked.length === 0 ? <span class="hint">(none)</span> : <ul aria-labelledby={`${id}-label`}>{view.linked.map((pick) => <li>{link(pick)}</li>)}</ul>}
        <span class="hint">{`Read-only here: ${owner}; open a linked document to change its links.${view.more ? ` Only the first ${view.linked.length} are shown.` : ''}`}</span>
        {errorLine}
      </div>
    )
  }
  if (!view.relation.many) {
    // A link to a target without this locale's version stays unless another choice is made.
    const kept = view.missing[0]
    const chosen = picked?.one ?? view.linked[0]?.documentId ?? (kept === undefined ? '' : `${KEEP}${kept.documentId}`)
    // The current (or submitted) choice stays an option even when the search leaves it out.
    const extra = [...view.linked, ...(chosen === '' || chosen.startsWith(KEEP) ? [] : [{ documentId: chosen, label: '' }])].filter((pick, index, all) => all.findIndex((other) => other.documentId === pick.documentId) === index && !view.candidates.some((candidate) => candidate.documentId === pick.documentId))
    return (
      <div class="field relation">
        <label for={id}>{`${view.name} → ${targetName}`}</label>
        <select id={id} name={relationField(view.name)} aria-describedby={`${id}-find-count ${id}-error`} aria-invalid={error === undefined ? undefined : 'true'}>
          <option value="" selected={chosen === ''}>(none)</option>
          {kept === undefined ? null : <option value={`${KEEP}${kept.documentId}`} selected={chosen === `${KEEP}${kept.documentId}`}>{`${text(kept)} (no ${localeName(locale)} version)`}</option>}
          {[...extra, ...view.candidates].map((pick) => <option value={pick.documentId} selected={pick.documentId === chosen}>{text(pick)}</option>)}
        </select>
        <MissingLinks page={page} view={view} locale={locale} />
        <Search view={view} id={id} locale={locale} />
        {errorLine}
      </div>
    )
  }
  const removed = new Set(picked?.remove ?? [])
  const added = new Set(picked?.add ?? [])
  const linkedIds = new Set(view.linked.map((pick) => pick.documentId))
  const addable = [...[...added].filter((documentId) => !linkedIds.has(documentId) && !view.candidates.some((candidate) => candidate.documentId === documentId)).map((documentId) => ({ documentId, label: '' })), ...view.candidates.filter((candidate) => !linkedIds.has(candidate.documentId))]
  return (
    <fieldset class="relation" aria-describedby={`${id}-error`} aria-invalid={error === undefined ? undefined : 'true'}>
      <legend>{`${view.name} → ${targetName}`}</legend>
      <p class="label" id={`${id}-linked`}>{view.linked.length === 0 ? (view.missing.length === 0 ? 'Linked: none yet.' : `Linked in ${locale}: none.`) : 'Linked, in order:'}</p>
      {view.linked.length === 0 ? null : (
        <ol aria-labelledby={`${id}-linked`}>
          {view.linked.map((pick) => (
            <li>
              {link(pick)}{' '}
              <label class="inline"><input type="checkbox" name={removeField(view.name)} value={pick.documentId} checked={removed.has(pick.documentId)} />{' Remove'}<span class="visually-hidden">{` ${text(pick)}`}</span></label>
            </li>
          ))}
        </ol>
      )}
      <MissingLinks page={page} view={view} locale={locale} />
      {view.more ? <p class="hint">{`Only the first ${view.linked.length} links are shown; the others are kept.`}</p> : null}
      <p class="label" id={`${id}-add`}>Add (new links go last):</p>
      {addable.length === 0 ? <p class="hint">{`No other ${view.target.pluralName} found in ${locale}.`}</p> : (
        <ul class="candidates" aria-labelledby={`${id}-add`}>
          {addable.map((pick) => <li><label><input type="checkbox" name={addField(view.name)} value={pick.documentId} checked={added.has(pick.documentId)} />{` ${text(pick)}`}</label></li>)}
        </ul>
      )}
      <Search view={view} id={id} locale={locale} />
      {errorLine}
    </fieldset>
  )
}
