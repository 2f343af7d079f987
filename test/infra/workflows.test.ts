// The GitHub workflows, parsed: CI runs on pushes and pull requests with Node 22 and Java 17 and
// type-checks, tests and synthesizes; Deploy runs CI, then dev, then prod behind the
// `production` environment, with AWS credentials from GitHub OIDC only.
import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { parse } from 'yaml'

interface Step {
  name?: string
  uses?: string
  run?: string
  with?: Record<string, unknown>
}
interface Job {
  needs?: string | string[]
  uses?: string
  environment?: string | { name: string }
  permissions?: Record<string, string>
  steps?: Step[]
}
interface Workflow {
  on: Record<string, unknown>
  permissions?: Record<string, string>
  jobs: Record<string, Job>
}

function workflow(file: string): Workflow {
  return parse(readFileSync(new URL(`../../.github/workflows/${file}`, import.meta.url), 'utf8')) as Workflow
}

const uses = (job: Job, action: string) => (job.steps ?? []).find((step) => step.uses?.split('@')[0] === action)
const runs = (job: Job) => (job.steps ?? []).flatMap((step) => (step.run === undefined ? [] : [step.run.trim()]))
const environmentOf = (job: Job) => (typeof job.environment === 'string' ? job.environment : job.environment?.name)

describe('ci.yml', () => {
  const ci = workflow('ci.yml')
  const [job] = Object.values(ci.jobs)

  it('runs on pull requests and pushes, and can be called by other workflows', () => {
    expect(Object.keys(ci.on)).toEqual(expect.arrayContaining(['pull_request', 'push', 'workflow_call']))
  })

  it('checks out, sets up Node 22 and Java 17 (temurin)', () => {
    expect(uses(job!, 'actions/checkout')).toBeDefined()
    expect(String(uses(job!, 'actions/setup-node')?.with?.['node-version'])).toBe('22')
    expect(uses(job!, 'actions/setup-java')?.with).toMatchObject({ distribution: 'temurin', 'java-version': '17' })
  })

  it('installs with npm ci, then type-checks, tests and synthesizes, in that order', () => {
    const commands = runs(job!)
    const order = ['npm ci', 'npm run typecheck', 'npm test', 'npm run synth'].map((command) => commands.indexOf(command))
    expect(order.every((index) => index >= 0)).toBe(true)
    expect([...order].sort((a, b) => a - b)).toEqual(order)
  })

  it('holds no AWS credentials', () => {
    expect(JSON.stringify(ci)).not.toMatch(/aws-actions|AWS_ACCESS_KEY|AWS_SECRET/)
  })
})

describe('deploy.yml', () => {
  const deploy = workflow('deploy.yml')
  const deployJobs = Object.entries(deploy.jobs).filter(([, job]) => job.steps !== undefined)
  const byStage = (stage: string) => deployJobs.find(([, job]) => runs(job).some((command) => command.includes(`--context stage=${stage}`)))

  it('runs on pushes to main and by hand', () => {
    expect(deploy.on.push).toEqual({ branches: ['main'] })
    expect(Object.keys(deploy.on)).toContain('workflow_dispatch')
  })

  it('runs the CI workflow before deploying dev', () => {
    const ci = Object.entries(deploy.jobs).find(([, job]) => job.uses === './.github/workflows/ci.yml')
    expect(ci).toBeDefined()
    const [, dev] = byStage('dev')!
    expect([dev.needs].flat()).toContain(ci![0])
  })

  it('deploys prod after dev, behind the production environment', () => {
    const [devName] = byStage('dev')!
    const [, prod] = byStage('prod')!
    expect([prod.needs].flat()).toContain(devName)
    expect(environmentOf(prod)).toBe('production')
  })

  it.each(['dev', 'prod'])('deploys %s with cdk deploy, assuming a role through GitHub OIDC', (stage) => {
    const [, job] = byStage(stage)!
    expect(job.permissions?.['id-token']).toBe('write')
    const credentials = uses(job, 'aws-actions/configure-aws-credentials')
    expect(credentials?.with?.['role-to-assume']).toMatch(/^\$\{\{\s*(vars|secrets)\.\w+\s*\}\}$/)
    expect(credentials?.with).not.toHaveProperty('aws-access-key-id')
    expect(uses(job, 'actions/setup-node')?.with?.['node-version']).toBe(22)
    expect(runs(job)).toContain('npm ci')
    // `npm run deploy` is `cdk deploy --require-approval never` (package.json).
    expect(runs(job).some((command) => command.startsWith(`npm run deploy -- --context stage=${stage}`))).toBe(true)
    const steps = job.steps!.map((step) => step.uses?.split('@')[0] ?? step.run?.trim())
    expect(steps.indexOf('aws-actions/configure-aws-credentials')).toBeLessThan(steps.findIndex((step) => step?.startsWith('npm run deploy') === true))
  })

  it('grants the OIDC token only to the deploy jobs', () => {
    expect(deploy.permissions?.['id-token']).toBeUndefined()
  })

  it('is what package.json runs as deploy', () => {
    const scripts = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')).scripts
    expect(scripts.deploy).toMatch(/^cdk deploy\b/)
    expect(scripts.synth).toMatch(/^cdk synth\b/)
  })
})
