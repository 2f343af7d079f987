// Starts one DynamoDB Local for the whole run (or uses DYNAMODB_ENDPOINT if it is on loopback);
// test files create their own tables in it.
import type { TestProject } from 'vitest/node'
import { startDynamoLocal, type LocalDynamo } from '../../lib/local/dynamodb-local.js'
import { assertLoopback } from './loopback.js'

declare module 'vitest' {
  export interface ProvidedContext {
    dynamoEndpoint: string
  }
}

let local: LocalDynamo | undefined

export async function setup(project: TestProject): Promise<void> {
  const given = process.env.DYNAMODB_ENDPOINT
  const endpoint = given !== undefined && given !== '' ? given : (local = await startDynamoLocal()).endpoint
  assertLoopback(endpoint)
  project.provide('dynamoEndpoint', endpoint)
}

export async function teardown(): Promise<void> {
  await local?.stop()
}
