// `npm start` problems end with one sentence saying what to fix and exit code 1, quickly: a port
// in use (before Java starts), an ADMIN_TOKEN too short, no Java on the PATH, and every other
// misconfiguration (a wrong DYNAMODB_ENDPOINT, setting, flag or data directory).
import { execFile } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { createServer as createHttpServer } from 'node:http'
import { createServer, type Server } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { javaProblem, startDynamoLocal } from '../../lib/local/dynamodb-local.js'

const run = promisify(execFile)
const made: string[] = []
afterAll(() => made.forEach((dir) => rmSync(dir, { recursive: true, force: true })))

/** A directory to use as PATH holding only `node` and, optionally, a fake `java` printing `version`. */
function pathWith(javaVersion?: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'path-'))
  made.push(dir)
  symlinkSync(process.execPath, join(dir, 'node'))
  if (javaVersion !== undefined) writeFileSync(join(dir, 'java'), `#!/bin/sh\necho '${javaVersion}' >&2\n`, { mode: 0o755 })
  return dir
}

/** Runs `npm start`'s entry point with `env` added; returns its exit code, output and duration. */
async function start(env: Record<string, string>, args: string[] = []): Promise<{ code: number; stderr: string; ms: number }> {
  const started = Date.now()
  const scratch = mkdtempSync(join(tmpdir(), 'start-'))
  made.push(scratch)
  try {
    await run(process.execPath, ['node_modules/tsx/dist/cli.mjs', 'functions/local.ts', ...args], { env: { ...process.env, DYNAMODB_ENDPOINT: '', LOCAL_IN_MEMORY: '', DATA_DIR: scratch, TOKEN_HASH_SECRET: '', ...env }, timeout: 30_000 })
    return { code: 0, stderr: '', ms: Date.now() - started }
  } catch (error) {
    const failed = error as { code: number; stderr: string }
    return { code: failed.code, stderr: failed.stderr, ms: Date.now() - started }
  }
}

describe('the Java check', () => {
  it('says what to install when no java is on the PATH', () => {
    const problem = javaProblem(pathWith())
    expect(problem).toContain('no `java` was found')
    expect(problem).toContain('apt-get install openjdk-17-jre-headless')
    expect(problem).toContain('DYNAMODB_ENDPOINT')
  })

  it.each([['java version "1.8.0_402"', 'Java 8'], ['openjdk version "11.0.2" 2019-01-15', 'Java 11']])('names the version when %s is too old', (version, named) => {
    expect(javaProblem(pathWith(version))).toContain(`is ${named}`)
  })

  it('accepts Java 17 and later', () => {
    expect(javaProblem(pathWith('openjdk version "17.0.15" 2025-04-15'))).toBeUndefined()
    expect(javaProblem(pathWith('openjdk version "21" 2023-09-19'))).toBeUndefined()
  })
})

describe('startDynamoLocal', () => {
  it('gives javaOptions to its JVM only, leaving this process\'s environment as it was', async () => {
    const before = process.env.JAVA_TOOL_OPTIONS
    const local = await startDynamoLocal({ javaOptions: ['-Dcontent.api.test=1'] })
    try {
      const environment = readFileSync(`/proc/${local.pid}/environ`, 'utf8').split('\0')
      expect(environment.find((entry) => entry.startsWith('JAVA_TOOL_OPTIONS='))).toContain('-Dcontent.api.test=1')
      expect(process.env.JAVA_TOOL_OPTIONS).toBe(before)
    } finally {
      await local.stop()
    }
  })
})

describe('npm start', () => {
  let held: Server
  let heldPort: number
  beforeAll(async () => {
    held = createServer()
    await new Promise<void>((resolve) => held.listen(0, '127.0.0.1', resolve))
    heldPort = (held.address() as { port: number }).port
  })
  afterAll(() => new Promise<void>((resolve) => held.close(() => resolve())))

  it('names a port in use and exits 1 before starting Java', async () => {
    const outcome = await start({ PORT: String(heldPort) })
    expect(outcome.code).toBe(1)
    expect(outcome.stderr).toContain(`port ${heldPort} on 127.0.0.1 is already in use`)
    expect(outcome.stderr).not.toMatch(/EADDRINUSE|\n\s+at /)
    expect(outcome.ms).toBeLessThan(10_000)
  })

  it('refuses an ADMIN_TOKEN shorter than 20 characters', async () => {
    const outcome = await start({ PORT: '0', ADMIN_TOKEN: 'abc' })
    expect(outcome.code).toBe(1)
    expect(outcome.stderr).toContain('ADMIN_TOKEN must be at least 20 characters long')
  })

  it('says what to install when Java is missing', async () => {
    const outcome = await start({ PORT: '0', PATH: pathWith() })
    expect(outcome.code).toBe(1)
    expect(outcome.stderr).toContain('apt-get install openjdk-17-jre-headless')
    expect(outcome.stderr).not.toMatch(/\n\s+at /)
  })
})

