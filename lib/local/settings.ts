// `npm start`'s own settings, from its arguments and environment, checked before anything starts.
// Each problem is one line naming the variable (or flag), the value and the fix; secrets are
// described by their length, never echoed.
import { isIP } from 'node:net'
import { resolve } from 'node:path'
import { MIN_ADMIN_TOKEN_LENGTH, MIN_HASH_KEY_LENGTH } from './secrets.js'

export const LOCAL_USAGE = `Usage: npm start [-- --in-memory]

  (no option)   keep the data in DATA_DIR (default .tmp/): DynamoDB Local's file, and the
                admin token and token hash key in secrets.json; a restart finds them again
  --in-memory   a throw-away run: DynamoDB Local in memory, new secrets, nothing written
                (or LOCAL_IN_MEMORY=true)

Environment: PORT (1337), HOST (127.0.0.1), DATA_DIR (.tmp), LOCAL_IN_MEMORY, DYNAMODB_ENDPOINT (a DynamoDB Local
already running; none: npm start runs its own), ADMIN_TOKEN and TOKEN_HASH_SECRET (replace the
kept ones), TABLE_NAME (content), CONTENT_TYPES_DIR (schema files), COMPONENTS_DIR
(its ../components), CUSTOM_FIELDS (JSON: custom field uid -> base type), AWS_REGION (us-east-1),
the API_REST_* and POWERTOOLS_* settings (docs/configuration.md), and WEBHOOKS_* (docs/webhooks.md; npm start
allows http and private receivers unless WEBHOOKS_ALLOW_INSECURE or WEBHOOKS_ALLOW_PRIVATE say false).`

/** A mistake in the command line itself (exit code 2, with the usage). */
export class LocalUsageError extends Error {}

export interface LocalSettings {
  readonly port: number
  /** The interface to listen on: 127.0.0.1 unless HOST says otherwise (0.0.0.0 in a container). */
  readonly host: string
  readonly region: string
  /** Undefined: start DynamoDB Local here. */
  readonly endpoint: string | undefined
  /** Undefined for an in-memory run. */
  readonly dataDir: string | undefined
  readonly adminToken: string | undefined
  readonly tokenHashSecret: string | undefined
  readonly help: boolean
}

type Env = Readonly<Record<string, string | undefined>>

const nonEmpty = (value: string | undefined): string | undefined => (value === '' ? undefined : value)

/** An http(s) URL, or an error naming the variable. */
export function checkEndpoint(raw: string): string {
  let url: URL | undefined
  try {
    url = new URL(raw)
  } catch {
    url = undefined
  }
  if (url === undefined || (url.protocol !== 'http:' && url.protocol !== 'https:')) {
    throw new Error(`DYNAMODB_ENDPOINT='${raw}' is not an http(s) URL: set it to DynamoDB Local's URL, e.g. http://127.0.0.1:8000, or unset it to let npm start run DynamoDB Local`)
  }
  return raw
}

function flag(env: Env, name: string): boolean {
  const raw = nonEmpty(env[name])
  if (raw === undefined) return false
  if (/^(true|1|yes)$/i.test(raw)) return true
  if (/^(false|0|no)$/i.test(raw)) return false
  throw new Error(`${name}='${raw}' is not a boolean: set it to true or false`)
}

/** The settings of `npm start` from `argv` (after the script) and `env`; throws one line per problem. */
export function readLocalSettings(argv: readonly string[], env: Env, cwd: string): LocalSettings {
  const unknown = argv.filter((arg) => arg !== '--in-memory' && arg !== '--help' && arg !== '-h')
  if (unknown.length > 0) throw new LocalUsageError(`Unknown argument ${unknown.join(' ')}`)
  const help = argv.includes('--help') || argv.includes('-h')
  const inMemory = argv.includes('--in-memory') || flag(env, 'LOCAL_IN_MEMORY')

  const portText = nonEmpty(env.PORT) ?? '1337'
  if (!/^\d{1,5}$/.test(portText) || Number(portText) > 65535) {
    throw new Error(`PORT='${portText}' is not a port number: set PORT to a number from 1 to 65535 (or 0 for any free port), or unset it for 1337`)
  }
  const host = nonEmpty(env.HOST) ?? '127.0.0.1'
  if (isIP(host) === 0) throw new Error(`HOST='${host}' is not an IP address: unset it to listen on 127.0.0.1 only, or set 0.0.0.0 inside a container`)
  const region = nonEmpty(env.AWS_REGION) ?? 'us-east-1'
  if (!/^[a-z0-9-]{2,40}$/.test(region)) throw new Error(`AWS_REGION='${region}' is not a region name: set it to one such as us-east-1, or unset it`)

  const adminToken = nonEmpty(env.ADMIN_TOKEN)
  if (adminToken !== undefined && adminToken.length < MIN_ADMIN_TOKEN_LENGTH) {
    throw new Error(`ADMIN_TOKEN must be at least ${MIN_ADMIN_TOKEN_LENGTH} characters long (it is ${adminToken.length}): set a longer one, or unset it to use the kept (or a new random) one`)
  }
  const tokenHashSecret = nonEmpty(env.TOKEN_HASH_SECRET)
  const shortKey = tokenHashSecret?.split(/\s+/).filter(Boolean).find((key) => key.length < MIN_HASH_KEY_LENGTH)
  if (tokenHashSecret !== undefined && (shortKey !== undefined || tokenHashSecret.trim() === '')) {
    throw new Error(`TOKEN_HASH_SECRET must hold keys of at least ${MIN_HASH_KEY_LENGTH} characters (one is ${shortKey?.length ?? 0}): set longer ones (e.g. \`openssl rand -base64 48\`), or unset it to use the kept (or a new random) one`)
  }

  const endpointText = nonEmpty(env.DYNAMODB_ENDPOINT)
  const endpoint = endpointText === undefined ? undefined : checkEndpoint(endpointText)
  if (inMemory && endpoint !== undefined) {
    throw new Error(`--in-memory (or LOCAL_IN_MEMORY) starts a DynamoDB Local of its own, and DYNAMODB_ENDPOINT='${endpoint}' names another: unset one of them`)
  }
  const dataDir = inMemory ? undefined : resolve(cwd, nonEmpty(env.DATA_DIR) ?? '.tmp')
  return { port: Number(portText), host, region, endpoint, dataDir, adminToken, tokenHashSecret, help }
}
