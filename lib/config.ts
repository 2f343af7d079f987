// Runtime configuration: read once at an entry point, validated, then passed down as plain values.
import * as v from 'valibot'

const PositiveInt = v.pipe(v.number(), v.integer(), v.minValue(1))
const NonNegativeInt = v.pipe(v.number(), v.integer(), v.minValue(0))

export const RestConfigSchema = v.object({
  /** `api.rest.defaultLimit`: page size and offset limit when none is asked for. */
  defaultLimit: v.optional(PositiveInt, 25),
  /** `api.rest.maxLimit`: larger page sizes and limits are clamped to it. */
  maxLimit: v.optional(PositiveInt, 100),
  /** `api.rest.findOneShape`: `array` (as the spec shows) or `object` (as `@strapi/client` expects). */
  findOneShape: v.optional(v.picklist(['array', 'object']), 'array'),
  /** `api.rest.maxScan`: most index entries a request may read for conditions no index answers. */
  maxScan: v.optional(PositiveInt, 20_000),
  /** `api.rest.maxResponseBytes`: largest JSON answer (Lambda answers at most 6 MB). */
  maxResponseBytes: v.optional(PositiveInt, 5_000_000),
  /** `api.rest.cache.*`: Cache-Control of anonymous reads, in seconds (delivery.md §13). */
  cache: v.optional(v.object({
    maxAge: v.optional(NonNegativeInt, 0),
    sMaxAge: v.optional(NonNegativeInt, 0),
    staleWhileRevalidate: v.optional(NonNegativeInt, 0),
  }), {}),
  /** `api.rest.pageCache`: list pages kept per process, validated by the list's revision; 0 turns it off. */
  pageCache: v.optional(NonNegativeInt, 500),
  /** `api.rest.pageCacheBytes`: the most bytes of list pages kept per process (delivery/page-cache.ts); 0 turns the cache off. */
  pageCacheBytes: v.optional(NonNegativeInt, 32_000_000),
  /**
   * `api.rest.listMarks`: positions in sorted lists kept per process (where runs of equal keys
   * start, per list revision), so a deeper page resumes near it; 0 turns them off.
   */
  listMarks: v.optional(NonNegativeInt, 20_000),
  /** `api.rest.relations.maxLinks`: most links a to-many relation holds per version (content-model.md §16). */
  relations: v.optional(v.object({ maxLinks: v.optional(PositiveInt, 1000) }), {}),
  populate: v.optional(v.object({
    /** `api.rest.populate.maxDocuments`: most populated documents in one answer (content-model.md §16). */
    maxDocuments: v.optional(PositiveInt, 1000),
    /**
     * `api.rest.populate.cacheBytes`: populated documents kept per process for list answers, in
     * bytes of their attributes, each valid for its list's revision (storage/lists/kept.ts); 0 turns it off.
     */
    cacheBytes: v.optional(NonNegativeInt, 8_000_000),
  }), {}),
})

export type RestConfig = v.InferOutput<typeof RestConfigSchema>

/** The four kinds of file a media attribute's `allowedTypes` names (content-model.md §19). */
export const DEFAULT_ALLOWED_MIME = [
  'image/jpeg', 'image/png', 'image/gif', 'image/webp', 'image/avif', 'image/tiff', 'image/bmp', 'image/svg+xml', 'image/x-icon', 'image/heic',
  'video/mp4', 'video/webm', 'video/quicktime', 'video/ogg', 'video/x-matroska',
  'audio/mpeg', 'audio/wav', 'audio/ogg', 'audio/aac', 'audio/flac', 'audio/mp4', 'audio/webm',
  'application/pdf', 'text/plain', 'text/csv', 'application/json', 'application/zip',
]

