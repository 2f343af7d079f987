// The permissions CloudFormation (the `cdk bootstrap` execution role) needs to deploy and delete a
// ContentApi-<stage> stack: the services infra/content-api-stack.ts uses, scoped to resources named
// after the stack where the service allows, instead of AdministratorAccess.
import { Aws } from 'aws-cdk-lib'
import { PolicyStatement } from 'aws-cdk-lib/aws-iam'

/** The default qualifier of `cdk bootstrap`'s roles, bucket and parameter. */
export const CDK_QUALIFIER = 'hnb659fds'

/** Names CloudFormation gives resources of a stack: `<stack name>-<logical id>-<suffix>`. */
const STACK_PREFIX = 'ContentApi-'

/** Where the policy applies: the deploying account's tokens, or cdk-nag's placeholders for them. */
export interface PolicyScope {
  readonly partition: string
  readonly region: string
  readonly account: string
}

export const DEPLOYING_ACCOUNT: PolicyScope = { partition: Aws.PARTITION, region: Aws.REGION, account: Aws.ACCOUNT_ID }

/** The statements of the execution policy. */
export function executionPolicyStatements({ partition, region: stackRegion, account }: PolicyScope = DEPLOYING_ACCOUNT): PolicyStatement[] {
  const arn = (service: string, resource: string, region: string = stackRegion) => `arn:${partition}:${service}:${region}:${account}:${resource}`
  return [
    new PolicyStatement({ sid: 'Table', actions: ['dynamodb:*'], resources: [arn('dynamodb', `table/${STACK_PREFIX}*`)] }),
    new PolicyStatement({ sid: 'Functions', actions: ['lambda:*'], resources: [arn('lambda', `function:${STACK_PREFIX}*`)] }),
    new PolicyStatement({
      sid: 'Logs',
      actions: ['logs:*'],
      resources: [arn('logs', `log-group:${STACK_PREFIX}*`), arn('logs', `log-group:${STACK_PREFIX}*:*`)],
    }),
    new PolicyStatement({ sid: 'DescribeLogs', actions: ['logs:DescribeLogGroups'], resources: [arn('logs', 'log-group:*')] }),
    new PolicyStatement({
      sid: 'FunctionRoles',
      actions: [
        'iam:CreateRole', 'iam:DeleteRole', 'iam:GetRole', 'iam:TagRole', 'iam:UntagRole', 'iam:UpdateRole',
        'iam:UpdateAssumeRolePolicy', 'iam:PutRolePolicy', 'iam:DeleteRolePolicy', 'iam:GetRolePolicy', 'iam:PassRole',
        'iam:ListRolePolicies', 'iam:ListAttachedRolePolicies', 'iam:ListRoleTags',
      ],
      resources: [`arn:${partition}:iam::${account}:role/${STACK_PREFIX}*`],
    }),
    new PolicyStatement({ sid: 'Secrets', actions: ['secretsmanager:*'], resources: [arn('secretsmanager', 'secret:*')] }),
    new PolicyStatement({ sid: 'RandomPassword', actions: ['secretsmanager:GetRandomPassword'], resources: ['*'] }),
    new PolicyStatement({
      sid: 'Api',
      actions: ['apigateway:GET', 'apigateway:POST', 'apigateway:PUT', 'apigateway:PATCH', 'apigateway:DELETE', 'apigateway:SetWebACL'],
      resources: [`arn:${partition}:apigateway:${stackRegion}::/*`],
    }),
    new PolicyStatement({ sid: 'WebAcl', actions: ['wafv2:*'], resources: [arn('wafv2', 'regional/*')] }),
    new PolicyStatement({
      sid: 'Cdn',
      actions: ['cloudfront:*'],
      resources: [arn('cloudfront', 'distribution/*', ''), arn('cloudfront', 'cache-policy/*', ''), arn('cloudfront', 'origin-request-policy/*', '')],
    }),
    new PolicyStatement({ sid: 'Budget', actions: ['budgets:*'], resources: [`arn:${partition}:budgets::${account}:budget/content-api-*`] }),
    new PolicyStatement({ sid: 'BootstrapVersion', actions: ['ssm:GetParameters'], resources: [arn('ssm', `parameter/cdk-bootstrap/${CDK_QUALIFIER}/*`)] }),
    new PolicyStatement({
      sid: 'FunctionCode',
      actions: ['s3:GetObject'],
      resources: [`arn:${partition}:s3:::cdk-${CDK_QUALIFIER}-assets-${account}-${stackRegion}/*`],
    }),
  ]
}

/** The wildcards of the policy as cdk-nag names its IAM5 findings (`Action::lambda:*`, `Resource::arn:<AWS::Partition>:...`). */
export function executionPolicyWildcards(): string[] {
  const placeholders = { partition: '<AWS::Partition>', region: '<AWS::Region>', account: '<AWS::AccountId>' }
  const found = new Set<string>()
  for (const statement of executionPolicyStatements(placeholders)) {
    const json = statement.toStatementJson() as { Action: string | string[]; Resource: string | string[] }
    for (const action of [json.Action].flat()) if (action.includes('*')) found.add(`Action::${action}`)
    for (const resource of [json.Resource].flat()) if (resource.includes('*')) found.add(`Resource::${resource}`)
  }
  return [...found]
}
