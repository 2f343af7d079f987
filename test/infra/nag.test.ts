// cdk-nag's AwsSolutions pack on every stack the project deploys: no finding is left open, and each
// accepted one is acknowledged in infra/ with its reason (infra/accepted-findings.ts).
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { App, Validations, type Stack } from 'aws-cdk-lib'
import { Secret } from 'aws-cdk-lib/aws-secretsmanager'
import { AwsSolutionsChecks } from 'cdk-nag'
import { afterAll, describe, expect, it } from 'vitest'
import { AccountStack } from '../../infra/account-stack.js'
import { ACCEPTED } from '../../infra/accepted-findings.js'
import { ContentApiStack } from '../../infra/content-api-stack.js'
import { stageFromContext } from '../../infra/stage-config.js'
import { cdkJsonContext } from './synth.js'

interface Violation {
  ruleName: string
  violatingConstructs: { constructPath: string }[]
  reason?: string
}

const dirs: string[] = []
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true })
})

/** Runs the pack over the stack `build` adds to a fresh app; the open and the acknowledged findings. */
function nag(context: Record<string, unknown>, build: (app: App) => Stack) {
  const outdir = mkdtempSync(join(tmpdir(), 'nag-'))
  dirs.push(outdir)
  const app = new App({ outdir, context: { ...cdkJsonContext, ...context, 'aws:cdk:bundling-stacks': [] } })
  build(app)
  Validations.of(app).addPlugins(new AwsSolutionsChecks(app))
  let error: unknown
  try {
    app.synth()
  } catch (thrown) {
    error = thrown
  }
  const report = JSON.parse(readFileSync(join(outdir, 'validation-report.json'), 'utf8'))
  const [plugin] = report.pluginReports as { violations: Violation[]; suppressedViolations?: Violation[] }[]
  return { error, open: plugin!.violations, accepted: plugin!.suppressedViolations ?? [] }
}

const contentApi = (app: App) => new ContentApiStack(app, 'Nag', { stage: stageFromContext((key) => app.node.tryGetContext(key)) })
const rules = (violations: Violation[]) => [...new Set(violations.map((v) => v.ruleName.replace(/^AwsSolutions-([A-Z]+\d+).*/, '$1')))].sort()

describe('cdk-nag AwsSolutions', () => {
  it.each([
    // Every stage has the media library's distribution and bucket (CFR1-4, S1) and the upload function's prefixes (IAM5), and the webhooks' on-failure queue (SQS3).
    ['dev', { stage: 'dev' }, ['APIG2', 'APIG3', 'APIG4', 'CFR1', 'CFR2', 'CFR3', 'CFR4', 'COG4', 'IAM5', 'L1', 'S1', 'SMG4', 'SQS3']],
    ['prod', { stage: 'prod' }, ['APIG2', 'APIG4', 'CFR1', 'CFR2', 'CFR3', 'CFR4', 'COG4', 'IAM5', 'L1', 'S1', 'SMG4', 'SQS3']],
    ['prod with CDN and budget', { stage: 'prod', cdn: true, 'budget.monthlyUsd': 20, 'budget.email': 'ops@example.com' }, ['APIG2', 'APIG4', 'CFR1', 'CFR2', 'CFR3', 'CFR4', 'COG4', 'IAM5', 'L1', 'S1', 'SMG4', 'SQS3']],
  ])('leaves no finding open on the %s stack, and accepts only the listed rules, each with its reason', (_, context, accepted) => {
    const result = nag(context, contentApi)
    expect(result.open.map((v) => `${v.ruleName} ${v.violatingConstructs[0]?.constructPath}`)).toEqual([])
    expect(result.error).toBeUndefined()
    expect(rules(result.accepted)).toEqual(accepted)
    // A finding acknowledged for one resource (IAM5[Resource::*]) has its own reason, else its rule's.
    const reasonOf = (rule: string) => ACCEPTED[rule.replace(/^AwsSolutions-/, '')] ?? ACCEPTED[rule.replace(/^AwsSolutions-([A-Z]+\d+).*/, '$1')]
    for (const violation of result.accepted) expect(violation.reason).toBe(reasonOf(violation.ruleName))
    // The first stack pays for loading the rule pack: 29 s alone on a loaded 2-core machine, past
    // the default 30 s in a full test/infra run.
  }, 120_000)

  it('leaves no finding open on the account stack', () => {
    const result = nag({}, (app) => new AccountStack(app, 'NagAccount', { repository: 'octo/content-api', branch: 'main' }))
    expect(result.open.map((v) => `${v.ruleName} ${v.violatingConstructs[0]?.constructPath}`)).toEqual([])
    expect(rules(result.accepted)).toEqual(['IAM4', 'IAM5'])
    for (const violation of result.accepted) expect(violation.reason?.length).toBeGreaterThan(40)
  })

  it('reports a finding nobody acknowledged', () => {
    // The dev stack plus one more secret, without rotation and without an acknowledgment.
    const result = nag({ stage: 'dev' }, (app) => {
      const stack = contentApi(app)
      new Secret(stack, 'Unacknowledged')
      return stack
    })
    expect(result.open.map((v) => `${v.ruleName} ${v.violatingConstructs[0]?.constructPath}`)).toEqual(['AwsSolutions-SMG4 Nag/Unacknowledged/Resource'])
    expect(result.error).toBeDefined()
  })
})
