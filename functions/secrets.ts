// Secrets Manager's GetSecretValue, the one call the functions make to it (once per secret per cold
// start), without @aws-sdk/client-secrets-manager: a whole client for one call was about 13.5 KB of
// every bundle, and the admin one must stay under 500 KB. What the client did for that call is here,
// on what the DynamoDB client bundles anyway: the JSON 1.1 request signed with SigV4 (its signer,
// SHA-256 and environment credentials), the endpoint (AWS_ENDPOINT_URL_SECRETS_MANAGER or the
// region's), the service's error type and message, and the SDK's standard retry (its error
// classification, 3 attempts, backoff with jitter). node:http(s), not fetch: the DynamoDB client's
// handler has loaded them already, while the first fetch loads undici, about 50 ms of a cold start.
import { request as httpRequest, type IncomingMessage } from 'node:http'
import { request as httpsRequest } from 'node:https'
import { fromEnv } from '@aws-sdk/credential-provider-env'
import { DEFAULT_RETRY_DELAY_BASE, isServerError, isThrottlingError, isTransientError, THROTTLING_RETRY_DELAY_BASE } from '@smithy/core/retry'
import { SignatureV4 } from '@smithy/signature-v4'
import { Sha256 } from './sha256.js'

/** Attempts per secret, as the SDK's standard retry mode. */
export const MAX_ATTEMPTS = 3
/**
 * Each attempt's bound, connection to last byte. The call answers in tens of milliseconds; three
 * attempts and their backoff stay well inside Lambda's 10 s init phase.
 */
const ATTEMPT_TIMEOUT_MS = 2000

/**
 * A failed GetSecretValue, shaped as the SDK's errors so that its classification applies: `name`
 * is the service's error type (e.g. ResourceNotFoundException), TimeoutError, or the socket error
 * code (its error is the cause); the message is the service's, never a response body.
 */
export class SecretsManagerError extends Error {
  readonly $metadata: { httpStatusCode?: number }
  /** The socket's error, for a failure without an answer. */
  declare readonly cause?: Error

  constructor(name: string, message: string, httpStatusCode?: number, options?: ErrorOptions) {
    super(message, options)
    this.name = name
    this.$metadata = { httpStatusCode }
  }
}

export interface SecretsManagerOptions {
  region: string
  /** The service's URL, as AWS_ENDPOINT_URL_SECRETS_MANAGER gives it; the region's by default. */
  endpoint?: string | undefined
  /** Each attempt's bound (ms). */
  timeoutMs?: number
}

/** Reads a secret's SecretString (undefined for a binary secret); rejects with a SecretsManagerError. */
export type SecretReader = (secretId: string) => Promise<string | undefined>

/** The error type of `__type` or x-amzn-errortype as the SDK cleans it: `ns#Type:uri` is `Type`. */
function errorType(raw: unknown): string | undefined {
  if (typeof raw !== 'string' || raw === '') return undefined
  return raw.split(/[,:]/)[0]!.split('#').at(-1)
}

/** The error an answer other than 200 stands for: its type and message, never the body itself. */
function answerError(status: number, headers: IncomingMessage['headers'], body: string): SecretsManagerError {
  let parsed: { __type?: unknown; message?: unknown; Message?: unknown } = {}
  try {
    parsed = JSON.parse(body) ?? {}
  } catch {
    // Not JSON (a proxy's page, say): the status alone says what happened.
  }
  const text = parsed.message ?? parsed.Message
  return new SecretsManagerError(errorType(headers['x-amzn-errortype']) ?? errorType(parsed.__type) ?? 'UnknownError', `${typeof text === 'string' ? `${text} ` : ''}(HTTP ${status})`, status)
}

/** Whether the SDK's standard retry would try again after `error`. */
const retryable = (error: SecretsManagerError) => isThrottlingError(error) || isTransientError(error) || isServerError(error)

/** The service's URL: `endpoint`, which must be an http(s) URL, or the region's. */
function endpointUrl(region: string, endpoint: string | undefined): URL {
  if (endpoint === undefined) return new URL(`https://secretsmanager.${region}.amazonaws.com${region.startsWith('cn-') ? '.cn' : ''}/`)
  const url = URL.canParse(endpoint) ? new URL(endpoint) : undefined
  if (url === undefined || (url.protocol !== 'https:' && url.protocol !== 'http:')) throw new Error(`The Secrets Manager endpoint ${url?.href ?? endpoint} is not an http(s) URL`)
  return url
}

/** A GetSecretValue reader on the environment's credentials; checks the endpoint at once. */
export function secretReader({ region, endpoint, timeoutMs = ATTEMPT_TIMEOUT_MS }: SecretsManagerOptions): SecretReader {
  const url = endpointUrl(region, endpoint)
  const send = url.protocol === 'https:' ? httpsRequest : httpRequest
  const signer = new SignatureV4({ service: 'secretsmanager', region, credentials: fromEnv(), sha256: Sha256 })

  /** One signed POST: the SecretString, or a SecretsManagerError. */
  async function attempt(secretId: string): Promise<string | undefined> {
    const body = JSON.stringify({ SecretId: secretId })
    const { headers } = await signer.sign({
      method: 'POST',
      protocol: url.protocol,
      hostname: url.hostname,
      path: url.pathname,
      query: {},
      headers: {
        host: url.host,
        'content-type': 'application/x-amz-json-1.1',
        'content-length': String(Buffer.byteLength(body)),
        'x-amz-target': 'secretsmanager.GetSecretValue',
      },
      body,
    })
    return new Promise((resolve, reject) => {
      const fail = (error: Error & { code?: string }) => {
        clearTimeout(timer)
        reject(error instanceof SecretsManagerError ? error : new SecretsManagerError(error.code ?? error.name, error.message, undefined, { cause: error }))
      }
      // A connection of its own, closed after the answer: nothing is read from Secrets Manager again.
      const request = send({ method: 'POST', hostname: url.hostname.replace(/^\[|\]$/g, ''), port: url.port, path: url.pathname, headers, agent: false }, (response) => {
        let text = ''
        response.setEncoding('utf8')
        response.on('data', (chunk: string) => (text += chunk))
        response.on('error', fail)
        response.on('end', () => {
          clearTimeout(timer)
          const status = response.statusCode!
          if (status !== 200) return reject(answerError(status, response.headers, text))
          try {
            const { SecretString } = JSON.parse(text) as { SecretString?: unknown }
            resolve(typeof SecretString === 'string' ? SecretString : undefined)
          } catch {
            // The text would be the secret's: never in a message.
            reject(new SecretsManagerError('SerializationError', 'The answer is not JSON', status))
          }
        })
      })
      const timer = setTimeout(() => request.destroy(new SecretsManagerError('TimeoutError', `No answer within ${timeoutMs} ms`)), timeoutMs)
      request.on('error', fail)
      request.end(body)
    })
  }

  return async (secretId) => {
    for (let attempts = 1; ; attempts++) {
      try {
        return await attempt(secretId)
      } catch (error) {
        if (!(error instanceof SecretsManagerError) || !retryable(error)) throw error
        if (attempts === MAX_ATTEMPTS) {
          error.message += `, after ${attempts} attempts`
          throw error
        }
        // The SDK's backoff: a random wait below base x 2^attempts, a longer base for throttling.
        const base = isThrottlingError(error) ? THROTTLING_RETRY_DELAY_BASE : DEFAULT_RETRY_DELAY_BASE
        await new Promise((resolve) => setTimeout(resolve, Math.random() * base * 2 ** attempts))
      }
    }
  }
}
