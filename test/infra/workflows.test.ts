// The GitHub workflows, parsed: CI runs on pushes and pull requests with Node 22 against DynamoDB
// Local as a service and type-checks, tests and synthesizes; Deploy runs from main only: CI, then
// dev, then prod behind the `production` environment with prod's diff shown before, each deploy
// smoke-tested, queued per environment, with AWS credentials from GitHub OIDC only; every action
// pinned by commit SHA. compose.yaml runs the same DynamoDB Local image with its data in a volume.
import { existsSync, readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { parse } from 'yaml'

interface Step {
  name?: string
  id?: string
  shell?: string
  env?: Record<string, string>
  uses?: string
  run?: string
  with?: Record<string, unknown>
}
interface Job {
  if?: string
  needs?: string | string[]
  concurrency?: { group: string; 'cancel-in-progress': boolean }
  services?: Record<string, { image: string; ports?: string[] }>
  env?: Record<string, string>
  uses?: string
  environment?: string | { name: string }
  permissions?: Record<string, string>
  steps?: Step[]
}
interface Workflow {
  on: Record<string, unknown>
  concurrency?: unknown
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

  it('checks out and sets up Node 22', () => {
    expect(uses(job!, 'actions/checkout')).toBeDefined()
    expect(String(uses(job!, 'actions/setup-node')?.with?.['node-version'])).toBe('22')
  })

  it('runs the tests against the DynamoDB Local image as a service, on loopback, through DYNAMODB_ENDPOINT', () => {
    const services = Object.values(job!.services ?? {})
    expect(services).toHaveLength(1)
    expect(services[0]!.image).toBe(compose.services.dynamodb?.image)
    expect(services[0]!.ports).toEqual(['8000:8000'])
    expect(job!.env?.DYNAMODB_ENDPOINT).toBe('http://127.0.0.1:8000')
    // No Java: test/support/global-setup.ts starts no jar when DYNAMODB_ENDPOINT is set.
    expect(uses(job!, 'actions/setup-java')).toBeUndefined()
  })

  it('installs with npm ci, then type-checks, tests, runs the race tests at full rounds and synthesizes, in that order', () => {
    const commands = runs(job!)
    const order = ['npm ci', 'npm run typecheck', 'npm test', 'npm run test:soak', 'npm run synth'].map((command) => commands.indexOf(command))
    expect(order.every((index) => index >= 0)).toBe(true)
    expect([...order].sort((a, b) => a - b)).toEqual(order)
  })

  it('provides /usr/bin/chromium for the browser tests before npm test', () => {
    const commands = runs(job!)
    const chromium = commands.findIndex((command) => command.includes('/usr/bin/chromium'))
    expect(chromium).toBeGreaterThanOrEqual(0)
    expect(chromium).toBeLessThan(commands.indexOf('npm test'))
  })

  it('holds no AWS credentials', () => {
    expect(JSON.stringify(ci)).not.toMatch(/aws-actions|AWS_ACCESS_KEY|AWS_SECRET/)
  })
})

interface ComposeService {
  image?: string
  command?: string
  ports: string[]
  volumes: string[]
  build?: { context: string; dockerfile: string }
  environment?: Record<string, string>
  depends_on?: Record<string, { condition: string }>
  healthcheck?: { test: string[]; interval: string; timeout: string; retries: number }
}

const compose = parse(readFileSync(new URL('../../compose.yaml', import.meta.url), 'utf8')) as {
  services: Record<string, ComposeService>
  volumes: Record<string, unknown>
}

