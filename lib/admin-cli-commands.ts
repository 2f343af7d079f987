// The administration command line, as pure functions: argv and environment in, one HTTP request
// out (parseAdminCommand); a response in, what to print and the exit code out (renderAdminResponse).
// functions/admin-cli.ts only does the I/O between them. The server validates bodies; this side
// only checks the command's shape, so the two cannot disagree about what is valid.
import { parseArgs } from 'node:util'

export const DEFAULT_API_URL = 'http://127.0.0.1:1337'

export const USAGE = `Usage: npm run --silent admin -- <command> [--url URL] [--token TOKEN]

  locales list
  locales add <code> [--name NAME] [--default] [--fallback CODE]
  locales update <code> [--name NAME] [--default] [--fallback CODE|none]
  locales delete <code>
  tokens list
  tokens create <name> --type read-only|full-access|custom [--permission ACTION ...]
                [--description TEXT] [--expires-in 7|30|90] (days; without it, never expires)
  tokens delete <id>
  roles public get
  roles public set [ACTION ...]
  webhooks list
  webhooks get <id>
  webhooks create <name> --target URL --event EVENT ... [--header 'Name: value' ...] [--disabled]
                               prints the signing secret (whsec_...) this once
  webhooks update <id> [--name NAME] [--target URL] [--event EVENT ...] [--header 'Name: value' ...]
                  [--keep-header NAME ...] [--enabled|--disabled]
                               --header/--keep-header replace the headers (kept ones by name)
  webhooks delete <id>
  webhooks test <id>           send a trigger-test message once and print how it went
  webhooks deliveries <id>     the last 100 attempts, newest first
  webhooks redeliver <id> <seq>
  sessions revoke              sign every admin web interface session out (sign out everywhere)
  reindex [--cursor CURSOR]    rewrite every document's index keys and served copies, step by
                               step until done (resume an interrupted run with its last cursor)

The API URL comes from --url or CONTENT_API_URL (default ${DEFAULT_API_URL}), the admin token
from --token or ADMIN_TOKEN (prefer the variable: arguments show in the process list).
Prints the JSON result on stdout; on failure prints the error message on stderr and exits 1.`

/** One administration API call. */
export interface AdminRequest {
  readonly method: 'GET' | 'POST' | 'PUT' | 'DELETE'
  /** Full URL: the API base URL (any path prefix kept, e.g. an API Gateway stage) plus the route. */
  readonly url: string
  readonly token: string
  readonly body?: Record<string, unknown>
}

export type AdminCommand = { readonly kind: 'help' } | { readonly kind: 'request'; readonly request: AdminRequest }

/** A command line that is not a valid command: printed with the usage, exit code 2. */
export class UsageError extends Error {}