export const UploadConfigSchema = v.object({
  /** `upload.sizeLimit`: the largest file in bytes (the presigned route's limit; direct uploads stay within `maxBodyBytes`). */
  sizeLimit: v.optional(PositiveInt, 50 * 1024 * 1024),
  /** `upload.maxBodyBytes`: the largest multipart body of `POST /api/upload` (Lambda takes at most 6 MB, base64 included). */
  maxBodyBytes: v.optional(PositiveInt, 4 * 1024 * 1024),
  /** `upload.allowedTypes`: MIME types accepted, decided from the bytes; `type/*` accepts a whole kind. */
  allowedTypes: v.optional(v.array(v.pipe(v.string(), v.regex(/^[a-z0-9.+-]+\/([a-z0-9.+-]+|\*)$/))), DEFAULT_ALLOWED_MIME),
  /** `upload.breakpoints`: the resized copies of an image wider or taller than each (Strapi's defaults). */
  breakpoints: v.optional(v.record(v.pipe(v.string(), v.regex(/^[a-z][a-z0-9_]*$/)), PositiveInt), { large: 1000, medium: 750, small: 500 }),
  /** `upload.keepLocation`: keep the EXIF data (GPS location included) of uploaded images; by default it is removed. */
  keepLocation: v.optional(v.boolean(), false),
})

export type UploadConfig = v.InferOutput<typeof UploadConfigSchema>

