// The admin web interface's pages (issue 21) against the API they call. A page reads its data
// through the in-process API client (lib/admin-ui/api-client.ts); its "floor" is the same API
// requests made directly through the app, as a client of the API makes them (its token, its
// request log), each as soon as the page's own had what it waited for: the page's calls are
// recorded once (untimed), with the calls that had ended when each one started, and replayed with
// that concurrency. The page and its requests run in alternation, on the same data, like every kind.
import { createAdminApp } from '../lib/admin-app.js'
import { createApiClient, type ApiAnswer, type ApiClient } from '../lib/admin-ui/api-client.js'
import { createAdminUi } from '../lib/admin-ui/app.js'
import { contentApps, EDITOR_PAGES } from '../lib/admin-ui/editors.js'
import { SESSION_COOKIE, SessionKeys } from '../lib/admin-ui/session.js'
import type { Services } from '../lib/services.js'
import { request, type AdminPages, type BenchContext, type RecordedCall, type Scenario } from './requests.js'

/** The in-process API client of the pages, recording its calls while `recording` is set. */
class RecordingClient implements ApiClient {
  recording: RecordedCall[] | undefined
  private ended: number[] = []

  constructor(private readonly inner: ApiClient) {}

  async call(method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<ApiAnswer> {
    const recording = this.recording
    if (recording === undefined) return this.inner.call(method, path, body, headers)
    const entry: RecordedCall = { method, path, body, headers, after: [...this.ended], status: 0 }
    const index = recording.push(entry) - 1
    const answer = await this.inner.call(method, path, body, headers)
    entry.status = answer.status
    this.ended.push(index)
    return answer
  }

  /** The calls `run` makes. */
  async record(run: () => Promise<unknown>): Promise<RecordedCall[]> {
    this.recording = []
    this.ended = []
    try {
      await run()
      return this.recording
    } finally {
      this.recording = undefined
    }
  }
}

/** The admin site's app (the administration API and the pages, the documents' ones included, as createAdminSite mounts them), its client recording. */
export function adminPages(services: Services, adminToken: string): AdminPages {
  const client = new RecordingClient(createApiClient(services, contentApps(services)))
  const app = createAdminApp(services)
  app.route('/', createAdminUi(services, client, { editors: EDITOR_PAGES }))
  const signIn = async () => {
    const { value, session } = new SessionKeys(adminToken).issue(Date.now())
    await services.adminSessions.open(session.nonce, session.expires)
    return `${SESSION_COOKIE}=${value}`
  }
  return { app, client, adminToken, signIn }
}

/** The pages measured: a type's list, a document's page (its relations' pickers included), and two operator pages. */
export function adminPageScenarios(ctx: BenchContext): Scenario[] {
  const pages = ctx.adminPages
  if (pages === undefined) return []
  let cookie: Promise<string> | undefined
  const page = (path: string, marker: string): Pick<Scenario, 'prepare' | 'app' | 'floor' | 'check' | 'floorResponds'> => {
    let calls: RecordedCall[] = []
    const get = async () => (await request(pages.app, 'GET', path, 200, { headers: { Cookie: await (cookie ??= pages.signIn()) } })).text
    return {
      prepare: async () => {
        calls = await pages.client.record(get)
        if (calls.length === 0) throw new Error(`${path}: the page made no API call`)
      },
      app: get,
      floor: () => replay(ctx, pages, calls),
      floorResponds: true,
      check: (html) => {
        if (!html.includes(marker)) throw new Error(`${path}: the page does not show ${marker}`)
      },
    }
  }
  // Article 10 links an author and ten tags (relations.ts).
  const documentId = ctx.documentIds[10] ?? ctx.documentIds[0]
  return [
    { kind: 'admin-list', label: 'admin page: article list (GET /admin/content/articles, 10 rows x 3 locales)', write: false, ...page('/admin/content/articles', '<h1>Article</h1>') },
    { kind: 'admin-document', label: 'admin page: an article with its relations (GET /admin/content/articles/:documentId)', write: false, ...page(`/admin/content/articles/${documentId}`, 'name="r.author"') },
    { kind: 'admin-locales', label: 'admin page: locales (GET /admin/locales; its API request reads the registry afresh)', write: false, ...page('/admin/locales', '<h1>Locales</h1>') },
    { kind: 'admin-tokens', label: 'admin page: API tokens (GET /admin/tokens)', write: false, ...page('/admin/tokens', '<h1>API tokens</h1>') },
  ]
}

/**
 * The recorded calls made directly through the app, with the admin token (administration API) or
 * the bench's full-access API token (content API); each starts once the calls that had ended
 * before it started in the page have ended again. Any other status than the page got stops the run.
 */
async function replay(ctx: BenchContext, pages: AdminPages, calls: readonly RecordedCall[]): Promise<string> {
  const done: Promise<string>[] = []
  for (const call of calls) {
    const token = call.path.startsWith('/admin/') ? pages.adminToken : ctx.token
    done.push(Promise.all(call.after.map((index) => done[index])).then(async () =>
      (await request(ctx.app, call.method, call.path, call.status, { token, headers: call.headers, body: call.body })).text))
  }
  // One JSON array of the answers (an empty body as null), for the untimed checks that read it.
  return `[${(await Promise.all(done)).map((text) => (text === '' ? 'null' : text)).join(',')}]`
}
