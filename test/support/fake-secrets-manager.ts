// A stand-in for Secrets Manager's GetSecretValue on loopback (no AWS is reachable from tests) that
// checks what the real one checks before it answers: the JSON 1.1 target and content type, and a
// SigV4 signature it computes again, with the SDK's own signer and SHA-256, from the credentials it
// knows, the signed headers and the body. A request it would refuse gets the service's error.
import { Sha256 } from '@smithy/core/checksum'
import { SignatureV4 } from '@smithy/signature-v4'
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { expect } from 'vitest'

export interface FakeCredentials {
  accessKeyId: string
  secretAccessKey: string
  sessionToken?: string
}

/** One request as received: what a test asserts on. */
export interface SecretsManagerCall {
  target: string | undefined
  contentType: string | undefined
  SecretId: string
  /** The Authorization header's `Credential=` part, e.g. `AKIA…/20260101/eu-west-1/secretsmanager/aws4_request`. */
  credential: string | undefined
  signedHeaders: string[]
  /** The X-Amz-Security-Token header. */
  securityToken: string | undefined
  /** The signature checked: `valid`, `missing` (no SigV4 Authorization or X-Amz-Date), or `wrong`. */
  signature: 'valid' | 'missing' | 'wrong'
}

/** An answer other than the secret, as Secrets Manager sends it. */
interface Fault {
  status: number
  type: string
  message: string
}

const AUTHORIZATION = /^AWS4-HMAC-SHA256 Credential=([^,]+), SignedHeaders=([a-z0-9;-]+), Signature=([0-9a-f]{64})$/
/** SigV4's X-Amz-Date, e.g. 20260101T120000Z, as a Date. */
const signingDate = (value: string) => new Date(value.replace(/^(\d{4})(\d\d)(\d\d)T(\d\d)(\d\d)(\d\d)Z$/, '$1-$2-$3T$4:$5:$6Z'))
/** How far from the server's clock a request's date may be, as AWS allows. */
const MAX_SKEW_MS = 5 * 60_000

/** The call as received, with its signature checked against `credentials` for `region`. */
async function check(req: IncomingMessage, body: string, credentials: FakeCredentials, region: string): Promise<SecretsManagerCall> {
  const header = (name: string) => (typeof req.headers[name] === 'string' ? (req.headers[name] as string) : undefined)
  const [, credential, signed] = AUTHORIZATION.exec(header('authorization') ?? '') ?? []
  const amzDate = header('x-amz-date')
  const call: SecretsManagerCall = {
    target: header('x-amz-target'),
    contentType: header('content-type'),
    SecretId: (JSON.parse(body) as { SecretId: string }).SecretId,
    credential,
    signedHeaders: signed?.split(';') ?? [],
    securityToken: header('x-amz-security-token'),
    signature: 'missing',
  }
  if (signed === undefined || amzDate === undefined) return call
  const date = signingDate(amzDate)
  // Sign the same request again: the headers it signed (the signer adds the date and token itself).
  const headers = Object.fromEntries(call.signedHeaders.filter((name) => name !== 'x-amz-date' && name !== 'x-amz-security-token').map((name) => [name, header(name) ?? '']))
  const signer = new SignatureV4({ service: 'secretsmanager', region, credentials, sha256: Sha256 })
  const expected = await signer.sign({ method: req.method!, protocol: 'http:', hostname: '127.0.0.1', path: req.url!, query: {}, headers, body }, { signingDate: date })
  const valid = expected.headers.authorization === header('authorization') && Math.abs(date.getTime() - Date.now()) < MAX_SKEW_MS
    && call.signedHeaders.includes('host') && call.securityToken === credentials.sessionToken
  return { ...call, signature: valid ? 'valid' : 'wrong' }
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
