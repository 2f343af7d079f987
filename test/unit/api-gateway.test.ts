// The Lambda handler of our functions (functions/api-gateway.ts) answers each API Gateway event (REST
// API, payload 1.0, and HTTP API, payload 2.0) as hono/aws-lambda's `handle`, which it replaces in
// the bundles, answers it: the same Request reaches the app (URL, query, headers, cookies, body)
// and the same proxy result comes back (status, body, base64 for binary answers, single and
// multi-value headers, every Set-Cookie).
import type { APIGatewayProxyEvent, APIGatewayProxyEventV2, Context as LambdaContext } from 'aws-lambda'
import { Hono } from 'hono'
import { handle as honoHandle } from 'hono/aws-lambda'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { handle } from '../../functions/api-gateway.js'

/** An app that echoes what it received, and answers the kinds of bodies and headers our apps do. */
function echoApp() {
  const app = new Hono<{ Bindings: { requestContext: { requestId: string }; lambdaContext: { awsRequestId: string } } }>()
  app.all('/echo/*', async (c) => c.json({
    url: c.req.url, method: c.req.method, headers: [...c.req.raw.headers], body: await c.req.text(),
    requestId: c.env.requestContext.requestId, awsRequestId: c.env.lambdaContext.awsRequestId,
  }))
  app.get('/binary', () => new Response(new Uint8Array([0, 1, 2, 255]), { headers: { 'content-type': 'image/png' } }))
  app.get('/gzip', () => new Response('compressed', { headers: { 'content-type': 'text/plain', 'content-encoding': 'gzip' } }))
  app.get('/xul', () => new Response('<x/>', { headers: { 'content-type': 'application/vnd.mozilla.xul+xml' } }))
  app.post('/cookies', (c) => {
    c.header('set-cookie', 'a=1; Path=/; HttpOnly', { append: true })
    c.header('set-cookie', 'b=2; Path=/admin', { append: true })
    c.header('x-multi', 'one')
    return c.html('<p>é</p>', 303)
  })
  return app
}

function event(overrides: Partial<APIGatewayProxyEvent>): APIGatewayProxyEvent {
  return {
    resource: '/{proxy+}', path: '/echo/a%20b/é', httpMethod: 'GET', headers: { Host: 'api.example.com', Accept: 'application/json' },
    multiValueHeaders: { Host: ['api.example.com'], Accept: ['application/json'], 'X-Twice': ['1', '2'] },
    queryStringParameters: { 'filters[title][$eq]': 'b', page: '2' }, multiValueQueryStringParameters: { 'filters[title][$eq]': ['a & b', 'c=d'], page: ['2'] },
    pathParameters: null, stageVariables: null, body: null, isBase64Encoded: false,
    requestContext: { accountId: '1', apiId: 'x', domainName: 'abc.execute-api.eu-west-1.amazonaws.com', httpMethod: 'GET', path: '/prod/echo', protocol: 'HTTP/1.1', requestId: 'req-1', requestTimeEpoch: 0, resourceId: 'r', resourcePath: '/{proxy+}', stage: 'prod', identity: { sourceIp: '203.0.113.9' } } as APIGatewayProxyEvent['requestContext'],
    ...overrides,
  }
}

function eventV2(overrides: Partial<APIGatewayProxyEventV2>): APIGatewayProxyEventV2 {
  return {
    version: '2.0', routeKey: 'ANY /{proxy+}', rawPath: '/echo/a%20b', rawQueryString: 'sort[0]=title:asc&filters[title][$eq]=a%20%26%20b',
    cookies: ['session=abc', 'theme=dark'], headers: { host: 'api.example.com', 'x-name': 'Zoë' }, queryStringParameters: { 'sort[0]': 'title:asc' },
    requestContext: { accountId: '1', apiId: 'x', domainName: 'abc.execute-api.eu-west-1.amazonaws.com', domainPrefix: 'abc', http: { method: 'GET', path: '/echo/a b', protocol: 'HTTP/1.1', sourceIp: '198.51.100.7', userAgent: 'vitest' }, requestId: 'req-1', routeKey: 'ANY /{proxy+}', stage: '$default', time: '', timeEpoch: 0 },
    isBase64Encoded: false, ...overrides,
  }
}

const context = { awsRequestId: 'aws-1' } as LambdaContext
/** hono/aws-lambda's handler, typed for the events above. */
const honoHandler = (app: ReturnType<typeof echoApp>) => honoHandle(app) as unknown as ReturnType<typeof handle>

afterEach(() => vi.restoreAllMocks())

describe('the API Gateway handler answers as hono/aws-lambda', () => {
  it.each([
    ['a GET with multi-value query and headers', event({})],
    ['single-value query and headers only', event({ multiValueQueryStringParameters: null, multiValueHeaders: undefined as never })],
    ['no query at all, a host from the headers only', event({ queryStringParameters: null, multiValueQueryStringParameters: null, requestContext: { requestId: 'req-2' } as never })],
    ['a non-ASCII header value', event({ headers: { Host: 'h', 'X-Name': 'Zoë' }, multiValueHeaders: { 'X-Name': ['Zoë', 'Ana'] } })],
    ['a JSON body', event({ httpMethod: 'POST', body: '{"data":{"title":"é"}}' })],
    ['a base64 body', event({ httpMethod: 'PUT', body: Buffer.from([1, 2, 3, 250]).toString('base64'), isBase64Encoded: true })],
    ['a binary answer', event({ path: '/binary' })],
    ['a compressed answer', event({ path: '/gzip' })],
    ['an XML type Hono counts as binary', event({ path: '/xul' })],
    ['an answer with two cookies', event({ path: '/cookies', httpMethod: 'POST' })],
    ['cookies to an event without multi-value headers', event({ path: '/cookies', httpMethod: 'POST', multiValueHeaders: undefined as never })],
    ['an unknown route', event({ path: '/nowhere' })],
    ['an HTTP API GET with cookies and a raw query', eventV2({})],
    ['an HTTP API base64 POST', eventV2({ requestContext: { ...eventV2({}).requestContext, http: { ...eventV2({}).requestContext.http, method: 'POST' } }, body: Buffer.from('{"a":1}').toString('base64'), isBase64Encoded: true })],
    ['an HTTP API answer with cookies', eventV2({ rawPath: '/cookies', requestContext: { ...eventV2({}).requestContext, http: { ...eventV2({}).requestContext.http, method: 'POST' } } })],
    ['an HTTP API binary answer', eventV2({ rawPath: '/binary', rawQueryString: '' })],
  ] as [string, APIGatewayProxyEvent | APIGatewayProxyEventV2][])('%s', async (_name, input) => {
    const app = echoApp()
    const ours = await handle(app)(structuredClone(input), context)
    const theirs = await honoHandler(app)(structuredClone(input), context)
    expect(ours).toEqual(theirs)
    expect(Object.keys(ours)).toEqual(Object.keys(theirs))
  })

  it('an event that makes no valid Request is a 400, logged', async () => {
    const logged = vi.spyOn(console, 'error').mockImplementation(() => undefined)
    const bad = event({ headers: { 'Bad Header': 'x' }, multiValueHeaders: {} })
    const ours = await handle(echoApp())(bad, context)
    expect(ours).toMatchObject({ statusCode: 400, body: 'Invalid request' })
    expect(ours).toEqual(await honoHandler(echoApp())(bad, context))
    expect(logged).toHaveBeenCalledWith('Error processing request:', expect.any(TypeError))
  })
})
