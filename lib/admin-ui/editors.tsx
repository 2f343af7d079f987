/** @jsxImportSource ./jsx */
// Editors' pages, generated from the content types: per collection type a list (content-list.tsx),
// per document a page with one form per locale (document-page.tsx), and the form posts behind
// them. Every read and write is a call of the content API (api-client.ts); its 400s are shown next
// to the field they name. A page set (EDITOR_PAGES): only the processes that serve these pages
// bundle them and the content apps (not the admin function, whose stack routes them elsewhere).
import type { Context, Hono } from 'hono'
import { createContentApp } from '../content-app.js'
import { routeName, type ContentType } from '../content-types.js'
import type { Services } from '../services.js'
import { fieldErrorsOf, messageOf, type ApiAnswer } from './api-client.js'
import { listPage } from './content-list.js'
import { bulkAction, isBulkIntent } from './list-bulk.js'
import { DocumentPage, NOTICES, type FormState } from './document-page.js'
import { documentPath, localesOf, readDocument } from './documents.js'
import { fieldName, readData, type FormMode } from './fields.js'
import type { Form } from './form.js'
import { Page, to, type PageContext } from './layout.js'
import { queryOf } from './paths.js'
import { linkData, pickedOf, readRelations } from './relation-links.js'
import { componentData, componentsFromForm } from './components-form/document-fields.js'
import { applyEdit, isComponentEdit } from './components-form/edits.js'
import { errorKey } from './components-form/state.js'
import { readLibrary } from './media-files.js'
import { chosenMedia, mediaData, usesMedia } from './media-picker.js'
import { attributesOf, hasDraftAndPublish, typeAt, typesOf } from './types.js'
import { seeOther, type PageSet, type Ui } from './ui.js'

/** Files each media picker offers from the library (the newest). */
const PICKER_FILES = 24

