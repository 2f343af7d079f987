// A real Chromium for the browser tests: Debian's `chromium` package, driven by playwright-core,
// headless, with a fresh profile and nothing that reaches the network on its own. Missing
// Chromium fails the tests with what to install: they never skip.
import { existsSync } from 'node:fs'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { chromium, type BrowserContext } from 'playwright-core'

export const CHROMIUM = '/usr/bin/chromium'

const ARGS = [
  '--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync',
]

export interface TestBrowser {
  readonly context: BrowserContext
  close(): Promise<void>
}

/** Launches Chromium with a fresh profile (its own --user-data-dir), deleted on close. */
export async function launchBrowser(): Promise<TestBrowser> {
  if (!existsSync(CHROMIUM)) {
    throw new Error(`The browser tests need Chromium at ${CHROMIUM}: install it with 'apt-get update && apt-get install -y chromium' (.ci/run does)`)
  }
  const profile = await mkdtemp(join(tmpdir(), 'admin-ui-chromium-'))
  // launchPersistentContext passes the profile as --user-data-dir: a browser with no history.
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: ARGS,
    viewport: { width: 1100, height: 800 },
    timeout: 20_000,
  })
  return {
    context,
    async close() {
      await context.close()
      await rm(profile, { recursive: true, force: true })
    },
  }
}
