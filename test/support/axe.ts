// axe-core in the browser tests: the engine's source evaluated in the page through the DevTools
// protocol (a script tag would be refused by the pages' CSP, which the tests keep on), then run
// over the whole document. Serious and critical findings fail the test that met them.
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import type { Page } from 'playwright-core'

// In-page code runs in the browser; the project's types hold no DOM library.
declare const window: any

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8')

/** One axe finding, as the tests report it: rule, impact, and the first elements it names. */
export interface AxeFinding {
  readonly url: string
  readonly rule: string
  readonly impact: string
  readonly help: string
  readonly targets: readonly string[]
}

const FAILING = new Set(['serious', 'critical'])

/** The serious and critical axe findings on the page as it is now. */
async function axeFindings(page: Page): Promise<AxeFinding[]> {
  if (!(await page.evaluate(() => typeof window.axe === 'object'))) await page.evaluate(AXE_SOURCE)
  const violations = (await page.evaluate(async () => {
    // label-content-name-mismatch is experimental in axe, so off by default: on here (speech control users say what they see).
    const result = await window.axe.run(window.document, { resultTypes: ['violations'], rules: { 'label-content-name-mismatch': { enabled: true } } })
    return result.violations.map((v: any) => ({ rule: v.id, impact: v.impact, help: v.help, targets: v.nodes.slice(0, 5).map((n: any) => n.target.join(' ')) }))
  })) as Omit<AxeFinding, 'url'>[]
  const url = new URL(page.url())
  return violations.filter((v) => FAILING.has(v.impact)).map((v) => ({ ...v, url: `${url.pathname}${url.search}` }))
}

/**
 * Runs axe after every page load of `page`, keeping the findings in the returned list. A run cut
 * short by the next navigation is dropped (that page is checked when a later load of it completes,
 * or by an explicit axeFindings); `settled()` waits for the runs begun so far.
 */
export function axeOnEveryLoad(page: Page): { findings: AxeFinding[]; checked: string[]; settled(): Promise<void> } {
  const findings: AxeFinding[] = []
  const checked: string[] = []
  let pending: Promise<void> = Promise.resolve()
  page.on('load', () => {
    const run = axeFindings(page).then((found) => {
      findings.push(...found)
      checked.push(new URL(page.url()).pathname)
    }, () => undefined)
    pending = pending.then(() => run)
  })
  return { findings, checked, settled: () => pending }
}