export function registerEditorPages(ui: Ui): void {
  const { api } = ui
  const types = typesOf(ui.services)
  const notFoundPage = (c: Context, page: PageContext) => c.html(<Page page={page} title="Not found"><p>There is nothing here.</p><p><a href={to(page, '/admin')}>Back to the admin</a></p></Page>, 404)

  const showDocument = async (c: Context, page: PageContext, type: ContentType, documentId: string | undefined, state: FormState = {}, status = 200) => {
    const locales = await localesOf(api)
    const q = c.req.query()
    const locale = locales.some((entry) => entry.code === q.locale) ? (q.locale as string) : (locales[0]?.code ?? 'en')
    const creating = documentId === undefined && type.kind === 'collection'
    // The relations' read runs beside the versions' (a locale without a version links nothing: its 404).
    const [view, relations, library] = await Promise.all([
      creating ? { editable: new Map(), published: new Map(), modified: new Set<string>() } : readDocument(api, type, documentId, locales),
      readRelations(api, types, type, creating ? undefined : documentPath(type, documentId), documentId, locale, q, ui.services),
      usesMedia(type) ? readLibrary(api, 0, PICKER_FILES).then((page) => page.files) : [],
    ])
    if (documentId !== undefined && view.editable.size === 0) return notFoundPage(c, page)
    const source = q.source === undefined || q.source === '' ? undefined : q.source
    return c.html(<DocumentPage page={page} type={type} documentId={documentId} locales={locales} view={view} locale={locale} source={source} notice={NOTICES[q.notice ?? '']} state={state} relations={relations} library={library} />, status as 200)
  }

  /** What a form held, shown again: typed texts, relation picks, component entries, media choices. */
  const submittedOf = (type: ContentType, form: Form): FormState => {
    const submitted = new Map<string, string>()
    for (const [name, attribute] of attributesOf(type)) {
      const text = form.text(fieldName(name))
      if (attribute.type === 'boolean') submitted.set(name, text === 'true' ? 'true' : 'false')
      else if (text !== undefined && attribute.type !== 'password') submitted.set(name, text)
    }
    return { submitted, picked: pickedOf(types, type, form), components: componentsFromForm(type, form), media: chosenMedia(type, form) }
  }

  /** A refused write: the page again, with what was typed and each problem next to its field. */
  const refusedWrite = (c: Context, page: PageContext, type: ContentType, documentId: string | undefined, form: Form, answer: ApiAnswer | undefined, local?: Map<string, string>) => {
    const errors = new Map(local)
    // A component's errors are shown at the full path they name (`blocks.2.title`).
    const keyOf = (path: readonly string[]) => (type.components[path[0] ?? ''] === undefined ? path[0] : errorKey(path))
    if (answer !== undefined) for (const error of fieldErrorsOf(answer)) if (error.path[0] !== undefined && !errors.has(keyOf(error.path) as string)) errors.set(keyOf(error.path) as string, error.message)
    const problem = answer === undefined ? 'Some fields need a fix before saving.' : answer.status === 412 ? 'This version was changed by someone else since you opened it: reload the page to see the change, then apply yours again.' : messageOf(answer)
    const status = answer?.status ?? 400
    return showDocument(c, page, type, documentId, { ...submittedOf(type, form), errors, problem }, status)
  }

  /** An edit of a component list (add, remove, move): the page again with it applied, nothing saved. */
  const editComponents = (c: Context, page: PageContext, type: ContentType, documentId: string | undefined, form: Form, intent: string) => {
    const state = submittedOf(type, form)
    const components = new Map(state.components)
    const focus = applyEdit(type, components, intent, form)
    return showDocument(c, page, type, documentId, { ...state, components, focus, notice: 'Changed on this page only: save to keep it.' })
  }

  /** The `data` of a save: the plain fields, components, media (uploaded first) and relations. */
  const writeData = async (type: ContentType, form: Form, mode: FormMode) => {
    const plain = readData(type, form, mode)
    const components = componentData(type, form, mode)
    const problems = new Map([...plain.problems, ...components.problems])
    if (problems.size > 0) return { data: {}, problems }
    const media = await mediaData(api, type, form, mode === 'create')
    return { data: { ...plain.data, ...components.data, ...media.data, ...linkData(types, type, form, mode !== 'update') }, problems: media.problems }
  }

  /** One form post on a document: save (create, update, localize), delete, or a publication action. */
  const act = async (c: Context, page: PageContext, type: ContentType, documentId: string | undefined, form: Form) => {
    const locale = c.req.query('locale') ?? ''
    const source = c.req.query('source')
    const intent = form.text('intent') ?? 'save'
    if (isComponentEdit(intent)) return editComponents(c, page, type, documentId, form, intent)
    const path = documentPath(type, documentId)
    const back = (notice: string, id = documentId) => seeOther(c, `${type.kind === 'single' || id === undefined ? `/admin/content/${routeName(type)}` : `/admin/content/${routeName(type)}/${id}`}${queryOf({ locale, source, notice })}`)
    if (intent === 'delete' || intent === 'delete-all') {
      const answer = await api.call('DELETE', `${path}?${new URLSearchParams({ locale: intent === 'delete-all' ? '*' : locale })}`)
      if (answer.status !== 204) return refusedWrite(c, page, type, documentId, form, answer)
      const left = type.kind === 'collection' && documentId !== undefined ? (await readDocument(api, type, documentId, await localesOf(api))).editable.size : 1
      return left === 0 ? seeOther(c, `/admin/content/${routeName(type)}${queryOf({ notice: 'deleted' })}`) : back('deleted')
    }
    // The draft's ETag, as the page read it: an action refuses (412) a draft changed since.
    const etag = form.text('_etag')
    const ifMatch: Record<string, string> = etag === undefined ? {} : { 'If-Match': etag }
    const publication = (action: string, tag: Record<string, string>, on = locale) => api.call('POST', `${path}/actions/${action}?${new URLSearchParams({ locale: on })}`, undefined, tag)
    if (intent === 'publish' || intent === 'unpublish' || intent === 'discard-draft') {
      const answer = await publication(intent, ifMatch)
      if (answer.status !== 200) return refusedWrite(c, page, type, documentId, form, answer)
      return back(intent === 'publish' ? 'published' : intent === 'unpublish' ? 'unpublished' : 'discarded')
    }
    // The status bar's actions on every locale (`locale=*`; no one draft's ETag applies).
    if (intent === 'unpublish-all' || intent === 'discard-all') {
      const answer = await publication(intent === 'unpublish-all' ? 'unpublish' : 'discard-draft', {}, '*')
      if (answer.status !== 200) return refusedWrite(c, page, type, documentId, form, answer)
      return back(intent === 'unpublish-all' ? 'unpublished-all' : 'discarded-all')
    }
    const drafts = hasDraftAndPublish(type)
    const publish = drafts && (intent === 'save-publish' || intent === 'publish-all')
    if (documentId === undefined && type.kind === 'collection') {
      const target = form.text('_locale') ?? locale
      const { data, problems } = await writeData(type, form, 'create')
      if (problems.size > 0) return refusedWrite(c, page, type, documentId, form, undefined, problems)
      // Without `status`, the API writes the draft and publishes it in one transaction.
      const answer = await api.call('POST', `${path}?${new URLSearchParams({ locale: target, ...(drafts && !publish ? { status: 'draft' } : {}) })}`, { data })
      if (answer.status !== 200 && answer.status !== 201) return refusedWrite(c, page, type, documentId, form, answer)
      return seeOther(c, `/admin/content/${routeName(type)}/${answer.body.data.documentId}${queryOf({ locale: target, notice: 'created' })}`)
    }
    const existing = (await readDocument(api, type, documentId, await localesOf(api))).editable
    const mode: FormMode = existing.has(locale) ? 'update' : existing.size === 0 ? 'create' : 'localization'
    const { data, problems } = await writeData(type, form, mode)
    if (problems.size > 0) return refusedWrite(c, page, type, documentId, form, undefined, problems)
    // The form edits the draft, so its ETag guards the write (a PUT's If-Match names the version of
    // its status): save and publish is the draft written, then that very draft published.
    const answer = await api.call('PUT', `${path}?${new URLSearchParams({ locale, ...(drafts ? { status: 'draft' } : {}) })}`, { data }, ifMatch)
    if (answer.status !== 200) return refusedWrite(c, page, type, documentId, form, answer)
    if (publish) {
      // Publish all: this locale's draft saved first, as a publish of this locale saves it.
      const all = intent === 'publish-all'
      const published = await publication('publish', answer.etag === undefined || all ? {} : { 'If-Match': answer.etag }, all ? '*' : locale)
      if (published.status !== 200) return refusedWrite(c, page, type, documentId, form, published)
      return back(all ? 'published-all' : 'published')
    }
    return back(mode === 'update' ? 'saved' : 'created')
  }

  const typeFor = async (c: Context) => typeAt(ui.services, c.req.param('route') ?? '')

  ui.page('/admin/content/:route', async (c, page) => {
    const type = await typeFor(c)
    if (type === undefined) return notFoundPage(c, page)
    return type.kind === 'collection' ? listPage(ui, c, page, type) : showDocument(c, page, type, undefined)
  })
  // `new` (the form of a new document) and a documentId share one route: a static segment beside a
  // parameter would make Hono fall back from its RegExpRouter for the whole server app.
  ui.page('/admin/content/:route/:documentId', async (c, page) => {
    const type = await typeFor(c)
    const documentId = c.req.param('documentId') ?? ''
    if (type?.kind !== 'collection') return notFoundPage(c, page)
    if (documentId === 'new') return showDocument(c, page, type, undefined)
    return /^[a-z0-9]{24}$/.test(documentId) ? showDocument(c, page, type, documentId) : notFoundPage(c, page)
  })
  ui.action('/admin/content/:route', async (c, page, form) => {
    const type = await typeFor(c)
    if (type?.kind === 'collection' && isBulkIntent(form.text('intent'))) return bulkAction(c, api, type, form)
    return type === undefined ? notFoundPage(c, page) : act(c, page, type, undefined, form)
  })
  ui.action('/admin/content/:route/:documentId', async (c, page, form) => {
    const type = await typeFor(c)
    const documentId = c.req.param('documentId') ?? ''
    return type?.kind === 'collection' && /^[a-z0-9]{24}$/.test(documentId) ? act(c, page, type, documentId, form) : notFoundPage(c, page)
  })
}

/** The content apps the pages call in process; get-one answers as arrays whatever the deployment's findOneShape: `locale=*` needs it. */
export function contentApps(services: Services): Hono[] {
  const arrays: Services = { ...services, config: { ...services.config, rest: { ...services.config.rest, findOneShape: 'array' } } }
  return typesOf(services).map((type) => createContentApp(type, arrays, true))
}

/** The documents' pages and the content apps they call. */
export const EDITOR_PAGES: PageSet = { apps: contentApps, pages: registerEditorPages }
