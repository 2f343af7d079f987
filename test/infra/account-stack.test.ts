// The one-time account set-up: one role per GitHub environment, each trusting exactly its own
// subject (repository, environment, main branch) and allowed only the bootstrap roles its job needs;
// the API Gateway CloudWatch role; the scoped CDK execution policy.
import { App } from 'aws-cdk-lib'
import { Template } from 'aws-cdk-lib/assertions'
import { describe, expect, it } from 'vitest'
import { AccountStack, EXECUTION_POLICY_NAME, GITHUB_ENVIRONMENTS } from '../../infra/account-stack.js'
import { ofType, type Resources } from './synth.js'

const build = (props: Partial<ConstructorParameters<typeof AccountStack>[2]> = {}) => {
  const stack = new AccountStack(new App(), 'Account', { repository: 'octo/content-api', branch: 'main', ...props })
  return { stack, resources: Template.fromStack(stack).toJSON().Resources as Resources }
}
const { stack, resources } = build()
const roleOf = (environment: string) => resources[stack.getLogicalId(stack.roles.get(environment)!.node.defaultChild as any)]!.Properties

describe('GitHub deploy roles', () => {
  it('has one role per environment: dev, production, production-diff', () => {
    expect([...stack.roles.keys()]).toEqual(['dev', 'production', 'production-diff'])
    expect(GITHUB_ENVIRONMENTS.map((e) => e.name)).toEqual([...stack.roles.keys()])
  })

  it.each(['dev', 'production', 'production-diff'])('trusts exactly the %s environment of the repository, on main, through the GitHub OIDC provider', (environment) => {
    const [statement, ...others] = roleOf(environment).AssumeRolePolicyDocument.Statement
    expect(others).toEqual([])
    expect(statement).toEqual({
      Effect: 'Allow',
      Action: 'sts:AssumeRoleWithWebIdentity',
      Principal: { Federated: { 'Fn::GetAtt': [ofType(resources, 'AWS::IAM::OIDCProvider')[0]![0], 'Arn'] } },
      Condition: {
        StringEquals: {
          'token.actions.githubusercontent.com:aud': 'sts.amazonaws.com',
          'token.actions.githubusercontent.com:sub': `repo:octo/content-api:environment:${environment}:ref:refs/heads/main`,
        },
      },
    })
    expect(roleOf(environment).MaxSessionDuration).toBe(3600)
  })

  it.each([
    ['dev', ['deploy', 'file-publishing', 'lookup']],
    ['production', ['deploy', 'file-publishing', 'lookup']],
    ['production-diff', ['lookup']],
  ])('lets %s assume only the bootstrap roles %j', (environment, kinds) => {
    const [policy, ...others] = roleOf(environment).Policies
    expect(others).toEqual([])
    const [statement, ...more] = policy.PolicyDocument.Statement
    expect(more).toEqual([])
    expect(statement.Action).toBe('sts:AssumeRole')
    const names = [statement.Resource].flat().map((r: any) => /role\/cdk-hnb659fds-([a-z-]+)-role-/.exec(JSON.stringify(r))?.[1])
    expect(names).toEqual(kinds)
    expect(roleOf(environment).ManagedPolicyArns).toBeUndefined()
  })

  it('creates the GitHub OIDC provider, or uses the one given', () => {
    expect(ofType(resources, 'AWS::IAM::OIDCProvider').map(([, p]) => p.Properties)).toEqual([{ Url: 'https://token.actions.githubusercontent.com', ClientIdList: ['sts.amazonaws.com'] }])
    const given = build({ oidcProviderArn: 'arn:aws:iam::111111111111:oidc-provider/token.actions.githubusercontent.com' })
    expect(ofType(given.resources, 'AWS::IAM::OIDCProvider')).toEqual([])
    expect(JSON.stringify(given.resources)).toContain('oidc-provider/token.actions.githubusercontent.com')
  })

  it('refuses a repository that is not owner/name', () => {
    expect(() => build({ repository: 'octo' })).toThrow(/owner\/name/)
  })
})

describe('account settings', () => {
  it('sets the API Gateway CloudWatch role of the account (access and execution logs need it)', () => {
    const [, account] = ofType(resources, 'AWS::ApiGateway::Account')[0]!
    const roleId = account.Properties.CloudWatchRoleArn['Fn::GetAtt'][0]
    expect(resources[roleId]!.Properties.AssumeRolePolicyDocument.Statement[0].Principal).toEqual({ Service: 'apigateway.amazonaws.com' })
  })

  it('defines the CDK execution policy by name, with no action on IAM beyond roles named ContentApi-*', () => {
    const [, policy] = ofType(resources, 'AWS::IAM::ManagedPolicy')[0]!
    expect(policy.Properties.ManagedPolicyName).toBe(EXECUTION_POLICY_NAME)
    const statements = policy.Properties.PolicyDocument.Statement as any[]
    expect(statements.some((s) => [s.Action].flat().some((a: string) => a === '*' || a === 'iam:*'))).toBe(false)
    const iam = statements.filter((s) => [s.Action].flat().some((a: string) => a.startsWith('iam:')))
    expect(iam).toHaveLength(1)
    expect(JSON.stringify(iam[0].Resource)).toMatch(/:role\/ContentApi-\*"\]\]\}$/)
    // Only the password generator has no resource to scope to.
    expect(statements.filter((s) => s.Resource === '*').map((s) => s.Action)).toEqual(['secretsmanager:GetRandomPassword'])
  })

  it('needs no bootstrap to deploy (it comes before cdk bootstrap)', () => {
    expect(Template.fromStack(stack).toJSON().Rules?.CheckBootstrapVersion).toBeUndefined()
    expect(Template.fromStack(stack).toJSON().Parameters?.BootstrapVersion).toBeUndefined()
  })
})
