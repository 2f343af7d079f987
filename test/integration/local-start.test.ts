// `npm start` problems end with one sentence saying what to fix and exit code 1, quickly: a port
// in use (before Java starts), an ADMIN_TOKEN too short, no Java on the PATH.
import { execFile } from 'node:child_process'
import { mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { createServer, type Server } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { javaProblem } from '../../lib/local/dynamodb-local.js'

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
async function start(env: Record<string, string>): Promise<{ code: number; stderr: string; ms: number }> {
  const started = Date.now()
  try {
    await run(process.execPath, ['node_modules/tsx/dist/cli.mjs', 'functions/local.ts'], { env: { ...process.env, DYNAMODB_ENDPOINT: '', ...env }, timeout: 30_000 })
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
