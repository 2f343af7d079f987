/** @jsxImportSource ./jsx */
// What the operators' pages share: success notices after a redirect, and an API error tied to its field.
import type { Context } from 'hono'
import { fieldErrorsOf, type ApiAnswer } from './api-client.js'

const NOTICES: Record<string, (subject: string) => string> = {
  'locale-added': (code) => `Locale ${code} added.`,
  'locale-saved': (code) => `Locale ${code} saved. If its fallback changed, rebuild the served lists below.`,
  'locale-default': (code) => `${code} is now the default locale.`,
  'locale-deleted': (code) => `Locale ${code} deleted.`,
  'token-revoked': (name) => `Token ${name} revoked: it is refused from now on.`,
  'role-saved': () => 'Public role saved.',
  'webhook-saved': (name) => `Webhook ${name} saved.`,
  'webhook-deleted': () => 'Webhook deleted, with its delivery log.',
}

export function noticeOf(c: Context): string | undefined {
  const code = c.req.query('notice')
  const render = code === undefined ? undefined : NOTICES[code]
  return render?.((c.req.query('subject') ?? '').slice(0, 100))
}


/** A required one-line text field with its label and the API's error for it, tied by aria-describedby. */
export function TextField(props: { id: string; name: string; label: string; value: string; error: string | undefined; maxlength?: number; placeholder?: string }) {
  const errorId = `${props.id}-error`
  return (
    <div class="field">
      <label for={props.id}>{props.label}</label>
      <input id={props.id} name={props.name} type="text" required maxlength={props.maxlength} value={props.value} placeholder={props.placeholder} aria-invalid={props.error === undefined ? undefined : 'true'} aria-describedby={errorId} />
      <FieldMessage id={errorId} text={props.error} />
    </div>
  )
}

/** An error message tied to a field by id, for aria-describedby. */
export function FieldMessage(props: { id: string; text: string | undefined }) {
  return props.text === undefined ? null : <span id={props.id} class="error">{props.text}</span>
}

/** The first field error of an answer for `field`. */
export const errorFor = (answer: ApiAnswer | undefined, field: string) =>
  answer === undefined ? undefined : fieldErrorsOf(answer).find((error) => error.path[0] === field)?.message

