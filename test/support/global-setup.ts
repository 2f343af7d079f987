// Starts one DynamoDB Local for the whole run (or uses DYNAMODB_ENDPOINT if it is on loopback);
// test files create their own tables in it.
import type { TestProject } from 'vitest/node'
import { javaProblem, startDynamoLocal, type LocalDynamo } from '../../lib/local/dynamodb-local.js'
import { assertLoopback } from './loopback.js'

declare module 'vitest' {
  export interface ProvidedContext {
    dynamoEndpoint: string
  }
}

let local: LocalDynamo | undefined

export async function setup(project: TestProject): Promise<void> {
  const given = process.env.DYNAMODB_ENDPOINT
  const problem = given === undefined || given === '' ? javaProblem() : undefined
  if (problem !== undefined) {
    // Thrown, this would read "No test files found" under a stack trace: say what is missing, stop.
    process.stderr.write(`\nCannot run the tests, which need DynamoDB Local: ${problem}\n\n`)
    process.exit(1)
  }
  const endpoint = given !== undefined && given !== '' ? given : (local = await startDynamoLocal()).endpoint
  assertLoopback(endpoint)
  project.provide('dynamoEndpoint', endpoint)
}

export async function teardown(): Promise<void> {
  await local?.stop()
}
