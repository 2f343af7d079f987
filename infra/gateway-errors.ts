// Errors API Gateway answers itself, before or instead of a function: an unknown path, throttling,
// an oversized body, a function that crashed or timed out. Each one gets the API's error envelope
// `{ data: null, error: { status, name, message, details: {} } }` with the status it is sent with.
import { ResponseType } from 'aws-cdk-lib/aws-apigateway'

export interface GatewayError {
  readonly type: ResponseType
  readonly status: number
  readonly name: string
  readonly message: string
  /** Response headers besides Content-Type and CORS, as header name -> value. */
  readonly headers?: Readonly<Record<string, string>>
}

/** Seconds a throttled client is told to wait: API Gateway's token bucket refills every second. */
export const THROTTLE_RETRY_AFTER = '1'

export const GATEWAY_ERRORS: readonly GatewayError[] = [
  // A REST API answers a path (or method) without a resource with this type, as a 403.
  { type: ResponseType.MISSING_AUTHENTICATION_TOKEN, status: 404, name: 'NotFoundError', message: 'Not Found' },
  { type: ResponseType.RESOURCE_NOT_FOUND, status: 404, name: 'NotFoundError', message: 'Not Found' },
  { type: ResponseType.ACCESS_DENIED, status: 403, name: 'ForbiddenError', message: 'Forbidden' },
  { type: ResponseType.REQUEST_TOO_LARGE, status: 413, name: 'PayloadTooLargeError', message: 'Request is too large' },
  { type: ResponseType.UNSUPPORTED_MEDIA_TYPE, status: 415, name: 'UnsupportedMediaTypeError', message: 'Unsupported Media Type' },
  { type: ResponseType.THROTTLED, status: 429, name: 'TooManyRequestsError', message: 'Too Many Requests', headers: { 'Retry-After': THROTTLE_RETRY_AFTER } },
  { type: ResponseType.QUOTA_EXCEEDED, status: 429, name: 'TooManyRequestsError', message: 'Too Many Requests', headers: { 'Retry-After': THROTTLE_RETRY_AFTER } },
  { type: ResponseType.INTEGRATION_TIMEOUT, status: 504, name: 'GatewayTimeoutError', message: 'Gateway Timeout' },
  // Setting a status on a DEFAULT_ type applies it to every type of its class not listed above.
  // Any other 4XX the gateway produces (a malformed request, a bad API key): not a validation of the body.
  { type: ResponseType.DEFAULT_4XX, status: 400, name: 'BadRequestError', message: 'Bad Request' },
  { type: ResponseType.DEFAULT_5XX, status: 502, name: 'BadGatewayError', message: 'Bad Gateway' },
]

/** The response body of a gateway error: plain JSON, no template variables. */
export function gatewayErrorBody(error: GatewayError): string {
  return JSON.stringify({ data: null, error: { status: error.status, name: error.name, message: error.message, details: {} } })
}
