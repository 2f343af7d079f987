// The Lambda handler of an app behind API Gateway: the proxy event as a Request, the app's Response
// as the proxy result, for a REST API (payload format 1.0, what the stack deploys) and an HTTP API
// (payload 2.0). It does what hono/aws-lambda's `handle` does for those two, line for line;
// hono/aws-lambda also reads formats no API Gateway sends (ALB, VPC Lattice) and streams responses,
// and was 4.8 KB of every bundle, against about 1.5 KB here (it is deprecated for Hono 5 besides).
import type { APIGatewayProxyEvent, APIGatewayProxyEventV2, APIGatewayProxyResult, APIGatewayProxyStructuredResultV2, Context as LambdaContext } from 'aws-lambda'
import { decodeBase64, encodeBase64 } from 'hono/utils/encode'

type Event = APIGatewayProxyEvent | APIGatewayProxyEventV2
type Result = APIGatewayProxyResult & Pick<APIGatewayProxyStructuredResultV2, 'cookies'>

/** What the handler needs of an app: Hono's `fetch`, given the event as its `env`. */
interface App {
  fetch(request: Request, env: { event: Event; requestContext: Event['requestContext']; lambdaContext: LambdaContext }): Response | Promise<Response>
}

/** An HTTP API's event (payload 2.0): its raw path and its request context's `http`. */
const isV2 = (event: Event): event is APIGatewayProxyEventV2 => Object.hasOwn(event, 'rawPath') && Object.hasOwn(event.requestContext ?? {}, 'http')

type Values = Record<string, string | undefined> | Record<string, string[] | undefined> | null | undefined

/** A header's (first) value under exactly `key`. */
function headerOf(headers: Values, key: string): string | undefined {
  const value = headers?.[key]
  return Array.isArray(value) ? value[0] : value
}

/** Header values with characters past ASCII, which Headers refuses, percent-encoded. */
function sanitized(value: string): string {
  return /[^\x00-\x7F]/.test(value) ? encodeURIComponent(value) : value
}

/** The query string: every value of each parameter when the event has them all, else one per parameter. */
function queryOf(event: APIGatewayProxyEvent): string {
  const pair = (key: string, value: string) => `${encodeURIComponent(key)}=${encodeURIComponent(value)}`
  if (event.multiValueQueryStringParameters) {
    return Object.entries(event.multiValueQueryStringParameters).filter(([, values]) => values).map(([key, values]) => values!.map((value) => pair(key, value)).join('&')).join('&')
  }
  return Object.entries(event.queryStringParameters ?? {}).filter(([, value]) => value !== undefined).map(([key, value]) => pair(key, value ?? '')).join('&')
}

/** The event's headers: every value of the multi-value ones, then the single ones not among them. */
function headersOf(event: APIGatewayProxyEvent): Headers {
  const headers = new Headers()
  for (const [key, values] of Object.entries(event.multiValueHeaders ?? {})) for (const value of values ?? []) headers.append(key, sanitized(value))
  for (const [key, value] of Object.entries(event.headers ?? {})) if (value && !headers.has(key)) headers.set(key, sanitized(value))
  return headers
}

/** An HTTP API event's headers: its cookies as one Cookie header, then each header. */
function headersOfV2(event: APIGatewayProxyEventV2): Headers {
  const headers = new Headers()
  if (Array.isArray(event.cookies)) headers.set('Cookie', event.cookies.join('; '))
  for (const [key, value] of Object.entries(event.headers ?? {})) if (value) headers.set(key, sanitized(value))
  return headers
}

function requestOf(event: Event): Request {
  const v2 = isV2(event)
  const query = v2 ? event.rawQueryString : queryOf(event)
  const multi = 'multiValueHeaders' in event ? event.multiValueHeaders : {}
  const domain = event.requestContext && 'domainName' in event.requestContext ? event.requestContext.domainName : headerOf(event.headers, 'host') ?? headerOf(multi, 'host')
  const path = `https://${domain}${v2 ? event.rawPath : event.path}`
  const headers = v2 ? headersOfV2(event) : headersOf(event)
  const init: RequestInit = { headers, method: v2 ? event.requestContext.http.method : event.httpMethod }
  if (event.body) {
    const body = event.isBase64Encoded ? decodeBase64(event.body) : new TextEncoder().encode(event.body)
    init.body = body
    headers.set('content-length', body.length.toString())
  }
  return new Request(query ? `${path}?${query}` : path, init)
}

/** Whether the answer's body goes base64-encoded: any content type but text, JSON and XML ones, or any content encoding. */
function isBinary(response: Response): boolean {
  const type = response.headers.get('content-type')
  if (type && (/^application\/vnd\.(?:apple\.installer|mozilla\.xul)\+xml\s*(?:;|$)/i.test(type) || !/^text\/(?:plain|html|css|javascript|csv)|(?:\/|\+)(?:json|xml)\s*(?:;|$)/i.test(type))) return true
  const encoding = response.headers.get('content-encoding')
  return !!encoding && !/^identity$/i.test(encoding)
}

/**
 * The proxy result of `response`: headers as the event had them (multi-value or not), every
 * Set-Cookie kept (as `cookies` for an HTTP API).
 */
async function resultOf(event: Event, response: Response): Promise<Result> {
  const isBase64Encoded = isBinary(response)
  const multi = 'multiValueHeaders' in event && event.multiValueHeaders
  const result: Result = {
    body: isBase64Encoded ? encodeBase64(await response.arrayBuffer()) : await response.text(),
    statusCode: response.status,
    isBase64Encoded,
    ...(multi ? { multiValueHeaders: {} } : { headers: {} }),
  }
  if (response.headers.has('set-cookie')) {
    if (isV2(event)) result.cookies = response.headers.getSetCookie()
    else result.multiValueHeaders = { 'set-cookie': response.headers.getSetCookie() }
    response.headers.delete('set-cookie')
  }
  if (result.multiValueHeaders) response.headers.forEach((value, key) => void (result.multiValueHeaders![key] = [value]))
  else response.headers.forEach((value, key) => void (result.headers![key] = value))
  return result
}

/** The Lambda handler of `app`: an event that cannot make a Request is a 400 (500 for any other failure), logged. */
export function handle(app: App): (event: Event, lambdaContext: LambdaContext) => Promise<Result> {
  return async (event, lambdaContext) => {
    let request: Request
    try {
      request = requestOf(event)
    } catch (error) {
      console.error('Error processing request:', error)
      return resultOf(event, new Response(error instanceof TypeError ? 'Invalid request' : 'Internal Server Error', { status: error instanceof TypeError ? 400 : 500 }))
    }
    return resultOf(event, await app.fetch(request, { event, requestContext: event.requestContext, lambdaContext }))
  }
}