export const ConfigSchema = v.object({
  tableName: v.pipe(v.string(), v.minLength(1)),
  rest: RestConfigSchema,
  /** How long a process trusts its cached locale registry and public role (ms). */
  cacheTtlMs: v.optional(v.pipe(v.number(), v.integer(), v.minValue(0)), 5000),
  /**
   * The admin web interface's sign-in throttle: attempts with a wrong token allowed per client
   * address and from every client together within a window (seconds) that starts with the first.
   */
  signIn: v.optional(v.object({
    clientLimit: v.optional(PositiveInt, 10),
    globalLimit: v.optional(PositiveInt, 100),
    windowSeconds: v.optional(PositiveInt, 900),
  }), {}),
  /** Largest accepted request body in bytes. */
  maxBodyBytes: v.optional(PositiveInt, 1024 * 1024),
  /** The media library (content-model.md §19). */
  upload: v.optional(UploadConfigSchema, {}),
  /** The request log and its metrics (AWS Lambda Powertools' settings, by their variables). */
  log: v.optional(v.object({
    serviceName: v.optional(v.pipe(v.string(), v.minLength(1)), 'content-api'),
    logLevel: v.optional(v.picklist(['DEBUG', 'INFO', 'WARN', 'ERROR']), 'INFO'),
    /** Share of requests (0 to 1) logged at DEBUG whatever the level. */
    debugSampleRate: v.optional(v.pipe(v.number(), v.minValue(0), v.maxValue(1)), 0),
    metricsNamespace: v.optional(v.pipe(v.string(), v.regex(/^[\w.\-/#:]{1,255}$/)), 'LocalizedContentApi'),
  }), {}),
  /** Webhooks (integration.md §20): what a receiver's address may be, and the retry schedule. */
  webhooks: v.optional(v.object({
    /** `webhooks.allowInsecure`: plain `http` receivers (local work); https only otherwise. */
    allowInsecure: v.optional(v.boolean(), false),
    /** `webhooks.allowPrivate`: receivers on loopback, private, link-local or metadata addresses. */
    allowPrivate: v.optional(v.boolean(), false),
    /** Delay before the first retry of a failed delivery (ms); each next one doubles. */
    firstRetryMs: v.optional(v.pipe(PositiveInt, v.maxValue(10_000)), 5000),
    /** Ceiling of the doubling delay (ms). */
    maxRetryDelayMs: v.optional(v.pipe(PositiveInt, v.maxValue(12 * 3600_000)), 300_000),
    /** How long a failing delivery is retried (ms) before it is kept as failed. */
    retryForMs: v.optional(PositiveInt, 24 * 3600_000),
  }), {}),
})

export type Config = v.InferOutput<typeof ConfigSchema>

/** Validates a configuration object; throws with every problem listed when it is wrong. */
export function parseConfig(input: unknown): Config {
  const result = v.safeParse(ConfigSchema, input)
  if (!result.success) {
    const problems = result.issues.map((issue) => `${v.getDotPath(issue) ?? '(root)'}: ${issue.message}`)
    throw new Error(`Invalid configuration: ${problems.join('; ')}`)
  }
  return result.output
}

/** The environment variable behind each setting, by its path in the configuration. */
const VARIABLES: Record<string, string> = {
  tableName: 'TABLE_NAME',
  'rest.defaultLimit': 'API_REST_DEFAULT_LIMIT',
  'rest.maxLimit': 'API_REST_MAX_LIMIT',
  'rest.findOneShape': 'API_REST_FIND_ONE_SHAPE',
  'rest.maxScan': 'API_REST_MAX_SCAN',
  'rest.maxResponseBytes': 'API_REST_MAX_RESPONSE_BYTES',
  'rest.cache.maxAge': 'API_REST_CACHE_MAX_AGE',
  'rest.cache.sMaxAge': 'API_REST_CACHE_S_MAXAGE',
  'rest.cache.staleWhileRevalidate': 'API_REST_CACHE_STALE_WHILE_REVALIDATE',
  'rest.pageCache': 'API_REST_PAGE_CACHE',
  'rest.pageCacheBytes': 'API_REST_PAGE_CACHE_BYTES',
  'rest.listMarks': 'API_REST_LIST_MARKS',
  'rest.relations.maxLinks': 'API_REST_RELATIONS_MAX_LINKS',
  'rest.populate.maxDocuments': 'API_REST_POPULATE_MAX_DOCUMENTS',
  'rest.populate.cacheBytes': 'API_REST_POPULATE_CACHE_BYTES',
  cacheTtlMs: 'CACHE_TTL_MS',
  'signIn.clientLimit': 'ADMIN_SIGN_IN_CLIENT_LIMIT',
  'signIn.globalLimit': 'ADMIN_SIGN_IN_GLOBAL_LIMIT',
  'signIn.windowSeconds': 'ADMIN_SIGN_IN_WINDOW_SECONDS',
  maxBodyBytes: 'MAX_BODY_BYTES',
  'upload.sizeLimit': 'UPLOAD_SIZE_LIMIT',
  'upload.maxBodyBytes': 'UPLOAD_MAX_BODY_BYTES',
  'upload.allowedTypes': 'UPLOAD_ALLOWED_TYPES',
  'upload.breakpoints': 'UPLOAD_BREAKPOINTS',
  'upload.keepLocation': 'UPLOAD_KEEP_LOCATION',
  'log.serviceName': 'POWERTOOLS_SERVICE_NAME',
  'log.logLevel': 'POWERTOOLS_LOG_LEVEL',
  'log.debugSampleRate': 'POWERTOOLS_LOGGER_SAMPLE_RATE',
  'log.metricsNamespace': 'POWERTOOLS_METRICS_NAMESPACE',
  'webhooks.allowInsecure': 'WEBHOOKS_ALLOW_INSECURE',
  'webhooks.allowPrivate': 'WEBHOOKS_ALLOW_PRIVATE',
  'webhooks.firstRetryMs': 'WEBHOOKS_FIRST_RETRY_MS',
  'webhooks.maxRetryDelayMs': 'WEBHOOKS_MAX_RETRY_DELAY_MS',
  'webhooks.retryForMs': 'WEBHOOKS_RETRY_FOR_MS',
}

/**
 * Reads the configuration from environment variables (entry points only); fails fast with one
 * line naming the variable, its value and the fix.
 */
export function configFromEnv(env: NodeJS.ProcessEnv): Config {
  const int = (name: string): number | undefined => {
    const raw = env[name]
    if (raw === undefined || raw === '') return undefined
    if (!/^\d+$/.test(raw)) throw new Error(`Invalid configuration: ${name}='${raw}' is not a whole number; set a number such as 25, or unset it for the default`)
    return Number(raw)
  }
  const text = (name: string): string | undefined => (env[name] === '' ? undefined : env[name])
  const rate = (name: string): number | undefined => {
    const raw = text(name)
    if (raw === undefined) return undefined
    if (!/^(0(\.\d+)?|1(\.0+)?)$/.test(raw)) throw new Error(`Invalid configuration: ${name}='${raw}' is not a share from 0 to 1; set e.g. 0.01 to log one request in a hundred at DEBUG, or unset it`)
    return Number(raw)
  }
  const flag = (name: string): boolean | undefined => {
    const raw = text(name)
    if (raw === undefined) return undefined
    if (/^(true|1|yes)$/i.test(raw)) return true
    if (/^(false|0|no)$/i.test(raw)) return false
    throw new Error(`Invalid configuration: ${name}='${raw}' is not a boolean; set true or false, or unset it`)
  }
  // `large=1000,medium=750,small=500`; `none` for no resized copies.
  const breakpoints = (raw: string | undefined): Record<string, number> | undefined => {
    if (raw === undefined) return undefined
    if (raw === 'none') return {}
    const pairs = raw.split(',').map((pair) => pair.trim().split('='))
    if (pairs.some(([name, size]) => name === undefined || !/^[a-z][a-z0-9_]*$/.test(name) || size === undefined || !/^[1-9]\d*$/.test(size))) {
      throw new Error(`Invalid configuration: UPLOAD_BREAKPOINTS='${raw}' is not a list of name=pixels; set e.g. large=1000,medium=750,small=500, or none`)
    }
    return Object.fromEntries(pairs.map(([name, size]) => [name as string, Number(size)]))
  }
  const input = {
    tableName: env.TABLE_NAME === undefined || env.TABLE_NAME === '' ? 'content' : env.TABLE_NAME,
    rest: {
      defaultLimit: int('API_REST_DEFAULT_LIMIT'),
      maxLimit: int('API_REST_MAX_LIMIT'),
      findOneShape: env.API_REST_FIND_ONE_SHAPE === '' ? undefined : env.API_REST_FIND_ONE_SHAPE,
      maxScan: int('API_REST_MAX_SCAN'),
      maxResponseBytes: int('API_REST_MAX_RESPONSE_BYTES'),
      cache: {
        maxAge: int('API_REST_CACHE_MAX_AGE'),
        sMaxAge: int('API_REST_CACHE_S_MAXAGE'),
        staleWhileRevalidate: int('API_REST_CACHE_STALE_WHILE_REVALIDATE'),
      },
      pageCache: int('API_REST_PAGE_CACHE'),
      pageCacheBytes: int('API_REST_PAGE_CACHE_BYTES'),
      listMarks: int('API_REST_LIST_MARKS'),
      relations: { maxLinks: int('API_REST_RELATIONS_MAX_LINKS') },
      populate: { maxDocuments: int('API_REST_POPULATE_MAX_DOCUMENTS'), cacheBytes: int('API_REST_POPULATE_CACHE_BYTES') },
    },
    cacheTtlMs: int('CACHE_TTL_MS'),
    signIn: {
      clientLimit: int('ADMIN_SIGN_IN_CLIENT_LIMIT'),
      globalLimit: int('ADMIN_SIGN_IN_GLOBAL_LIMIT'),
      windowSeconds: int('ADMIN_SIGN_IN_WINDOW_SECONDS'),
    },
    maxBodyBytes: int('MAX_BODY_BYTES'),
    upload: {
      sizeLimit: int('UPLOAD_SIZE_LIMIT'),
      maxBodyBytes: int('UPLOAD_MAX_BODY_BYTES'),
      allowedTypes: text('UPLOAD_ALLOWED_TYPES')?.split(',').map((type) => type.trim()),
      breakpoints: breakpoints(text('UPLOAD_BREAKPOINTS')),
      keepLocation: text('UPLOAD_KEEP_LOCATION') === undefined ? undefined : text('UPLOAD_KEEP_LOCATION') === 'true',
    },
    log: {
      serviceName: text('POWERTOOLS_SERVICE_NAME'),
      logLevel: text('POWERTOOLS_LOG_LEVEL')?.toUpperCase(),
      debugSampleRate: rate('POWERTOOLS_LOGGER_SAMPLE_RATE'),
      metricsNamespace: text('POWERTOOLS_METRICS_NAMESPACE'),
    },
    webhooks: {
      allowInsecure: flag('WEBHOOKS_ALLOW_INSECURE'),
      allowPrivate: flag('WEBHOOKS_ALLOW_PRIVATE'),
      firstRetryMs: int('WEBHOOKS_FIRST_RETRY_MS'),
      maxRetryDelayMs: int('WEBHOOKS_MAX_RETRY_DELAY_MS'),
      retryForMs: int('WEBHOOKS_RETRY_FOR_MS'),
    },
  }
  const result = v.safeParse(ConfigSchema, input)
  if (result.success) return result.output
  const problems = result.issues.map((issue) => {
    const path = v.getDotPath(issue) ?? ''
    const name = VARIABLES[path] ?? path
    return `${name}='${String(issue.input)}' is invalid (${issue.message}); fix it, or unset it for the default`
  })
  throw new Error(`Invalid configuration: ${problems.join('; ')}`)
}
