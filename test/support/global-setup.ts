// Starts one DynamoDB Local per test worker for the whole run (or uses DYNAMODB_ENDPOINT if it is on
// loopback); test files create their own tables in their worker's one (dynamo-endpoint.ts).
// DynamoDB Local does its storage work on one thread, so a worker waiting on another's calls
// would wait behind them: one each lets both cores work.
import type { TestProject } from 'vitest/node'
import { javaProblem, startDynamoLocal, type LocalDynamo } from '../../lib/local/dynamodb-local.js'
import { assertLoopback } from './loopback.js'

declare module 'vitest' {
  export interface ProvidedContext {
    /** One endpoint per worker (VITEST_POOL_ID 1, 2, ...), or the one given in DYNAMODB_ENDPOINT. */
    dynamoEndpoints: string[]
  }
}

const locals: LocalDynamo[] = []

export async function setup(project: TestProject): Promise<void> {
  const given = process.env.DYNAMODB_ENDPOINT
  const problem = given === undefined || given === '' ? javaProblem() : undefined
  if (problem !== undefined) {
    // Thrown, this would read "No test files found" under a stack trace: say what is missing, stop.
    process.stderr.write(`\nCannot run the tests, which need DynamoDB Local: ${problem}\n\n`)
    process.exit(1)
  }
  let endpoints: string[]
  if (given !== undefined && given !== '') {
    endpoints = [given]
  } else {
    const started = await Promise.allSettled(Array.from({ length: Math.max(1, project.globalConfig.maxWorkers) }, () => startDynamoLocal()))
    for (const result of started) if (result.status === 'fulfilled') locals.push(result.value)
    const failed = started.find((result) => result.status === 'rejected')
    if (failed !== undefined) {
      await teardown()
      throw failed.reason
    }
    endpoints = locals.map((local) => local.endpoint)
  }
  endpoints.forEach(assertLoopback)
  project.provide('dynamoEndpoints', endpoints)
}

export async function teardown(): Promise<void> {
  await Promise.all(locals.splice(0).map((local) => local.stop()))
}
