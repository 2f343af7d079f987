// The REST API of a stage, without its routes: a regional endpoint, a JSON access log line per
// request and the gateway's own errors in the execution log, the stage throttle and a much lower
// one on `/admin/*`, CORS preflights answered by the gateway, and its own error answers in the
// API's error envelope (gateway-errors.ts).
import { Duration, Size, type RemovalPolicy } from 'aws-cdk-lib'
import { AccessLogFormat, Cors, EndpointType, LogGroupLogDestination, MethodLoggingLevel, RestApi } from 'aws-cdk-lib/aws-apigateway'
import { LogGroup } from 'aws-cdk-lib/aws-logs'
import type { Construct } from 'constructs'
import { GATEWAY_ERRORS, gatewayErrorBody } from './gateway-errors.js'
import type { StageSettings } from './stage-config.js'

/** Request headers browsers may send cross-origin, as lib/http.ts allows on the actual requests. */
const CORS_HEADERS = ['Authorization', 'Content-Type', 'If-Match']

/** The `/admin/*` resource, throttled apart from the content routes. */
export const ADMIN_PATH = '/admin/{proxy+}'
/** `/admin` itself (the admin web interface's first page), throttled as `/admin/*`. */
export const ADMIN_ROOT = '/admin'
/** The admin pages that upload, routed to the admin media function: throttled as `/admin/*`. */
export const ADMIN_UPLOAD_PAGES = ['/admin/media', '/admin/content'] as const
/** Every admin resource: each needs the admin throttle of its own (a stage setting names one resource). */
const ADMIN_RESOURCES = [ADMIN_PATH, ADMIN_ROOT, ...ADMIN_UPLOAD_PAGES.flatMap((page) => [page, `${page}/{proxy+}`])]

/** The REST API of `stage`, its deployment stage named after it. */
export function createRestApi(scope: Construct, stage: string, settings: StageSettings, removalPolicy: RemovalPolicy): RestApi {
  const accessLogs = new LogGroup(scope, 'ApiAccessLogs', { retention: settings.logRetentionDays, removalPolicy })
  const throttle = settings.throttle
  const api = new RestApi(scope, 'Api', {
    restApiName: `content-api-${stage}`,
    description: `Localized content API (${stage})`,
    // Clients are anywhere; a regional endpoint avoids the hidden CloudFront hop of EDGE.
    endpointConfiguration: { types: [EndpointType.REGIONAL] },
    // The account-wide API Gateway logging role is a singleton: infra/account-stack.ts sets it.
    cloudWatchRole: false,
    // List pages of JSON compress well; tiny bodies are not worth the gzip.
    minCompressionSize: Size.kibibytes(1),
    // Uploads (content-model.md §19): their bodies reach the function as bytes (base64), not as text.
    binaryMediaTypes: ['multipart/form-data'],
    deployOptions: {
      stageName: stage,
      throttlingRateLimit: throttle.rateLimit,
      throttlingBurstLimit: throttle.burstLimit,
      // One JSON line per request (who, what, status, latency); errors of the gateway itself, no bodies.
      accessLogDestination: new LogGroupLogDestination(accessLogs),
      accessLogFormat: AccessLogFormat.jsonWithStandardFields(),
      loggingLevel: MethodLoggingLevel.ERROR,
      dataTraceEnabled: false,
      methodOptions: Object.fromEntries(ADMIN_RESOURCES.map((resource) => [`${resource}/*`, { throttlingRateLimit: throttle.adminRateLimit, throttlingBurstLimit: throttle.adminBurstLimit, loggingLevel: MethodLoggingLevel.ERROR }])),
    },
    // Preflights are answered by API Gateway itself (no function invocation).
    defaultCorsPreflightOptions: {
      allowOrigins: Cors.ALL_ORIGINS,
      allowMethods: ['GET', 'POST', 'PUT', 'DELETE', 'OPTIONS'],
      allowHeaders: CORS_HEADERS,
      maxAge: Duration.minutes(10),
    },
  })
  for (const error of GATEWAY_ERRORS) {
    api.addGatewayResponse(`Gateway${error.type.responseType}`, {
      type: error.type,
      statusCode: String(error.status),
      responseHeaders: {
        'Content-Type': "'application/json'",
        'Access-Control-Allow-Origin': "'*'",
        ...Object.fromEntries(Object.entries(error.headers ?? {}).map(([name, value]) => [name, `'${value}'`])),
      },
      templates: { 'application/json': gatewayErrorBody(error) },
    })
  }
  return api
}
