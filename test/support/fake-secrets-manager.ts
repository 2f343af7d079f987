// A stand-in for Secrets Manager's GetSecretValue on loopback (no AWS is reachable from tests) that
// checks what the real one checks before it answers: the JSON 1.1 target and content type, and a
// SigV4 signature it computes again, with the SDK's own signer and SHA-256, from the credentials it
// knows, the signed headers and the body. A request it would refuse gets the service's error.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { expect } from 'vitest'
import { checkSignature, headerOf, type FakeCredentials, type SignatureCheck } from './sigv4.js'

export type { FakeCredentials } from './sigv4.js'

/** One request as received: what a test asserts on. */
export interface SecretsManagerCall extends SignatureCheck {
  target: string | undefined
  contentType: string | undefined
  SecretId: string
}

/** An answer other than the secret, as Secrets Manager sends it. */
interface Fault {
  status: number
  type: string
  message: string
}

/** The call as received, with its signature checked against `credentials` for `region`. */
async function check(req: IncomingMessage, body: string, credentials: FakeCredentials, region: string): Promise<SecretsManagerCall> {
  const signature = await checkSignature(req, body, credentials, region, 'secretsmanager')
  return { target: headerOf(req, 'x-amz-target'), contentType: headerOf(req, 'content-type'), SecretId: (JSON.parse(body) as { SecretId: string }).SecretId, ...signature }
}

/** The error Secrets Manager answers `call` with before looking at the secret, if any. */
function refusal(call: SecretsManagerCall, credentials: FakeCredentials): Fault | undefined {
  if (call.signature === 'missing') return { status: 400, type: 'MissingAuthenticationTokenException', message: 'Missing Authentication Token' }
  if (!call.credential?.startsWith(`${credentials.accessKeyId}/`)) return { status: 400, type: 'UnrecognizedClientException', message: 'The security token included in the request is invalid.' }
  if (call.signature === 'wrong') return { status: 400, type: 'InvalidSignatureException', message: 'The request signature we calculated does not match the signature you provided.' }
  if (call.target !== 'secretsmanager.GetSecretValue') return { status: 400, type: 'UnknownOperationException', message: '' }
  if (call.contentType !== 'application/x-amz-json-1.1') return { status: 400, type: 'SerializationException', message: 'Start of structure or map found where not expected.' }
  return undefined
}

function answer(res: ServerResponse, status: number, body: unknown) {
  res.writeHead(status, { 'Content-Type': 'application/x-amz-json-1.1' })
  res.end(JSON.stringify(body))
}

/**
 * Serves `secrets` (SecretId to SecretString, or to `{ binary }` for a secret stored as SecretBinary,
 * base64 in the answer) to requests signed with `credentials` for `region`.
 * `denied` lists SecretIds the caller may not read; `failNext(n)` answers the next n requests
 * with a 500 (InternalServiceError), `hang` leaves them unanswered.
 */
export async function fakeSecretsManager(options: { secrets: Record<string, string | { binary: Buffer }>; credentials: FakeCredentials; region: string; denied?: string[] }) {
  const requests: SecretsManagerCall[] = []
  let failures = 0
  let hanging = false
  const server = createServer((req, res) => {
    let body = ''
    req.on('data', (chunk: Buffer) => (body += chunk.toString()))
    req.on('end', () => void (async () => {
      const call = await check(req, body, options.credentials, options.region)
      requests.push(call)
      if (hanging) return
      const failing = failures > 0
      if (failing) failures--
      const refused = refusal(call, options.credentials)
        ?? (failing ? { status: 500, type: 'InternalServiceError', message: 'An error occurred on the server side.' } : undefined)
        ?? (options.denied?.includes(call.SecretId) ? { status: 400, type: 'AccessDeniedException', message: `User: arn:aws:sts::123456789012:assumed-role/fn is not authorized to perform: secretsmanager:GetSecretValue on resource: ${call.SecretId}` } : undefined)
      if (refused !== undefined) return answer(res, refused.status, { __type: refused.type, message: refused.message })
      const secret = options.secrets[call.SecretId]
      if (secret === undefined) return answer(res, 400, { __type: 'ResourceNotFoundException', message: "Secrets Manager can't find the specified secret." })
      const value = typeof secret === 'string' ? { SecretString: secret } : { SecretBinary: secret.binary.toString('base64') }
      answer(res, 200, { ARN: call.SecretId, Name: call.SecretId.split(':').at(-1), ...value, VersionId: 'v1', VersionStages: ['AWSCURRENT'], CreatedDate: 1_700_000_000 })
    })())
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    endpoint: `http://127.0.0.1:${port}`,
    requests,
    failNext(count: number) {
      failures = count
    },
    hang(on: boolean) {
      hanging = on
    },
    close: () => {
      server.closeAllConnections()
      return new Promise((resolve) => server.close(resolve))
    },
  }
}

/** What a GetSecretValue of `SecretId` signed with `credentials` for `region` is received as. */
export function signedGetSecretValue(SecretId: string, credentials: FakeCredentials, region: string): SecretsManagerCall {
  return {
    target: 'secretsmanager.GetSecretValue',
    contentType: 'application/x-amz-json-1.1',
    SecretId,
    credential: expect.stringMatching(new RegExp(`^${credentials.accessKeyId}/\\d{8}/${region}/secretsmanager/aws4_request$`)),
    signedHeaders: expect.arrayContaining(['content-type', 'host', 'x-amz-date', 'x-amz-target', ...(credentials.sessionToken === undefined ? [] : ['x-amz-security-token'])]),
    securityToken: credentials.sessionToken,
    signature: 'valid',
  }
}
