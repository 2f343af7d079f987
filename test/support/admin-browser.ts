// A Chromium page signed in to the admin web interface, for the browser tests: generous waits (a
// loaded machine; they bound a hang, they are not timings under test), script errors collected,
// dialogs accepted, axe-core on every page load, and a check for after each test.
import { expect } from 'vitest'
import type { Page } from 'playwright-core'
import { axeOnEveryLoad } from './axe.js'
import { launchBrowser, type TestBrowser } from './browser.js'
import { ADMIN_TOKEN } from './context.js'

export interface AdminBrowser {
  readonly browser: TestBrowser
  readonly page: Page
  /** After each test: no axe finding and no script error since the last check. */
  checkPage(): Promise<void>
}

/** Opens `/admin/sign-in` at `base` and signs in; a prompt dialog is answered `promptAnswer`. */
export async function signedInAdmin(base: string, promptAnswer?: string): Promise<AdminBrowser> {
  const browser = await launchBrowser()
  const page = await browser.context.newPage()
  const pageErrors: string[] = []
  page.setDefaultTimeout(30_000)
  page.on('pageerror', (error) => pageErrors.push(error.message))
  page.on('dialog', (dialog) => void dialog.accept(dialog.type() === 'prompt' ? promptAnswer : undefined))
  const axe = axeOnEveryLoad(page)
  await page.goto(`${base}/admin/sign-in`)
  await page.getByLabel('Admin token').fill(ADMIN_TOKEN)
  await page.getByRole('button', { name: 'Sign in' }).click()
  await page.getByRole('heading', { name: 'Content', level: 1 }).waitFor()
  return {
    browser,
    page,
    async checkPage() {
      await axe.settled()
      expect(axe.findings.splice(0)).toEqual([])
      expect(pageErrors.splice(0)).toEqual([])
    },
  }
}