describe('npm start: every misconfiguration is one line naming the variable, the value and the fix', () => {
  let answering: Server
  let answeringPort: number
  let closedPort: number
  let dataDir: string
  beforeAll(async () => {
    // An HTTP server that is not DynamoDB, and a port where nothing listens.
    answering = createHttpServer((_, response) => response.writeHead(404, { 'Content-Type': 'text/html' }).end('<html>not here</html>'))
    await new Promise<void>((resolve) => answering.listen(0, '127.0.0.1', resolve))
    answeringPort = (answering.address() as { port: number }).port
    const probe = createServer()
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve))
    closedPort = (probe.address() as { port: number }).port
    await new Promise<void>((resolve) => probe.close(() => resolve()))
    dataDir = mkdtempSync(join(tmpdir(), 'start-data-'))
    made.push(dataDir)
    writeFileSync(join(dataDir, 'secrets.json'), '{"adminToken":"short"}')
  })
  afterAll(() => new Promise<void>((resolve) => answering.close(() => resolve())))

  it.each([
    ['a PORT that is not a number', { PORT: 'abc' }, "PORT='abc' is not a port number: set PORT to a number from 1 to 65535 (or 0 for any free port), or unset it for 1337"],
    ['a DYNAMODB_ENDPOINT that is not a URL', { DYNAMODB_ENDPOINT: 'localhost:8000' }, "DYNAMODB_ENDPOINT='localhost:8000' is not an http(s) URL: set it to DynamoDB Local's URL, e.g. http://127.0.0.1:8000, or unset it to let npm start run DynamoDB Local"],
    ['a DYNAMODB_ENDPOINT where nothing listens', () => ({ DYNAMODB_ENDPOINT: `http://127.0.0.1:${closedPort}` }), () => `nothing answers at DYNAMODB_ENDPOINT='http://127.0.0.1:${closedPort}' (ECONNREFUSED): start DynamoDB Local there`],
    ['a DYNAMODB_ENDPOINT that is not DynamoDB', () => ({ DYNAMODB_ENDPOINT: `http://127.0.0.1:${answeringPort}` }), () => `DYNAMODB_ENDPOINT='http://127.0.0.1:${answeringPort}' answered, but not as DynamoDB Local (`],
    ['an API_REST_MAX_LIMIT that is not a number', { API_REST_MAX_LIMIT: 'ten' }, "Invalid configuration: API_REST_MAX_LIMIT='ten' is not a whole number; set a number such as 25, or unset it for the default"],
    ['an API_REST_MAX_LIMIT of 0', { API_REST_MAX_LIMIT: '0' }, "Invalid configuration: API_REST_MAX_LIMIT='0' is invalid (Invalid value: Expected >=1 but received 0); fix it, or unset it for the default"],
    ['an API_REST_FIND_ONE_SHAPE not offered', { API_REST_FIND_ONE_SHAPE: 'list' }, "Invalid configuration: API_REST_FIND_ONE_SHAPE='list' is invalid"],
    ['a LOCAL_IN_MEMORY that is not a boolean', { LOCAL_IN_MEMORY: 'maybe' }, "LOCAL_IN_MEMORY='maybe' is not a boolean: set it to true or false"],
    ['a short TOKEN_HASH_SECRET, not echoed', { TOKEN_HASH_SECRET: 'tiny-secret' }, 'TOKEN_HASH_SECRET must hold keys of at least 32 characters (one is 11)'],
    ['a HOST that is not an IP address', { HOST: 'my laptop' }, "HOST='my laptop' is not an IP address: unset it to listen on 127.0.0.1 only, or set 0.0.0.0 inside a container"],
    ['an AWS_REGION that is not a region', { AWS_REGION: 'Europe West' }, "AWS_REGION='Europe West' is not a region name: set it to one such as us-east-1, or unset it"],
    ['--in-memory with a DYNAMODB_ENDPOINT', { DYNAMODB_ENDPOINT: 'http://127.0.0.1:8000', LOCAL_IN_MEMORY: 'true' }, "--in-memory (or LOCAL_IN_MEMORY) starts a DynamoDB Local of its own, and DYNAMODB_ENDPOINT='http://127.0.0.1:8000' names another: unset one of them"],
    ['a DATA_DIR that cannot be written', () => ({ DATA_DIR: join(dataDir, 'secrets.json', 'data') }), () => `DATA_DIR='${join(dataDir, 'secrets.json', 'data')}' cannot be written (ENOTDIR): set DATA_DIR to a writable directory, or run with --in-memory`],
    ['a damaged secrets.json', () => ({ DATA_DIR: dataDir }), () => `${join(dataDir, 'secrets.json')} is not a valid secrets file`],
  ])('%s: exit 1 and one line', async (_, env, expected) => {
    const outcome = await start({ PORT: '0', ...(typeof env === 'function' ? env() : env) })
    expect(outcome.code).toBe(1)
    expect(outcome.stderr).toContain(`Cannot start: ${typeof expected === 'function' ? expected() : expected}`)
    const line = outcome.stderr.split('\n').filter((text) => text.startsWith('Cannot start:'))
    expect(line).toHaveLength(1)
    expect(outcome.stderr).not.toMatch(/\n\s+at |tiny-secret/)
  })

  it('an unknown argument: exit 2 and the usage', async () => {
    const outcome = await start({ PORT: '0' }, ['--in-memroy'])
    expect(outcome.code).toBe(2)
    expect(outcome.stderr).toContain('Cannot start: Unknown argument --in-memroy\n\nUsage: npm start [-- --in-memory]')
  })
})
