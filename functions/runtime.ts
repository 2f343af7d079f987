// Shared start-up of every Lambda function: configuration from the environment (validated once,
// failing fast), the content types from the registry the synth wrote beside the bundle, the
// secrets this function may read from Secrets Manager (once per cold start), one DynamoDB client.
import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { configFromEnv } from '../lib/config.js'
import { typeByUid, type ContentType } from '../lib/content-types.js'
import type { BlobStore } from '../lib/media/blobs.js'
import { createServices, type Secrets, type Services } from '../lib/services.js'
import { createDocumentClient } from '../lib/storage/client.js'
import { secretReader } from './secrets.js'

/** The environment variables naming each secret's ARN; the stack sets only those a function may read. */
const SECRET_ARN_VARIABLES = { adminToken: 'ADMIN_SECRET_ARN', tokenHashSecret: 'TOKEN_HASH_SECRET_ARN' } as const
type SecretName = keyof typeof SECRET_ARN_VARIABLES

/** The variable `name`, undefined when unset or empty. */
export function optional(name: string): string | undefined {
  const value = process.env[name]
  return value === undefined || value === '' ? undefined : value
}

export function required(name: string): string {
  const value = optional(name)
  if (value === undefined) throw new Error(`Missing environment variable ${name}`)
  return value
}

/**
 * The secrets whose ARN is configured, fetched in parallel. A failure names the variable and
 * Secrets Manager's error, never a value, and fails the cold start.
 */
async function fetchSecrets(arns: ReadonlyMap<SecretName, string>): Promise<Partial<Record<SecretName, string>>> {
  if (arns.size === 0) return {}
  let read: ReturnType<typeof secretReader>
  try {
    read = secretReader({ region: required('AWS_REGION'), endpoint: optional('AWS_ENDPOINT_URL_SECRETS_MANAGER') })
  } catch (error) {
    throw new Error(`AWS_ENDPOINT_URL_SECRETS_MANAGER: ${(error as Error).message}; set it to the service's URL, or unset it for the region's`, { cause: error })
  }
  const entries = await Promise.all([...arns].map(async ([name, arn]) => {
    const variable = SECRET_ARN_VARIABLES[name]
    let value: string | undefined
    try {
      value = await read(arn)
    } catch (error) {
      throw new Error(`Cannot read the secret named by ${variable} from Secrets Manager: ${String(error)}`, { cause: error })
    }
    // A secret stored as binary (SecretBinary) has no SecretString: ours are text.
    if (value === undefined) throw new Error(`The secret named by ${variable} has no SecretString (it is stored as binary): store its value as text`)
    if (value === '') throw new Error(`The secret named by ${variable} is empty`)
    return [name, value] as const
  }))
  return Object.fromEntries(entries)
}

/**
 * On AWS each secret comes from the ARN the stack gave this function: every function gets the
 * token hash key, only the admin function the admin token (elsewhere it stays undefined and
 * matches nothing). A secret without an ARN comes from the environment as for a local run:
 * ADMIN_TOKEN (required when no ARN is set at all) and TOKEN_HASH_SECRET. The hash key is never
 * derived from the admin token, so rotating that one leaves API tokens valid.
 */
async function readSecrets(): Promise<Secrets> {
  const arns = new Map<SecretName, string>()
  for (const [name, variable] of Object.entries(SECRET_ARN_VARIABLES) as [SecretName, string][]) {
    const arn = optional(variable)
    if (arn !== undefined) arns.set(name, arn)
  }
  const fetched = await fetchSecrets(arns)
  const envAdminToken = arns.size === 0 ? required('ADMIN_TOKEN') : optional('ADMIN_TOKEN')
  const tokenHashSecret = fetched.tokenHashSecret ?? optional('TOKEN_HASH_SECRET')
  if (tokenHashSecret === undefined) throw new Error('Missing environment variable TOKEN_HASH_SECRET_ARN (or TOKEN_HASH_SECRET)')
  return { adminToken: fetched.adminToken ?? envAdminToken, tokenHashSecret }
}

/** The file name of the content-type registry beside each bundle. */
export const REGISTRY_FILE = 'types.json'

/**
 * The content-type registry's file: CONTENT_TYPES_REGISTRY (the tests, running these entries from
 * source), or `types.json` beside this module, which the stack writes into each bundle at synth.
 */
export function registryFile(): string {
  return optional('CONTENT_TYPES_REGISTRY') ?? fileURLToPath(new URL(`./${REGISTRY_FILE}`, import.meta.url))
}

/**
 * The content types this deployment serves, as the synth read and checked them from the schema
 * files (lib/schema/, with the components folder and custom fields) and wrote them, JSON, into the
 * bundle: a cold start reads one file, and no bundle holds the schema checker (about 18 KB).
 */
export function registryTypes(): ContentType[] {
  const file = registryFile()
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as ContentType[]
  } catch (error) {
    throw new Error(`Cannot read the content-type registry ${file} (the synth writes it into each bundle): ${(error as Error).message}`, { cause: error })
  }
}

/** The content type a content function serves: the one CONTENT_TYPE (its uid) names. */
export function contentTypeOf(services: Services): ContentType {
  const uid = required('CONTENT_TYPE')
  const type = typeByUid(services.types, uid)
  if (type === undefined) throw new Error(`CONTENT_TYPE names ${uid}, which the content-type registry ${registryFile()} does not declare`)
  return type
}

/**
 * The services of this function instance (with `blobs`, the upload function's); rejects (and the
 * cold start fails) on bad config. `indexState` false: a function that lists no documents (the
 * locales function, whose role reads only `#config` and `#token` items).
 */
export async function lambdaServices(blobs?: BlobStore, warm: { indexState?: boolean } = {}): Promise<Services> {
  const config = configFromEnv(process.env)
  const types = registryTypes()
  const secrets = await readSecrets()
  const db = createDocumentClient({ region: required('AWS_REGION'), endpoint: optional('DYNAMODB_ENDPOINT') })
  const services = createServices(db, config, secrets, types, blobs)
  // Fill the locale, index-state and public-role caches during init, in one read, so the first
  // request makes only its own reads: a list read waits for the index state (whether the slot
  // indexes are complete) before it reads its page, one more round trip on a cold start without
  // it. A failure here is left for that request to meet and report.
  await services.warm(warm)
  return services
}

