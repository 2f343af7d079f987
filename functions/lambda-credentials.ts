// Stands in for `@aws-sdk/credential-provider-node` in the Lambda bundles (an esbuild alias set in
// infra/content-api-stack.ts). On Lambda the execution role's credentials are always in the
// environment, so the SDK's full default chain (SSO, ini files, process, IMDS, web identity: about
// 130 KB of bundle, parsed on every cold start) would never get past its first link.
export { fromEnv as defaultProvider } from '@aws-sdk/credential-provider-env'
