// Synthesizes the content API stack for the infra tests (bundling skipped, cdk.json's context) and
// reads the template: resources by type, routes, and the policy statements of a function's role.
import { readFileSync } from 'node:fs'
import { App } from 'aws-cdk-lib'
import { Template } from 'aws-cdk-lib/assertions'
import type { CfnFunction } from 'aws-cdk-lib/aws-lambda'
import type { CfnSecret } from 'aws-cdk-lib/aws-secretsmanager'
import { ContentApiStack } from '../../infra/content-api-stack.js'
import { stageFromContext } from '../../infra/stage-config.js'

export type Resources = Record<string, { Type: string; Properties: any; DeletionPolicy?: string; UpdateReplacePolicy?: string }>

export const cdkJsonContext = JSON.parse(readFileSync(new URL('../../cdk.json', import.meta.url), 'utf8')).context as Record<string, unknown>

/** Synthesizes the stack of `stage` with cdk.json's context plus `context`, without bundling; `outdir` keeps the assembly. */
export function synth(stage: string, context: Record<string, unknown> = {}, outdir?: string, contentTypesDir?: string) {
  const app = new App({ outdir, context: { ...cdkJsonContext, ...context, stage, 'aws:cdk:bundling-stacks': [] } })
  const stack = new ContentApiStack(app, `Test-${stage}`, { stage: stageFromContext((key) => app.node.tryGetContext(key)), contentTypesDir })
  const template = Template.fromStack(stack)
  const logicalId = (entry: string) => {
    const fn = stack.functions.get(entry)
    if (fn === undefined) throw new Error(`no function for ${entry}`)
    return stack.getLogicalId(fn.node.defaultChild as CfnFunction)
  }
  /** The logical id of the stack's construct `id` (AdminTokenSecret, TokenHashKeySecret, MediaBucket, MediaCdn...). */
  const childId = (id: string) => stack.getLogicalId(stack.node.findChild(id).node.defaultChild as CfnSecret)
  return { app, stack, template, resources: template.toJSON().Resources as Resources, logicalId, secretId: childId, childId }
}

export function ofType(resources: Resources, type: string) {
  return Object.entries(resources).filter(([, resource]) => resource.Type === type)
}

/** Every proxy route of the REST API as `METHOD /path -> function logical id`. */
export function routes(resources: Resources): string[] {
  const path = (ref: any): string => {
    if (ref['Fn::GetAtt']?.[1] === 'RootResourceId') return ''
    const resource = resources[ref.Ref]!
    return `${path(resource.Properties.ParentId)}/${resource.Properties.PathPart}`
  }
  return ofType(resources, 'AWS::ApiGateway::Method')
    .filter(([, method]) => method.Properties.Integration?.Type === 'AWS_PROXY')
    .map(([, method]) => {
      const target = /"Fn::GetAtt":\["(\w+)","Arn"\]/.exec(JSON.stringify(method.Properties.Integration.Uri))?.[1]
      return `${method.Properties.HttpMethod} ${path(method.Properties.ResourceId)} -> ${target}`
    })
    .sort()
}

/** The policy statements attached to a function's role. */
export function statementsOf(resources: Resources, functionId: string): any[] {
  const roleId = resources[functionId]!.Properties.Role['Fn::GetAtt'][0]
  return ofType(resources, 'AWS::IAM::Policy')
    .filter(([, policy]) => policy.Properties.Roles.some((role: any) => role.Ref === roleId))
    .flatMap(([, policy]) => policy.Properties.PolicyDocument.Statement)
}

export const tableId = (resources: Resources) => ofType(resources, 'AWS::DynamoDB::Table')[0]![0]
export const tableArn = (resources: Resources) => ({ 'Fn::GetAtt': [tableId(resources), 'Arn'] })
export const indexArn = (resources: Resources, name: string) => ({ 'Fn::Join': ['', [tableArn(resources), `/index/${name}`]] })
export const actionsOf = (statement: any): string[] => [statement.Action].flat().sort()
