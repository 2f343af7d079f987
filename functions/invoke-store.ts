// Stands in for `@aws/lambda-invoke-store` in the Lambda bundles (an esbuild alias set in
// infra/content-api-stack.ts). The SDK's recursion detection middleware, its only user here, asks
// it for the invocation's store to read the trace id and trace context it forwards. The Lambda
// runtime puts its own store at `globalThis.awslambda.InvokeStore`, which the package returns when
// there is one; when there is none, the package makes an empty store, whose values are all
// undefined, and the middleware falls back to _X_AMZN_TRACE_ID: as it does with no store at all.
// About 2 KB of every bundle.

/** What the middleware reads of a store. */
interface Store {
  getXRayTraceId(): string | undefined
  getTraceparent?(): string | undefined
  getTracestate?(): string | undefined
  getBaggage?(): string | undefined
}

export const InvokeStore = {
  /** The Lambda runtime's store of the current invocation, if it set one. */
  async getInstanceAsync(): Promise<Store | undefined> {
    return (globalThis as { awslambda?: { InvokeStore?: Store } }).awslambda?.InvokeStore
  },
}
