// The one-time set-up of an AWS account (and region) for the content API, as code: GitHub's OIDC
// identity provider, one role per GitHub environment trusting exactly that environment's jobs on
// `main` of one repository, the account's CloudWatch role for API Gateway logs, and the scoped
// policy `cdk bootstrap` gives CloudFormation instead of AdministratorAccess.
import { Aws, BootstraplessSynthesizer, CfnOutput, Duration, Stack, Validations, type StackProps } from 'aws-cdk-lib'
import { CfnAccount } from 'aws-cdk-lib/aws-apigateway'
import { CfnOIDCProvider, FederatedPrincipal, ManagedPolicy, PolicyDocument, PolicyStatement, Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam'
import type { Construct } from 'constructs'
import { CDK_QUALIFIER, executionPolicyStatements, executionPolicyWildcards } from './execution-policy.js'

export const GITHUB_OIDC_HOST = 'token.actions.githubusercontent.com'
/** The name `cdk bootstrap --cloudformation-execution-policies` is given. */
export const EXECUTION_POLICY_NAME = 'content-api-cdk-execution'

/** A GitHub environment and what its jobs may do: `deploy` (the bootstrap roles) or `diff` (the read-only lookup role). */
export interface GitHubEnvironment {
  readonly name: string
  readonly role: 'deploy' | 'diff'
}

/** dev and production deploy; production-diff shows prod's `cdk diff` before a reviewer approves. */
export const GITHUB_ENVIRONMENTS: readonly GitHubEnvironment[] = [
  { name: 'dev', role: 'deploy' },
  { name: 'production', role: 'deploy' },
  { name: 'production-diff', role: 'diff' },
]

/**
 * The OIDC subject of a job in `environment` on `branch`: the repository's subject claim is customized
 * to include the ref (docs/deploy.md, One-time account set-up), so the branch is part of what the role trusts.
 */
export function githubSubject(repository: string, environment: string, branch: string): string {
  return `repo:${repository}:environment:${environment}:ref:refs/heads/${branch}`
}

export interface AccountStackProps extends StackProps {
  /** `owner/name` of the GitHub repository allowed to deploy. */
  readonly repository: string
  /** The only branch that may deploy. */
  readonly branch: string
  /** An existing GitHub OIDC provider's ARN (an account holds one per URL); created when absent. */
  readonly oidcProviderArn?: string
}

export class AccountStack extends Stack {
  /** The role of each GitHub environment, by environment name. */
  readonly roles = new Map<string, Role>()

  constructor(scope: Construct, id: string, props: AccountStackProps) {
    // Deployed with the caller's own credentials, before `cdk bootstrap` exists (no assets).
    super(scope, id, { ...props, synthesizer: new BootstraplessSynthesizer() })
    if (!/^[\w.-]+\/[\w.-]+$/.test(props.repository)) throw new Error(`repository must be owner/name, got '${props.repository}'`)
    const providerArn = props.oidcProviderArn ?? new CfnOIDCProvider(this, 'GitHubOidc', {
      url: `https://${GITHUB_OIDC_HOST}`,
      clientIdList: ['sts.amazonaws.com'],
    }).attrArn

    const bootstrapRole = (kind: string) => `arn:${Aws.PARTITION}:iam::${Aws.ACCOUNT_ID}:role/cdk-${CDK_QUALIFIER}-${kind}-role-${Aws.ACCOUNT_ID}-${Aws.REGION}`
    const assumable = { deploy: ['deploy', 'file-publishing', 'lookup'], diff: ['lookup'] }
    for (const environment of GITHUB_ENVIRONMENTS) {
      const role = new Role(this, `GitHub-${environment.name}`, {
        roleName: `content-api-github-${environment.name}`,
        description: `GitHub Actions, environment ${environment.name} of ${props.repository}, branch ${props.branch}`,
        maxSessionDuration: Duration.hours(1),
        assumedBy: new FederatedPrincipal(providerArn, {
          StringEquals: {
            [`${GITHUB_OIDC_HOST}:aud`]: 'sts.amazonaws.com',
            [`${GITHUB_OIDC_HOST}:sub`]: githubSubject(props.repository, environment.name, props.branch),
          },
        }, 'sts:AssumeRoleWithWebIdentity'),
        // Only the roles `cdk bootstrap` made: CloudFormation deploys with the execution policy below.
        inlinePolicies: {
          AssumeBootstrapRoles: new PolicyDocument({
            statements: [new PolicyStatement({ actions: ['sts:AssumeRole'], resources: assumable[environment.role].map(bootstrapRole) })],
          }),
        },
      })
      this.roles.set(environment.name, role)
      new CfnOutput(this, `RoleArn${environment.name.replace(/[^A-Za-z0-9]/g, '')}`, {
        value: role.roleArn,
        description: `AWS_DEPLOY_ROLE_ARN of the GitHub environment ${environment.name}`,
      })
    }

    // API Gateway writes access and execution logs with one role per account and region.
    const cloudWatchRole = new Role(this, 'ApiGatewayCloudWatchRole', {
      assumedBy: new ServicePrincipal('apigateway.amazonaws.com'),
      managedPolicies: [ManagedPolicy.fromAwsManagedPolicyName('service-role/AmazonAPIGatewayPushToCloudWatchLogs')],
    })
    Validations.of(cloudWatchRole).acknowledge({
      id: 'AwsSolutions::AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AmazonAPIGatewayPushToCloudWatchLogs]',
      reason: 'The AWS-maintained policy made for exactly this role (API Gateway pushing logs); it tracks the log actions API Gateway needs.',
    })
    new CfnAccount(this, 'ApiGatewayAccount', { cloudWatchRoleArn: cloudWatchRole.roleArn }).node.addDependency(cloudWatchRole)

    const execution = new ManagedPolicy(this, 'CdkExecutionPolicy', {
      managedPolicyName: EXECUTION_POLICY_NAME,
      description: 'What CloudFormation may do when it deploys ContentApi-* stacks (cdk bootstrap --cloudformation-execution-policies)',
      statements: executionPolicyStatements(),
    })
    for (const wildcard of executionPolicyWildcards()) {
      Validations.of(execution).acknowledge({
        id: `AwsSolutions::AwsSolutions-IAM5[${wildcard}]`,
        reason: 'CloudFormation creates and deletes these resources: every action of the service, on resources named after ContentApi-* stacks where the service names them so; secrets, API Gateway, WAF, CloudFront ids are generated, so those are scoped to the account and region.',
      })
    }
    new CfnOutput(this, 'ExecutionPolicyArn', { value: execution.managedPolicyArn, description: 'Pass to cdk bootstrap --cloudformation-execution-policies' })
  }
}
