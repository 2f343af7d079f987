// `npm start` (functions/local.ts) as a child process, for tests of what a user sees: its banner,
// its data directory across restarts, its exit codes.
import { spawn, type ChildProcess } from 'node:child_process'

export interface LocalProcess {
  readonly url: string
  readonly adminToken: string
  readonly stdout: () => string
  /** SIGTERM, then resolves once the process (and the DynamoDB Local it started) has exited. */
  stop(): Promise<void>
  /** SIGKILL: no shutdown at all; resolves once the process is gone. */
  kill(): Promise<void>
}

// One process, with tsx's loader in it: tsx's CLI would run the server as a child of its own, and a
// SIGKILL (kill() below) reaches only the CLI, leaving that child serving, and polling the table's
// stream, for the rest of the test run (it slowed every later file of its worker several times over).
const ENTRY = ['--import', 'tsx', 'functions/local.ts']

/** The environment of a child: this one, minus what would point it elsewhere, plus `env`. */
function childEnv(env: Record<string, string>): NodeJS.ProcessEnv {
  const base = { ...process.env }
  for (const name of ['DYNAMODB_ENDPOINT', 'ADMIN_TOKEN', 'TOKEN_HASH_SECRET', 'DATA_DIR', 'LOCAL_IN_MEMORY', 'TABLE_NAME', 'PORT']) delete base[name]
  return { ...base, PORT: '0', ...env }
}

/** Starts `npm start` with `env` and `args`; resolves once it prints its admin token (rejects if it exits first). */
export function startLocal(env: Record<string, string>, args: string[] = []): Promise<LocalProcess> {
  const child = spawn(process.execPath, [...ENTRY, ...args], { env: childEnv(env), stdio: ['ignore', 'pipe', 'pipe'] })
  let out = ''
  let err = ''
  child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()))
  child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()))
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL')
      reject(new Error(`npm start did not print its banner in 60 s: ${out}${err}`))
    }, 60_000)
    const early = (code: number | null) => {
      clearTimeout(timer)
      reject(new Error(`npm start exited with ${code}: ${out}${err}`))
    }
    child.once('exit', early)
    child.stdout.on('data', () => {
      const url = /Content API on (http:\/\/127\.0\.0\.1:\d+)/.exec(out)?.[1]
      const adminToken = /Admin token: (\S+)/.exec(out)?.[1]
      if (url === undefined || adminToken === undefined) return
      clearTimeout(timer)
      child.removeListener('exit', early)
      resolve({ url, adminToken, stdout: () => out, stop: () => stopChild(child, exited), kill: () => (child.kill('SIGKILL'), exited) })
    })
  })
}

async function stopChild(child: ChildProcess, exited: Promise<void>): Promise<void> {
  child.kill('SIGTERM')
  await exited
}

/** Runs `npm start` expecting it to fail: its exit code and stderr. */
export function failedStart(env: Record<string, string>, args: string[] = []): Promise<{ code: number | null; stderr: string; stdout: string }> {
  const child = spawn(process.execPath, [...ENTRY, ...args], { env: childEnv(env), stdio: ['ignore', 'pipe', 'pipe'] })
  let stdout = ''
  let stderr = ''
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()))
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
  const timer = setTimeout(() => child.kill('SIGKILL'), 30_000)
  return new Promise((resolve) => child.once('exit', (code) => {
    clearTimeout(timer)
    resolve({ code, stderr, stdout })
  }))
}
