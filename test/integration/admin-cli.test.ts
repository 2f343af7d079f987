// The admin CLI against a real HTTP server on loopback: the request function in-process, and the
// script itself as a child process for exit codes and output streams.
import { execFile } from 'node:child_process'
import { promisify } from 'node:util'
import { startServer, type TestServer } from '../support/server.js'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { parseAdminCommand, sendAdminRequest } from '../../lib/admin-cli-commands.js'
import { createServerApp } from '../../lib/server-app.js'
import { ADMIN_TOKEN, createTestContext, type TestContext } from '../support/context.js'

const run = promisify(execFile)
const ARTICLE_FIND = 'api::article.article.find'
const LIST_LOCALES = 'plugin::i18n.locales.listLocales'

describe('admin CLI against a running server', () => {
  let ctx: TestContext
  let server: TestServer
  let url: string
  const env = () => ({ CONTENT_API_URL: url, ADMIN_TOKEN })

  /** Runs a command line through the CLI's parser and request function. */
  const cli = async (argv: string[], environment: Record<string, string> = env()) => {
    const command = parseAdminCommand(argv, environment)
    if (command.kind !== 'request') throw new Error('expected a request')
    return sendAdminRequest(command.request)
  }
  /** Runs the script as `npm run admin` does, in a child process. */
  const script = async (argv: string[], environment: Record<string, string>) => {
    try {
      const { stdout, stderr } = await run('node_modules/.bin/tsx', ['functions/admin-cli.ts', ...argv], { env: { ...process.env, ...environment } })
      return { code: 0, stdout, stderr }
    } catch (error) {
      const failed = error as { code: number; stdout: string; stderr: string }
      return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr }
    }
  }

  beforeAll(async () => {
    ctx = await createTestContext()
    server = await startServer(createServerApp(ctx.services))
    url = server.url
  })
  afterAll(() => server.close())

  it('adds a locale and prints it as JSON, named from its code', async () => {
    const outcome = await cli(['locales', 'add', 'fr'])
    expect(outcome.exitCode).toBe(0)
    expect(JSON.parse(outcome.stdout)).toMatchObject({ code: 'fr', name: 'French (fr)', isDefault: false })
    const listed = await cli(['locales', 'list'])
    expect(JSON.parse(listed.stdout).map((locale: { code: string }) => locale.code)).toEqual(['en', 'fr'])
  })

  it("exits 1 with the envelope's message when the server refuses (existing code, any case)", async () => {
    const outcome = await cli(['locales', 'add', 'FR'])
    expect(outcome.exitCode).toBe(1)
    expect(outcome.stdout).toBe('')
    expect(outcome.stderr).toMatch(/\(409 ConflictError\)/)
  })

  it('creates a token whose access key works, then deletes it so it stops working', async () => {
    const created = await cli(['tokens', 'create', 'ci', '--type', 'custom', '--permission', ARTICLE_FIND])
    expect(created.exitCode).toBe(0)
    const token = JSON.parse(created.stdout)
    expect(token).toMatchObject({ name: 'ci', type: 'custom', permissions: [ARTICLE_FIND] })
    const read = () => fetch(`${url}/api/articles`, { headers: { Authorization: `Bearer ${token.accessKey}` } })
    expect((await read()).status).toBe(200)

    const listed = JSON.parse((await cli(['tokens', 'list'])).stdout)
    expect(listed.map((t: { id: number }) => t.id)).toContain(token.id)
    expect(JSON.stringify(listed)).not.toContain(token.accessKey)

    const deleted = await cli(['tokens', 'delete', String(token.id)])
    expect(deleted).toEqual({ exitCode: 0, stdout: '', stderr: '' })
    expect((await read()).status).toBe(401)
    expect((await cli(['tokens', 'delete', String(token.id)])).stderr).toMatch(/\(404 NotFoundError\)/)
  })

  it('sets and gets the public role', async () => {
    const set = await cli(['roles', 'public', 'set', ARTICLE_FIND, LIST_LOCALES])
    expect(set.exitCode).toBe(0)
    expect(JSON.parse(set.stdout)).toEqual({ permissions: [ARTICLE_FIND, LIST_LOCALES] })
    expect(JSON.parse((await cli(['roles', 'public', 'get'])).stdout)).toEqual({ permissions: [ARTICLE_FIND, LIST_LOCALES] })
    const unknown = await cli(['roles', 'public', 'set', 'api::article.article.archive'])
    expect(unknown.exitCode).toBe(1)
    expect(unknown.stderr).toMatch(/\(400 ValidationError\)/)
  })

  it('updates and deletes a locale', async () => {
    await cli(['locales', 'add', 'de', '--name', 'Deutsch'])
    const updated = await cli(['locales', 'update', 'de', '--default'])
    expect(JSON.parse(updated.stdout)).toMatchObject({ code: 'de', name: 'Deutsch', isDefault: true })
    expect((await cli(['locales', 'delete', 'de'])).stderr).toMatch(/\(409 ConflictError\)/)
    await cli(['locales', 'update', 'en', '--default'])
    expect((await cli(['locales', 'delete', 'de'])).exitCode).toBe(0)
  })

  it('exits 1 with 401 for a wrong admin token, without echoing it', async () => {
    const outcome = await cli(['locales', 'list'], { CONTENT_API_URL: url, ADMIN_TOKEN: 'wrong-admin-token-value' })
    expect(outcome.exitCode).toBe(1)
    expect(outcome.stderr).toBe("Error: Missing or invalid credentials (401 UnauthorizedError); ADMIN_TOKEN (or --token) is not this server's admin token: use the one npm start prints (kept in .tmp/secrets.json)\n")
  })

  it('exits 1 when the server cannot be reached', async () => {
    const probe = await startServer(createServerApp(ctx.services))
    await probe.close()
    const outcome = await cli(['locales', 'list'], { CONTENT_API_URL: probe.url, ADMIN_TOKEN })
    expect(outcome.exitCode).toBe(1)
    expect(outcome.stderr).toBe(`Error: cannot reach ${probe.url}: ECONNREFUSED; start the API (npm start), or set CONTENT_API_URL (or --url) to where it runs\n`)
  })

  it('as a script: prints JSON on stdout with exit 0, the message on stderr with exit 1, usage with exit 2', async () => {
    const [ok, refused, usage] = await Promise.all([
      script(['tokens', 'create', 'script', '--type', 'read-only'], env()),
      script(['locales', 'delete', 'en'], env()),
      script(['locales', 'add'], env()),
    ])
    expect(ok.code).toBe(0)
    expect(JSON.parse(ok.stdout)).toMatchObject({ name: 'script', type: 'read-only' })
    expect(refused.code).toBe(1)
    expect(refused.stdout).toBe('')
    expect(refused.stderr).toMatch(/\(409 ConflictError\)/)
    expect(usage.code).toBe(2)
    expect(usage.stderr).toMatch(/Expected <code>/)
    for (const output of [ok, refused, usage]) expect(output.stdout + output.stderr).not.toContain(ADMIN_TOKEN)
  })

  it('as a script: prints the help and exits 2 without a command, exits 0 for help', async () => {
    const [none, help] = await Promise.all([script([], env()), script(['help'], env())])
    expect(none.code).toBe(2)
    expect(none.stdout).toBe('')
    expect(none.stderr).toMatch(/^Error: No command given\n\nUsage: npm run --silent admin -- <command>/)
    expect(help.code).toBe(0)
    expect(help.stdout).toMatch(/^Usage: npm run --silent admin -- <command>/)
  })
})
