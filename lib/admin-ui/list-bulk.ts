// The list page's bulk actions (issue 37): publish, unpublish or delete the selected documents'
// versions in the list's locale, one content API call each (at most one page of rows, 100), then
// back to the list saying how many changed and how many were refused.
import type { Context } from 'hono'
import { routeName, type ContentType } from '../content-types.js'
import type { ApiClient } from './api-client.js'
import type { Form } from './form.js'
import { queryOf } from './paths.js'
import { seeOther } from './ui.js'

const ACTIONS: Record<string, { method: string; action?: string; done: string; ok: number }> = {
  'bulk-publish': { method: 'POST', action: 'publish', done: 'published', ok: 200 },
  'bulk-unpublish': { method: 'POST', action: 'unpublish', done: 'unpublished', ok: 200 },
  'bulk-delete': { method: 'DELETE', done: 'deleted', ok: 204 },
}

/** True for a list form's bulk intent. */
export const isBulkIntent = (intent: string | undefined) => intent !== undefined && intent in ACTIONS

/** Applies the form's bulk intent to its selected rows (`ids`), then redirects to the list with the counts. */
export async function bulkAction(c: Context, api: ApiClient, type: ContentType, form: Form): Promise<Response> {
  const spec = ACTIONS[form.text('intent') ?? ''] as (typeof ACTIONS)[string]
  const locale = c.req.query('locale') ?? ''
  const ids = [...new Set(form.all('ids'))].filter((id) => /^[a-z0-9]{24}$/.test(id)).slice(0, 100)
  const answers = await Promise.all(ids.map((id) => {
    const path = `/api/${routeName(type)}/${id}${spec.action === undefined ? '' : `/actions/${spec.action}`}?${new URLSearchParams({ locale })}`
    return api.call(spec.method, path)
  }))
  const done = answers.filter((answer) => answer.status === spec.ok).length
  return seeOther(c, `/admin/content/${routeName(type)}${queryOf({ locale, notice: `bulk-${spec.done}`, done, refused: ids.length - done })}`)
}

/** The notice after a bulk action, from its code and counts (never text from the address). */
export function bulkNotice(query: Readonly<Record<string, string | undefined>>): string | undefined {
  const done = Object.values(ACTIONS).find((spec) => `bulk-${spec.done}` === query.notice)?.done
  const count = (name: string) => (/^\d{1,3}$/.test(query[name] ?? '') ? Number(query[name]) : 0)
  if (done === undefined) return undefined
  return `${count('done')} ${done}${count('refused') > 0 ? `; ${count('refused')} refused (nothing to do in ${query.locale ?? 'this locale'})` : ''}.`
}
