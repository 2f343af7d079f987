// functions/secrets.ts, the GetSecretValue of the functions' cold starts, against a loopback
// Secrets Manager that checks each request's SigV4 signature as the service does: what the bundled
// cold starts (test/integration/lambda-handlers.test.ts) do not reach, the timeout, throttling and
// network retries, a run without a session token and answers that are not the service's.
import { randomBytes } from 'node:crypto'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { MAX_ATTEMPTS, SecretsManagerError, secretReader } from '../../functions/secrets.js'
import { fakeSecretsManager, signedGetSecretValue } from '../support/fake-secrets-manager.js'

const REGION = 'eu-central-1'
const ARN = `arn:aws:secretsmanager:${REGION}:123456789012:secret:Key-AbCdEf`
const SECRET = randomBytes(24).toString('hex')
const CREDENTIALS = { accessKeyId: 'AKIAIOSFODNN7EXAMPLE', secretAccessKey: randomBytes(30).toString('base64') }
const ENV_KEYS = ['AWS_ACCESS_KEY_ID', 'AWS_SECRET_ACCESS_KEY', 'AWS_SESSION_TOKEN'] as const
const savedEnv = Object.fromEntries(ENV_KEYS.map((key) => [key, process.env[key]]))

/** A loopback server answering every request with `status` and `body`; counts them. */
async function plainServer(status: number, body: string) {
  let count = 0
  const server = createServer((req, res) => {
    count++
    req.resume()
    req.on('end', () => res.writeHead(status, { 'Content-Type': 'text/html' }).end(body))
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return { endpoint: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, count: () => count, close: () => new Promise((resolve) => server.close(resolve)) }
}

describe('GetSecretValue without the SDK client', () => {
  let secretsManager: Awaited<ReturnType<typeof fakeSecretsManager>>

  beforeAll(async () => {
    secretsManager = await fakeSecretsManager({ secrets: { [ARN]: SECRET }, credentials: CREDENTIALS, region: REGION })
  })

  beforeEach(() => {
    // Long-term keys: no session token to send.
    Object.assign(process.env, { AWS_ACCESS_KEY_ID: CREDENTIALS.accessKeyId, AWS_SECRET_ACCESS_KEY: CREDENTIALS.secretAccessKey })
    delete process.env.AWS_SESSION_TOKEN
    secretsManager.requests.length = 0
    secretsManager.failNext(0)
    secretsManager.hang(false)
  })

  afterEach(() => {
    for (const [key, value] of Object.entries(savedEnv)) {
      if (value === undefined) delete process.env[key]
      else process.env[key] = value
    }
  })

  afterAll(async () => {
    await secretsManager.close()
  })

  it('reads a secret with a request signed without a session token, to an endpoint with a path', async () => {
    const read = secretReader({ region: REGION, endpoint: `${secretsManager.endpoint}/some/path` })
    expect(await read(ARN)).toBe(SECRET)
    expect(secretsManager.requests).toEqual([signedGetSecretValue(ARN, CREDENTIALS, REGION)])
    expect(secretsManager.requests[0]!.signedHeaders).not.toContain('x-amz-security-token')
  })

  it('gives up an attempt unanswered after its timeout, and the read after 3 attempts', async () => {
    secretsManager.hang(true)
    const read = secretReader({ region: REGION, endpoint: secretsManager.endpoint, timeoutMs: 100 })
    const error = await read(ARN).catch((thrown: unknown) => thrown)
    expect(error).toBeInstanceOf(SecretsManagerError)
    expect(error).toMatchObject({ name: 'TimeoutError', message: `No answer within 100 ms, after ${MAX_ATTEMPTS} attempts` })
    expect(secretsManager.requests).toHaveLength(MAX_ATTEMPTS)
  })

  it('tries again after a refused connection, as after a throttled answer', async () => {
    // A port nothing listens on: a server closed.
    const closed = await plainServer(200, '')
    await closed.close()
    const refused = await secretReader({ region: REGION, endpoint: closed.endpoint })(ARN).catch((thrown: unknown) => thrown)
    expect(refused).toMatchObject({ name: 'ECONNREFUSED', message: expect.stringMatching(/ECONNREFUSED.*, after 3 attempts$/), cause: { code: 'ECONNREFUSED' } })

    const throttled = await plainServer(400, JSON.stringify({ __type: 'ThrottlingException', message: 'Rate exceeded' }))
    try {
      const error = await secretReader({ region: REGION, endpoint: throttled.endpoint })(ARN).catch((thrown: unknown) => thrown)
      expect(error).toMatchObject({ name: 'ThrottlingException', message: 'Rate exceeded (HTTP 400), after 3 attempts', $metadata: { httpStatusCode: 400 } })
      expect(throttled.count()).toBe(MAX_ATTEMPTS)
    } finally {
      await throttled.close()
    }
  })

  it('reports an answer that is not the service\'s by its status, without its body', async () => {
    const proxy = await plainServer(502, '<html>Bad Gateway from a proxy</html>')
    try {
      const error = await secretReader({ region: REGION, endpoint: proxy.endpoint })(ARN).catch((thrown: unknown) => thrown)
      expect(error).toMatchObject({ name: 'UnknownError', message: '(HTTP 502), after 3 attempts' })
      expect(proxy.count()).toBe(MAX_ATTEMPTS)
    } finally {
      await proxy.close()
    }
    // A 200 that is not JSON could be the secret itself: never in the message.
    const garbled = await plainServer(200, `not json ${SECRET}`)
    try {
      const error = await secretReader({ region: REGION, endpoint: garbled.endpoint })(ARN).catch((thrown: unknown) => thrown)
      expect(error).toMatchObject({ name: 'SerializationError', message: 'The answer is not JSON' })
      expect(String(error)).not.toContain(SECRET)
      expect(garbled.count()).toBe(1)
    } finally {
      await garbled.close()
    }
  })

  it('refuses an endpoint that is not an http(s) URL, and fails without credentials', async () => {
    expect(() => secretReader({ region: REGION, endpoint: 'ftp://127.0.0.1/' })).toThrow('The Secrets Manager endpoint ftp://127.0.0.1/ is not an http(s) URL')
    expect(() => secretReader({ region: REGION, endpoint: 'secrets.local:4566' })).toThrow('The Secrets Manager endpoint secrets.local:4566 is not an http(s) URL')
    expect(() => secretReader({ region: REGION, endpoint: 'not a url' })).toThrow('The Secrets Manager endpoint not a url is not an http(s) URL')
    delete process.env.AWS_ACCESS_KEY_ID
    await expect(secretReader({ region: REGION, endpoint: secretsManager.endpoint })(ARN)).rejects.toThrow('Unable to find environment variable credentials.')
    expect(secretsManager.requests).toEqual([])
  })
})
