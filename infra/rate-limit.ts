// Limits per client at the edge of a stage: an AWS WAF web ACL whose rate-based rule answers a
// client IP that sends more than `limit` requests in 5 minutes with a 429 in the API's error
// envelope and a Retry-After, associated with the API Gateway stage.
import { CfnWebACL, CfnWebACLAssociation } from 'aws-cdk-lib/aws-wafv2'
import type { Stage } from 'aws-cdk-lib/aws-apigateway'
import type { Construct } from 'constructs'

/** Seconds a client blocked by the rate rule is told to wait (WAF re-evaluates the rate continuously). */
export const WAF_RETRY_AFTER = '60'

/** The per-IP rate rule's name, also its CloudWatch metric. */
export const RATE_RULE = 'PerIpRateLimit'

const BODY_KEY = 'TooManyRequests'

/** The web ACL limiting each IP to `limit` requests per 5 minutes on `stage`. */
export function createRateLimitAcl(scope: Construct, stage: Stage, limit: number): CfnWebACL {
  const body = { data: null, error: { status: 429, name: 'TooManyRequestsError', message: 'Too Many Requests', details: {} } }
  const acl = new CfnWebACL(scope, 'WebAcl', {
    scope: 'REGIONAL',
    defaultAction: { allow: {} },
    visibilityConfig: { cloudWatchMetricsEnabled: true, metricName: 'ContentApiWebAcl', sampledRequestsEnabled: true },
    customResponseBodies: { [BODY_KEY]: { contentType: 'APPLICATION_JSON', content: JSON.stringify(body) } },
    rules: [{
      name: RATE_RULE,
      priority: 0,
      statement: { rateBasedStatement: { limit, aggregateKeyType: 'IP', evaluationWindowSec: 300 } },
      action: {
        block: {
          customResponse: {
            responseCode: 429,
            customResponseBodyKey: BODY_KEY,
            responseHeaders: [{ name: 'Retry-After', value: WAF_RETRY_AFTER }, { name: 'Access-Control-Allow-Origin', value: '*' }],
          },
        },
      },
      visibilityConfig: { cloudWatchMetricsEnabled: true, metricName: RATE_RULE, sampledRequestsEnabled: true },
    }],
  })
  const association = new CfnWebACLAssociation(scope, 'WebAclAssociation', { resourceArn: stage.stageArn, webAclArn: acl.attrArn })
  // The stage ARN is built from names, not a reference: wait for the stage to exist.
  association.node.addDependency(stage)
  return acl
}
