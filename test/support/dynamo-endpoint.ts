// The DynamoDB Local this test worker uses: global-setup.ts starts one per worker.
import { inject } from 'vitest'

/** This worker's DynamoDB endpoint (every file of a worker shares it; each makes its own tables). */
export function dynamoEndpoint(): string {
  const endpoints = inject('dynamoEndpoints')
  const worker = Number(process.env.VITEST_POOL_ID ?? 1)
  return endpoints[(Math.max(1, worker) - 1) % endpoints.length] as string
}
