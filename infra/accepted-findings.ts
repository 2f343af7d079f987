// The cdk-nag (AwsSolutions) findings this stack accepts, each acknowledged on the construct it is
// about, with the reason. test/infra/nag.test.ts runs the pack and fails on any finding not listed here.
import { Validations, type CfnElement, type Stack } from 'aws-cdk-lib'
import type { RestApi } from 'aws-cdk-lib/aws-apigateway'
import type { IConstruct } from 'constructs'
import type { StageSettings } from './stage-config.js'

/** cdk-nag's rule id for `Validations.acknowledge` (plugin name, then rule). */
const rule = (id: string) => `AwsSolutions::AwsSolutions-${id}`

/** Why each accepted rule does not apply, by rule. */
export const ACCEPTED: Readonly<Record<string, string>> = {
  SMG4: 'Rotating the admin token or the token hash key is a manual, documented step (docs/operations.md, Secrets on AWS): rotating the hash key invalidates every API token, so it must never happen on a schedule.',
  APIG2: 'Every function parses and validates its own input (qs + valibot) and answers 4xx in the error envelope; a gateway model would duplicate that and answer in another shape.',
  APIG4: 'Authorization is the API\'s own: bearer API tokens and the public role, checked by each function (Strapi semantics); anonymous reads are allowed on purpose.',
  COG4: 'No end users in Cognito: clients hold API tokens the admin API issues.',
  L1: 'Node.js 22 is the runtime the bundles target (node22) and the tests and the benchmark run; moving to a newer runtime moves all three together.',
  APIG3: 'No web ACL on this stage (waf.rateLimit is 0): a stage for development; the stage throttles still apply. Set waf.rateLimit to add one.',
  CFR1: 'Content is public and served worldwide on purpose: no geo restriction.',
  CFR2: 'The per-IP rate rule sits on the API stage (waf.rateLimit); a CloudFront-scoped web ACL must live in us-east-1, outside this stack.',
  CFR3: 'The API stage writes an access log line for every request that reaches it; CloudFront standard logs need an S3 bucket this stack does not keep.',
  SQS3: 'This queue is itself a dead-letter destination: the on-failure queue of the webhook stream mapping, where stream batches that failed every retry are kept for an operator.',
  'IAM5[Resource::*]': 'dynamodb:ListStreams, which the stream event source mapping needs, cannot be scoped to a resource (AWS requires "*"); reading the records is granted on the table\'s stream only.',
  CFR4: 'The default *.cloudfront.net certificate; TLS 1.2 minimum needs a custom domain and certificate, which a deployment adds with its own domain.',
  S1: 'The media bucket is read only through CloudFront (origin access control) and written only by the upload function and the admin media function, whose every request the API stage logs; S3 server access logs would need another bucket.',
  IAM5: 'The upload and admin media functions write, read and delete objects under the media bucket\'s uploads/ and incoming/ prefixes only: their keys are content hashes and upload ids made at request time, so the prefix is the narrowest resource.',
}

function accept(scope: IConstruct, ...ids: string[]): void {
  for (const id of ids) Validations.of(scope).acknowledge({ id: rule(id), reason: ACCEPTED[id]! })
}

/** Acknowledges the accepted findings on `stack`'s constructs; `api` is its REST API. */
export function acceptFindings(stack: Stack, api: RestApi, functions: Iterable<IConstruct>, settings: StageSettings): void {
  for (const id of ['AdminTokenSecret', 'TokenHashKeySecret']) accept(stack.node.findChild(id), 'SMG4')
  accept(api, 'APIG2')
  for (const method of api.methods) accept(method, 'APIG4', 'COG4')
  for (const fn of functions) accept(fn, 'L1')
  if (settings.waf.rateLimit === 0) accept(api.deploymentStage, 'APIG3')
  const failures = stack.node.tryFindChild('WebhookStreamFailures')
  if (failures !== undefined) accept(failures, 'SQS3')
  const streamRole = stack.node.tryFindChild('WebhookStreamFunctionRole')
  if (streamRole !== undefined) accept(streamRole, 'IAM5[Resource::*]')
  for (const id of ['Cdn', 'MediaCdn']) {
    const cdn = stack.node.tryFindChild(id)
    if (cdn !== undefined) accept(cdn, 'CFR1', 'CFR2', 'CFR3', 'CFR4')
  }
  const bucket = stack.node.tryFindChild('MediaBucket')
  if (bucket !== undefined) accept(bucket, 'S1')
  for (const id of ['UploadFunctionRole', 'AdminMediaFunctionRole']) {
    const uploadRole = stack.node.tryFindChild(id)
    if (bucket === undefined || uploadRole === undefined) continue
    // IAM5 is reported per wildcard resource, named by the bucket's logical id.
    const arn = `<${stack.getLogicalId(bucket.node.defaultChild as CfnElement)}.Arn>`
    for (const prefix of ['uploads', 'incoming']) Validations.of(uploadRole).acknowledge({ id: rule(`IAM5[Resource::${arn}/${prefix}/*]`), reason: ACCEPTED.IAM5! })
  }
}