const OPTIONS = {
  url: { type: 'string' },
  token: { type: 'string' },
  name: { type: 'string' },
  default: { type: 'boolean' },
  type: { type: 'string' },
  permission: { type: 'string', multiple: true },
  fallback: { type: 'string' },
  cursor: { type: 'string' },
  description: { type: 'string' },
  'expires-in': { type: 'string' },
  target: { type: 'string' },
  event: { type: 'string', multiple: true },
  header: { type: 'string', multiple: true },
  'keep-header': { type: 'string', multiple: true },
  enabled: { type: 'boolean' },
  disabled: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const

/** Options each command takes besides --url, --token and --help. */
const COMMAND_OPTIONS: Record<string, readonly string[]> = {
  'locales list': [],
  'locales add': ['name', 'default', 'fallback'],
  'locales update': ['name', 'default', 'fallback'],
  'locales delete': [],
  'tokens list': [],
  'tokens create': ['type', 'permission', 'description', 'expires-in'],
  'tokens delete': [],
  'roles public': [],
  'sessions revoke': [],
  'reindex ': ['cursor'],
  'webhooks list': [],
  'webhooks get': [],
  'webhooks create': ['target', 'event', 'header', 'disabled'],
  'webhooks update': ['name', 'target', 'event', 'header', 'keep-header', 'enabled', 'disabled'],
  'webhooks delete': [],
  'webhooks test': [],
  'webhooks deliveries': [],
  'webhooks redeliver': [],
}

/** Turns the arguments after the script name, and the environment, into a request (or help). */
export function parseAdminCommand(argv: readonly string[], env: Readonly<Record<string, string | undefined>>): AdminCommand {
  const { values, positionals } = parseArgv(argv)
  if (values.help === true || positionals[0] === 'help') return { kind: 'help' }
  // No command is a mistake (a script that lost its arguments), not a request for help: exit 2.
  if (positionals.length === 0) throw new UsageError('No command given')
  const [group = '', verb = '', ...rest] = positionals
  const command = `${group} ${verb}`
  const allowed = COMMAND_OPTIONS[command]
  if (allowed === undefined) throw new UsageError(`Unknown command: ${positionals.slice(0, 2).join(' ')}`)
  for (const option of ['name', 'default', 'type', 'permission', 'fallback', 'cursor', 'target', 'event', 'header', 'keep-header', 'enabled', 'disabled'] as const) {
    if (values[option] !== undefined && !allowed.includes(option)) throw new UsageError(`--${option} does not apply to ${command}`)
  }
  const base = values.url !== undefined ? baseUrl(values.url, '--url') : baseUrl(nonEmpty(env.CONTENT_API_URL) ?? DEFAULT_API_URL, 'CONTENT_API_URL')
  const token = values.token ?? nonEmpty(env.ADMIN_TOKEN)
  if (token === undefined || token === '') throw new UsageError('No admin token: set ADMIN_TOKEN to the one npm start prints (kept in .tmp/secrets.json), or pass --token')
  const call = (method: AdminRequest['method'], path: string, body?: Record<string, unknown>): AdminCommand =>
    ({ kind: 'request', request: { method, url: `${base}${path}`, token, ...(body === undefined ? {} : { body }) } })
  const locale = (code: string) => `/admin/i18n/locales/${encodeURIComponent(code)}`
  const localeFields = () => ({
    ...(values.name === undefined ? {} : { name: values.name }),
    ...(values.default === true ? { isDefault: true } : {}),
    ...(values.fallback === undefined ? {} : { fallback: values.fallback === 'none' ? null : values.fallback }),
  })

  switch (command) {
    case 'locales list':
      expectArguments(rest, [])
      return call('GET', '/admin/i18n/locales')
    case 'locales add':
      expectArguments(rest, ['code'])
      return call('POST', '/admin/i18n/locales', { code: rest[0], ...localeFields() })
    case 'locales update':
      expectArguments(rest, ['code'])
      return call('PUT', locale(rest[0] as string), localeFields())
    case 'locales delete':
      expectArguments(rest, ['code'])
      return call('DELETE', locale(rest[0] as string))
    case 'reindex ':
      return call('POST', '/admin/reindex', values.cursor === undefined ? {} : { cursor: values.cursor })
    case 'tokens list':
      expectArguments(rest, [])
      return call('GET', '/admin/api-tokens')
    case 'tokens create':
      expectArguments(rest, ['name'])
      if (values.type === undefined) throw new UsageError('tokens create needs --type read-only|full-access|custom')
      return call('POST', '/admin/api-tokens', {
        name: rest[0], type: values.type,
        ...(values.description === undefined ? {} : { description: values.description }),
        ...(values['expires-in'] === undefined ? {} : { lifespan: lifespanOf(values['expires-in']) }),
        ...(values.permission === undefined ? {} : { permissions: values.permission }),
      })
    case 'sessions revoke':
      expectArguments(rest, [])
      return call('DELETE', '/admin/sessions')
    case 'tokens delete':
      expectArguments(rest, ['id'])
      return call('DELETE', `/admin/api-tokens/${encodeURIComponent(rest[0] as string)}`)
    case 'webhooks list':
    case 'webhooks get':
    case 'webhooks create':
    case 'webhooks update':
    case 'webhooks delete':
    case 'webhooks test':
    case 'webhooks deliveries':
    case 'webhooks redeliver':
      return webhookCommand(verb, rest, values, call)
    default: {
      // `roles public get|set`: the role name sits where other commands have their verb.
      const [operation, ...actions] = rest
      if (operation === 'get' && actions.length === 0) return call('GET', '/admin/roles/public')
      if (operation === 'set') return call('PUT', '/admin/roles/public', { permissions: actions })
      throw new UsageError('Expected roles public get | roles public set [ACTION ...]')
    }
  }
}

type Values = ReturnType<typeof parseArgv>['values']
type Call = (method: AdminRequest['method'], path: string, body?: Record<string, unknown>) => AdminCommand

/** `webhooks <verb> ...`: one call of `/admin/webhooks`. */
function webhookCommand(verb: string, rest: readonly string[], values: Values, call: Call): AdminCommand {
  const hook = (id: string, tail = '') => `/admin/webhooks/${encodeURIComponent(id)}${tail}`
  if (values.enabled === true && values.disabled === true) throw new UsageError('--enabled and --disabled exclude each other')
  const headers = (): Record<string, string | null> | undefined => {
    if (values.header === undefined && values['keep-header'] === undefined) return undefined
    const given = (values.header ?? []).map((text) => {
      const colon = text.indexOf(':')
      if (colon < 1) throw new UsageError(`--header '${text}' is not 'Name: value'`)
      return [text.slice(0, colon).trim(), text.slice(colon + 1).trim()] as const
    })
    return Object.fromEntries([...(values['keep-header'] ?? []).map((name) => [name, null] as const), ...given])
  }
  const fields = () => {
    const h = headers()
    return {
      ...(values.name === undefined ? {} : { name: values.name }),
      ...(values.target === undefined ? {} : { url: values.target }),
      ...(values.event === undefined ? {} : { events: values.event }),
      ...(h === undefined ? {} : { headers: h }),
      ...(values.enabled === true ? { isEnabled: true } : values.disabled === true ? { isEnabled: false } : {}),
    }
  }
  switch (verb) {
    case 'list':
      expectArguments(rest, [])
      return call('GET', '/admin/webhooks')
    case 'create':
      expectArguments(rest, ['name'])
      if (values.target === undefined || values.event === undefined) throw new UsageError('webhooks create needs --target URL and at least one --event')
      return call('POST', '/admin/webhooks', { ...fields(), name: rest[0] })
    case 'update':
      expectArguments(rest, ['id'])
      return call('PUT', hook(rest[0] as string), fields())
    case 'redeliver':
      expectArguments(rest, ['id', 'seq'])
      return call('POST', hook(rest[0] as string, `/deliveries/${encodeURIComponent(rest[1] as string)}/redeliver`))
    default:
      expectArguments(rest, ['id'])
      if (verb === 'get') return call('GET', hook(rest[0] as string))
      if (verb === 'delete') return call('DELETE', hook(rest[0] as string))
      if (verb === 'test') return call('POST', hook(rest[0] as string, '/test'))
      return call('GET', hook(rest[0] as string, '/deliveries'))
  }
}

function parseArgv(argv: readonly string[]) {
  try {
    return parseArgs({ args: [...argv], options: OPTIONS, allowPositionals: true, strict: true })
  } catch (error) {
    throw new UsageError((error as Error).message)
  }
}

/** Usage error unless exactly the named positional arguments follow the command. */
function expectArguments(rest: readonly string[], names: readonly string[]): void {
  if (rest.length === names.length) return
  throw new UsageError(names.length === 0 ? `Unexpected argument: ${rest.join(' ')}` : `Expected ${names.map((n) => `<${n}>`).join(' ')}`)
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value === '' ? undefined : value
}

/** The API base URL from `source` (--url or CONTENT_API_URL): an error names the source, the value and the fix. */
function baseUrl(raw: string, source: string): string {
  const invalid = () => new UsageError(`Invalid API URL: ${source}='${raw}' is not an http(s) URL; give the API's base URL, e.g. ${DEFAULT_API_URL}`)
  let url: URL
  try {
    url = new URL(raw)
  } catch {
    throw invalid()
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw invalid()
  if (url.search !== '' || url.hash !== '') throw new UsageError(`The API URL must not have a query or fragment: ${source}='${raw}'; give the API's base URL only`)
  return `${url.origin}${url.pathname.replace(/\/+$/, '')}`
}

/** What the CLI prints for a response, and its exit code. */
export interface AdminOutcome {
  readonly exitCode: 0 | 1
  readonly stdout: string
  readonly stderr: string
}

/**
 * Success: the response's `data` as JSON (nothing for a 204). Failure: the envelope's message,
 * status and name, plus its details when there are any. Never echoes the admin token.
 */
export function renderAdminResponse(status: number, text: string): AdminOutcome {
  let body: unknown
  try {
    body = text === '' ? undefined : JSON.parse(text)
  } catch {
    body = undefined
  }
  if (status >= 200 && status < 300) {
    if (status === 204 || body === undefined) return { exitCode: 0, stdout: '', stderr: '' }
    const data = (body as { data?: unknown }).data
    return { exitCode: 0, stdout: `${JSON.stringify(data, null, 2)}\n`, stderr: '' }
  }
  const error = (body as { error?: { name?: unknown; message?: unknown; details?: unknown } } | undefined)?.error
  if (error === undefined || typeof error.message !== 'string') {
    return { exitCode: 1, stdout: '', stderr: `Error: unexpected response, HTTP ${status}\n` }
  }
  const details = error.details !== null && typeof error.details === 'object' && Object.keys(error.details).length > 0
    ? `\n${JSON.stringify(error.details, null, 2)}` : ''
  return { exitCode: 1, stdout: '', stderr: `Error: ${error.message} (${status} ${String(error.name)})${details}\n` }
}

/** Sends a request with `fetch` and renders the answer; an unreachable server is exit code 1. */
export async function sendAdminRequest(request: AdminRequest, fetchImpl: typeof fetch = fetch): Promise<AdminOutcome> {
  let response: Response
  try {
    response = await fetchImpl(request.url, {
      method: request.method,
      headers: { Authorization: `Bearer ${request.token}`, ...(request.body === undefined ? {} : { 'Content-Type': 'application/json' }) },
      body: request.body === undefined ? undefined : JSON.stringify(request.body),
    })
  } catch (error) {
    const cause = (error as { cause?: { code?: string; message?: string } }).cause
    const origin = new URL(request.url).origin
    return { exitCode: 1, stdout: '', stderr: `Error: cannot reach ${origin}: ${cause?.code ?? cause?.message ?? (error as Error).message}; start the API (npm start), or set CONTENT_API_URL (or --url) to where it runs\n` }
  }
  const outcome = renderAdminResponse(response.status, await response.text())
  // A 401 from an admin route means the token, not the command: say which setting to fix.
  if (response.status === 401) return { ...outcome, stderr: outcome.stderr.replace(/\n$/, '; ADMIN_TOKEN (or --token) is not this server\'s admin token: use the one npm start prints (kept in .tmp/secrets.json)\n') }
  return outcome
}

/** --expires-in in days (7, 30 or 90, as Strapi offers) as the API's lifespan in ms. */
function lifespanOf(days: string): number {
  if (!['7', '30', '90'].includes(days)) throw new UsageError(`--expires-in takes 7, 30 or 90 (days), not ${days}`)
  return Number(days) * 86_400_000
}
