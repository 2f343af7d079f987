import { describe, expect, it } from 'vitest'
import { parseAdminCommand, renderAdminResponse, UsageError, type AdminRequest } from '../../lib/admin-cli-commands.js'

const env = { ADMIN_TOKEN: 'admin-secret' }

function requestOf(argv: string[], environment: Record<string, string | undefined> = env): AdminRequest {
  const command = parseAdminCommand(argv, environment)
  if (command.kind !== 'request') throw new Error(`expected a request, got ${command.kind}`)
  return command.request
}

describe('admin CLI: commands to requests', () => {
  it.each([
    [['locales', 'list'], 'GET', '/admin/i18n/locales', undefined],
    [['locales', 'add', 'fr'], 'POST', '/admin/i18n/locales', { code: 'fr' }],
    [['locales', 'add', 'fr', '--name', 'Français', '--default'], 'POST', '/admin/i18n/locales', { code: 'fr', name: 'Français', isDefault: true }],
    [['locales', 'update', 'fr', '--default'], 'PUT', '/admin/i18n/locales/fr', { isDefault: true }],
    [['locales', 'update', 'fr', '--name', 'French'], 'PUT', '/admin/i18n/locales/fr', { name: 'French' }],
    [['locales', 'delete', 'zh-Hans-CN'], 'DELETE', '/admin/i18n/locales/zh-Hans-CN', undefined],
    [['locales', 'add', 'fr-CA', '--fallback', 'fr'], 'POST', '/admin/i18n/locales', { code: 'fr-CA', fallback: 'fr' }],
    [['locales', 'update', 'fr-CA', '--fallback', 'none'], 'PUT', '/admin/i18n/locales/fr-CA', { fallback: null }],
    [['reindex'], 'POST', '/admin/reindex', {}],
    [['reindex', '--cursor', 'abc'], 'POST', '/admin/reindex', { cursor: 'abc' }],
    [['tokens', 'list'], 'GET', '/admin/api-tokens', undefined],
    [['webhooks', 'list'], 'GET', '/admin/webhooks', undefined],
    [['webhooks', 'get', '3'], 'GET', '/admin/webhooks/3', undefined],
    [
      ['webhooks', 'create', 'Build', '--target', 'https://ci.example.com/hook', '--event', 'entry.publish', '--event', 'entry.unpublish', '--header', 'Authorization: Bearer x:y'],
      'POST', '/admin/webhooks',
      { name: 'Build', url: 'https://ci.example.com/hook', events: ['entry.publish', 'entry.unpublish'], headers: { Authorization: 'Bearer x:y' } },
    ],
    [['webhooks', 'create', 'Off', '--target', 'https://a.example', '--event', 'entry.create', '--disabled'], 'POST', '/admin/webhooks', { name: 'Off', url: 'https://a.example', events: ['entry.create'], isEnabled: false }],
    [['webhooks', 'update', '3', '--keep-header', 'Authorization', '--header', 'X-Env: prod', '--enabled'], 'PUT', '/admin/webhooks/3', { headers: { Authorization: null, 'X-Env': 'prod' }, isEnabled: true }],
    [['webhooks', 'update', '3', '--name', 'Rebuild', '--target', 'https://b.example'], 'PUT', '/admin/webhooks/3', { name: 'Rebuild', url: 'https://b.example' }],
    [['webhooks', 'delete', '3'], 'DELETE', '/admin/webhooks/3', undefined],
    [['webhooks', 'test', '3'], 'POST', '/admin/webhooks/3/test', undefined],
    [['webhooks', 'deliveries', '3'], 'GET', '/admin/webhooks/3/deliveries', undefined],
    [['webhooks', 'redeliver', '3', '42'], 'POST', '/admin/webhooks/3/deliveries/42/redeliver', undefined],
    [['tokens', 'create', 'ci', '--type', 'read-only'], 'POST', '/admin/api-tokens', { name: 'ci', type: 'read-only' }],
    [
      ['tokens', 'create', 'editor', '--type', 'custom', '--permission', 'api::article.article.find', '--permission', 'api::article.article.update'],
      'POST', '/admin/api-tokens',
      { name: 'editor', type: 'custom', permissions: ['api::article.article.find', 'api::article.article.update'] },
    ],
    [['tokens', 'create', 'ci', '--type', 'read-only', '--description', 'For CI', '--expires-in', '30'], 'POST', '/admin/api-tokens', { name: 'ci', type: 'read-only', description: 'For CI', lifespan: 2_592_000_000 }],
    [['tokens', 'delete', '7'], 'DELETE', '/admin/api-tokens/7', undefined],
    [['roles', 'public', 'get'], 'GET', '/admin/roles/public', undefined],
    [['roles', 'public', 'set', 'api::article.article.find', 'plugin::i18n.locales.listLocales'], 'PUT', '/admin/roles/public',
      { permissions: ['api::article.article.find', 'plugin::i18n.locales.listLocales'] }],
    [['roles', 'public', 'set'], 'PUT', '/admin/roles/public', { permissions: [] }],
    [['sessions', 'revoke'], 'DELETE', '/admin/sessions', undefined],
  ])('%j is %s %s', (argv, method, path, body) => {
    const request = requestOf(argv)
    expect(request.method).toBe(method)
    expect(request.url).toBe(`http://127.0.0.1:1337${path}`)
    expect(request.body).toEqual(body)
    expect(request.token).toBe('admin-secret')
  })

  it('percent-encodes a path segment so it cannot change the route', () => {
    expect(requestOf(['locales', 'delete', '../api-tokens/1']).url).toBe('http://127.0.0.1:1337/admin/i18n/locales/..%2Fapi-tokens%2F1')
  })

  it('takes the URL from --url before CONTENT_API_URL, keeping a path prefix and dropping a trailing slash', () => {
    expect(requestOf(['locales', 'list'], { ...env, CONTENT_API_URL: 'https://api.example.com/prod/' }).url)
      .toBe('https://api.example.com/prod/admin/i18n/locales')
    expect(requestOf(['locales', 'list', '--url', 'http://localhost:9000'], { ...env, CONTENT_API_URL: 'https://api.example.com' }).url)
      .toBe('http://localhost:9000/admin/i18n/locales')
  })

  it('takes the admin token from --token before ADMIN_TOKEN', () => {
    expect(requestOf(['tokens', 'list', '--token', 'from-flag']).token).toBe('from-flag')
  })

  it('answers help for help and --help', () => {
    expect(parseAdminCommand(['help'], {}).kind).toBe('help')
    expect(parseAdminCommand(['tokens', 'list', '--help'], {}).kind).toBe('help')
  })

  it.each([
    [['locales', 'add'], /Expected <code>/],
    [['locales', 'add', 'fr', 'de'], /Expected <code>/],
    [['locales', 'list', 'extra'], /Unexpected argument/],
    [['sessions', 'revoke', 'all'], /Unexpected argument/],
    [['tokens', 'create', 'ci'], /--type/],
    [['tokens', 'create', 'ci', '--type', 'read-only', '--expires-in', '14'], /--expires-in takes 7, 30 or 90 \(days\), not 14/],
    [['webhooks', 'create', 'Build', '--event', 'entry.create'], /--target URL/],
    [['webhooks', 'create', 'Build', '--target', 'https://a.example', '--event', 'entry.create', '--header', 'no-colon'], /Name: value/],
    [['webhooks', 'update', '3', '--enabled', '--disabled'], /exclude/],
    [['webhooks', 'redeliver', '3'], /Expected <id> <seq>/],
    [['webhooks', 'list', '--target', 'https://a.example'], /--target does not apply/],
    [['tokens', 'list', '--default'], /--default does not apply/],
    [['locales', 'add', 'fr', '--type', 'custom'], /--type does not apply/],
    [['tokens', 'create', 'ci', '--type', 'custom', '--bogus'], /bogus/],
    [['roles', 'public', 'delete'], /roles public get/],
    [['roles', 'admin', 'get'], /Unknown command/],
    [['users', 'list'], /Unknown command/],
    [['locales', 'list', '--url', 'not a url'], /Invalid API URL/],
    [['locales', 'list', '--url', 'ftp://example.com'], /Invalid API URL: --url='ftp:\/\/example.com' is not an http\(s\) URL; give the API's base URL/],
    [[], /No command given/],
  ])('%j is a usage error', (argv, message) => {
    expect(() => parseAdminCommand(argv, env)).toThrow(UsageError)
    expect(() => parseAdminCommand(argv, env)).toThrow(message)
  })

  it('names CONTENT_API_URL, its value and the fix when it is not a URL', () => {
    expect(() => parseAdminCommand(['locales', 'list'], { ...env, CONTENT_API_URL: '127.0.0.1:1337' })).toThrow(
      "Invalid API URL: CONTENT_API_URL='127.0.0.1:1337' is not an http(s) URL; give the API's base URL, e.g. http://127.0.0.1:1337",
    )
  })

  it('is a usage error without an admin token', () => {
    expect(() => parseAdminCommand(['locales', 'list'], {})).toThrow(/ADMIN_TOKEN/)
    expect(() => parseAdminCommand(['locales', 'list'], { ADMIN_TOKEN: '' })).toThrow(/ADMIN_TOKEN/)
  })
})

describe('admin CLI: responses to output', () => {
  it('prints the data of a success as JSON and exits 0', () => {
    const outcome = renderAdminResponse(201, JSON.stringify({ data: { code: 'fr', name: 'French (fr)' } }))
    expect(outcome.exitCode).toBe(0)
    expect(JSON.parse(outcome.stdout)).toEqual({ code: 'fr', name: 'French (fr)' })
    expect(outcome.stderr).toBe('')
  })

  it('prints nothing for a 204', () => {
    expect(renderAdminResponse(204, '')).toEqual({ exitCode: 0, stdout: '', stderr: '' })
  })

  it("prints the error envelope's message, status and name and exits 1", () => {
    const envelope = { data: null, error: { status: 409, name: 'ConflictError', message: 'Locale fr already exists', details: {} } }
    const outcome = renderAdminResponse(409, JSON.stringify(envelope))
    expect(outcome.exitCode).toBe(1)
    expect(outcome.stdout).toBe('')
    expect(outcome.stderr).toBe('Error: Locale fr already exists (409 ConflictError)\n')
  })

  it('adds non-empty details to the error message', () => {
    const envelope = { data: null, error: { status: 400, name: 'ValidationError', message: 'Unknown action x', details: { unknown: ['x'] } } }
    const outcome = renderAdminResponse(400, JSON.stringify(envelope))
    expect(outcome.exitCode).toBe(1)
    expect(outcome.stderr).toContain('Unknown action x (400 ValidationError)')
    expect(outcome.stderr).toContain('"unknown"')
  })

  it('exits 1 on a failure that is not an envelope', () => {
    const outcome = renderAdminResponse(502, '<html>Bad Gateway</html>')
    expect(outcome.exitCode).toBe(1)
    expect(outcome.stderr).toContain('HTTP 502')
  })
})
