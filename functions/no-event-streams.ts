// Stands in for `@smithy/core/event-streams` in the Lambda bundles (an esbuild alias set in
// infra/content-api-stack.ts). The SDK imports it only for an operation with an event stream, and
// neither DynamoDB's nor Secrets Manager's operations have one: about 13 KB of every bundle.
function unsupported(): never {
  throw new Error('Event streams are not bundled (functions/no-event-streams.ts)')
}

export class EventStreamSerde {
  constructor() {
    unsupported()
  }
}

export const eventStreamSerdeProvider = unsupported