describe('compose.yaml', () => {
  const dynamodb = compose.services.dynamodb!

  it('runs a pinned amazon/dynamodb-local, on disk with one shared database, not in memory', () => {
    expect(dynamodb.image).toMatch(/^amazon\/dynamodb-local:\d+\.\d+\.\d+$/)
    expect(dynamodb.command).toBe('-jar DynamoDBLocal.jar -sharedDb -dbPath /home/dynamodblocal/data')
    expect(dynamodb.command).not.toContain('-inMemory')
  })

  it('keeps the data in a named volume and listens on 127.0.0.1:8000 only', () => {
    expect(dynamodb.volumes).toEqual(['dynamodb-data:/home/dynamodblocal/data'])
    expect(Object.keys(compose.volumes).sort()).toEqual(['api-data', 'dynamodb-data'])
    expect(dynamodb.ports).toEqual(['127.0.0.1:8000:8000'])
  })

  it('checks that DynamoDB Local answers on its port', () => {
    expect(dynamodb.healthcheck?.test).toEqual(['CMD-SHELL', 'curl -s -o /dev/null http://127.0.0.1:8000/ || exit 1'])
    expect(dynamodb.healthcheck?.retries).toBeGreaterThan(0)
  })

  // Not run here (no Docker engine on the machine that wrote it): checked for structure only.
  describe('the api service', () => {
    const api = compose.services.api!
    const dockerfile = readFileSync(new URL('../../Dockerfile', import.meta.url), 'utf8')
    const env = api.environment ?? {}

    it('is built from this repository by its Dockerfile, on Node 22, running npm start\'s entry point', () => {
      expect(api.build).toEqual({ context: '.', dockerfile: 'Dockerfile' })
      expect(dockerfile).toMatch(/^FROM node:22(-slim)?$/m)
      expect(dockerfile).toMatch(/^RUN npm ci\b/m)
      expect(dockerfile).toContain('CMD ["node", "node_modules/tsx/dist/cli.mjs", "functions/local.ts"]')
      expect(dockerfile).toMatch(/^USER node$/m)
      expect(existsSync(new URL('../../functions/local.ts', import.meta.url))).toBe(true)
    })

    it('reaches DynamoDB Local by its service name, once it is healthy', () => {
      expect(env.DYNAMODB_ENDPOINT).toBe(`http://dynamodb:8000`)
      expect(api.depends_on).toEqual({ dynamodb: { condition: 'service_healthy' } })
    })

    it('listens on the container interface, published on the host loopback only, at PORT', () => {
      expect(env.HOST).toBe('0.0.0.0')
      expect(api.ports).toEqual([`127.0.0.1:${env.PORT}:${env.PORT}`])
    })

    it('keeps its secrets (admin token, token hash key) in a volume at DATA_DIR', () => {
      expect(api.volumes).toEqual([`api-data:${env.DATA_DIR}`])
      expect(dockerfile).toContain(`mkdir ${env.DATA_DIR} && chown node:node ${env.DATA_DIR}`)
    })

    it('is healthy when GET /_health answers 2xx on its port', () => {
      const [kind, ...command] = api.healthcheck?.test ?? []
      expect(kind).toBe('CMD')
      expect(command.slice(0, 2)).toEqual(['node', '-e'])
      expect(command[2]).toContain(`fetch('http://127.0.0.1:${env.PORT}/_health')`)
      expect(command[2]).toContain('process.exit(r.ok ? 0 : 1)')
    })

    it('leaves out of the build context what the image must not hold', () => {
      const ignored = readFileSync(new URL('../../.dockerignore', import.meta.url), 'utf8').split('\n')
      for (const entry of ['node_modules', '.tmp', '.env', '.git']) expect(ignored).toContain(entry)
    })
  })
})

describe('every workflow', () => {
  it.each(['ci.yml', 'deploy.yml'])('%s pins each action to a full commit SHA', (file) => {
    const actions = Object.values(workflow(file).jobs).flatMap((job) => (job.steps ?? []).flatMap((step) => (step.uses === undefined ? [] : [step.uses])))
    expect(actions.length).toBeGreaterThan(0)
    for (const action of actions) expect(action).toMatch(/^[\w.-]+\/[\w.-]+@[0-9a-f]{40}$/)
  })
})

describe('deploy.yml', () => {
  const deploy = workflow('deploy.yml')
  const deployJobs = Object.entries(deploy.jobs).filter(([, job]) => job.steps !== undefined)
  const byStage = (stage: string) => deployJobs.find(([, job]) => runs(job).some((command) => command.startsWith(`npm run deploy -- --context stage=${stage}`)))

  it('runs on pushes to main and by hand, and every job only on main (a manual run from a branch deploys nothing)', () => {
    expect(deploy.on.push).toEqual({ branches: ['main'] })
    expect(Object.keys(deploy.on)).toContain('workflow_dispatch')
    for (const job of Object.values(deploy.jobs)) expect(job.if).toBe("github.ref == 'refs/heads/main'")
  })

  it('queues deploys per environment, never cancelling one midway, and has no workflow-wide lock', () => {
    expect(deploy.concurrency).toBeUndefined()
    for (const [, job] of deployJobs) {
      expect(job.concurrency?.group).toBe(`env-${environmentOf(job)}`)
    }
    for (const stage of ['dev', 'prod']) expect(byStage(stage)![1].concurrency?.['cancel-in-progress']).toBe(false)
  })

  it('shows prod\'s cdk diff in the job summary before the approval, with a role of its own', () => {
    const [diffName, diff] = deployJobs.find(([, job]) => runs(job).some((command) => command.includes('cdk diff --context stage=prod')))!
    expect(environmentOf(diff)).toBe('production-diff')
    expect(runs(diff).join('\n')).toContain('>> "$GITHUB_STEP_SUMMARY"')
    expect(diff.steps!.find((step) => step.run?.includes('cdk diff'))?.shell).toBe('bash') // pipefail: a failed diff fails the job
    expect(runs(diff).some((command) => command.includes('npm run deploy'))).toBe(false)
    expect([byStage('prod')![1].needs].flat()).toContain(diffName)
  })

  it.each(['dev', 'prod'])('smoke-tests %s after deploying it, against the URL the deploy output', (stage) => {
    const [, job] = byStage(stage)!
    const steps = job.steps!
    const deployAt = steps.findIndex((step) => step.id === 'deploy')
    const smokeAt = steps.findIndex((step) => step.run?.trim() === 'npx tsx infra/smoke.ts "$API_URL"')
    expect(smokeAt).toBeGreaterThan(deployAt)
    expect(steps[smokeAt]!.env?.API_URL).toBe('${{ steps.deploy.outputs.url }}')
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
    expect(environmentOf(byStage('dev')![1])).toBe('dev')
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
