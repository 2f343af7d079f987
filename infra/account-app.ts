// The CDK app of the one-time account set-up (docs/deploy.md, One-time account set-up): run once per account and region by
// an administrator, before `cdk bootstrap`:
// npx cdk --app 'npx tsx infra/account-app.ts' deploy --context repository=owner/name
import { App, Tags } from 'aws-cdk-lib'
import { AccountStack } from './account-stack.js'

const app = new App()
const context = (key: string) => app.node.tryGetContext(key) as string | undefined
const stack = new AccountStack(app, 'ContentApi-account', {
  repository: context('repository') ?? 'OWNER/REPOSITORY',
  branch: context('branch') ?? 'main',
  oidcProviderArn: context('oidcProviderArn'),
  description: 'GitHub OIDC deploy roles, API Gateway CloudWatch role and CDK execution policy of the content API',
})
Tags.of(stack).add('project', 'content-api')
