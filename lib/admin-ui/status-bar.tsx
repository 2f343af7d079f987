/** @jsxImportSource ./jsx */
// The status bar at the top of a document page (issue 37), sticky while the form scrolls: this
// locale's status and its actions (save, publish, unpublish, discard), then the same actions for
// every locale of the document, each saying how many versions it would change. Its buttons belong
// to the page's form (their `form` attribute), so a publish also saves what was typed.
import type { Child } from 'hono/jsx'
import type { ContentType } from '../content-types.js'
import { statusOf, type DocumentView } from './documents.js'
import type { FormMode } from './fields.js'
import { hasDraftAndPublish } from './types.js'

/** The id of the document form the bar's buttons submit. */
export const DOCUMENT_FORM = 'document-form'

/** What the actions on every locale would change: versions to publish, to unpublish, drafts to discard. */
export function allLocaleCounts(view: DocumentView): { publish: number; unpublish: number; discard: number } {
  const states = [...view.editable.keys()].map((locale) => statusOf(view, locale))
  return {
    publish: states.filter((state) => state === 'draft' || state === 'modified').length,
    unpublish: view.published.size,
    discard: view.modified.size,
  }
}

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`

interface StatusBarProps {
  readonly type: ContentType
  readonly view: DocumentView
  readonly locale: string
  readonly mode: FormMode
  /** This locale's version badge (document-page.tsx's VersionBadge). */
  readonly badge: Child
  /** The paths publishing this locale's draft still needs (required values missing), shown under its Publish. */
  readonly blockers?: readonly string[]
}

/** The bar: this locale's state and actions, then every locale's. */
export function StatusBar(props: StatusBarProps) {
  const { type, view, locale, mode } = props
  const drafts = hasDraftAndPublish(type)
  const status = statusOf(view, locale)
  const blockers = props.blockers ?? []
  const button = (intent: string, label: string, kind = 'secondary', disabled = false, describedBy?: string) => (
    <button type="submit" form={DOCUMENT_FORM} name="intent" value={intent} class={kind} disabled={disabled} aria-describedby={describedBy}>{label}</button>
  )
  const save = mode === 'update'
    ? button('save', drafts ? 'Save draft' : `Save ${locale}`, '')
    : button('save', mode === 'localization' ? (drafts ? `Create ${locale} draft` : `Create ${locale} localization`) : drafts ? 'Create draft' : 'Create', '')
  const counts = allLocaleCounts(view)
  return (
    <section class="status-bar" aria-label="Status and actions">
      <div class="row">
        <p class="state">{`${locale}: `}{props.badge}</p>
        {save}
        {!drafts ? null : mode !== 'update' ? button('save-publish', 'Save and publish') : (
          <>
            {button('save-publish', `Publish ${locale}`, 'secondary', false, blockers.length === 0 ? undefined : 'publish-blockers')}
            {view.published.has(locale) ? button('unpublish', `Unpublish ${locale}`) : null}
            {status === 'modified' ? button('discard-draft', 'Discard draft', 'danger') : null}
          </>
        )}
      </div>
      {!drafts || blockers.length === 0 ? null : <p id="publish-blockers" class="hint">{`Publishing needs a value for: ${blockers.join(', ')}.`}</p>}
      {!drafts || mode !== 'update' || view.editable.size < 2 ? null : (
        <div class="row" role="group" aria-label="Every locale of this document">
          <p class="state">{`All ${view.editable.size} locales:`}</p>
          {button('publish-all', `Publish ${plural(counts.publish, 'locale', 'locales')}`, 'secondary', counts.publish === 0)}
          {button('unpublish-all', `Unpublish ${plural(counts.unpublish, 'locale', 'locales')}`, 'secondary', counts.unpublish === 0)}
          {button('discard-all', `Discard ${plural(counts.discard, 'draft', 'drafts')}`, 'danger', counts.discard === 0)}
        </div>
      )}
    </section>
  )
}
