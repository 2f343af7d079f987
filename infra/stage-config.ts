// The settings of one deployment stage, read once from the CDK context and validated: the
// `stages.<stage>` entry of cdk.json, overridden by top-level context keys such as
// `--context api.rest.maxLimit=200`. A bad value fails `cdk synth`, not a request.
import { RetentionDays } from 'aws-cdk-lib/aws-logs'
import * as v from 'valibot'
import { RestConfigSchema } from '../lib/config.js'
import { SLOT_COUNT } from '../lib/table.js'

/** The context keys a stage entry (or `--context`) may set, as the spec names them. */
export const SETTING_KEYS = [
  'api.rest.defaultLimit',
  'api.rest.maxLimit',
  'api.rest.findOneShape',
  'api.rest.maxScan',
  'api.rest.maxResponseBytes',
  'api.rest.cache.maxAge',
  'api.rest.cache.sMaxAge',
  'api.rest.cache.staleWhileRevalidate',
  'api.rest.pageCache',
  'api.rest.pageCacheBytes',
  'api.rest.listMarks',
  'api.rest.relations.maxLinks',
  'api.rest.populate.maxDocuments',
  'api.rest.populate.cacheBytes',
  'throttle.rateLimit',
  'throttle.burstLimit',
  'throttle.adminRateLimit',
  'throttle.adminBurstLimit',
  'waf.rateLimit',
  'table.maxReadRequestUnits',
  'table.maxWriteRequestUnits',
  'table.indexSlots',
  'budget.monthlyUsd',
  'budget.email',
  'cdn',
  'logRetentionDays',
  'protect',
] as const

type SettingKey = (typeof SETTING_KEYS)[number]

/** Stage names become part of resource names and the API URL. */
const StageNameSchema = v.pipe(v.string(), v.regex(/^[a-z][a-z0-9-]{0,19}$/, 'must be 1-20 of [a-z0-9-], starting with a letter'))

const WholeNumber = v.pipe(v.number('must be a whole number'), v.integer(), v.minValue(1))
/** 0 turns the feature off. */
const OptionalLimit = v.pipe(v.number('must be a whole number'), v.integer(), v.minValue(0))
/** CloudWatch Logs accepts only these retention periods. */
const RETENTION_DAYS = Object.values(RetentionDays).filter((days): days is RetentionDays => typeof days === 'number')

const StageSettingsSchema = v.pipe(
  v.object({
    rest: RestConfigSchema,
    /** Requests per second (and burst) of the whole stage, and of `/admin/*` alone. */
    throttle: v.object({ rateLimit: WholeNumber, burstLimit: WholeNumber, adminRateLimit: WholeNumber, adminBurstLimit: WholeNumber }),
    /** Requests per client IP in any 5 minutes before AWS WAF answers 429; 0: no web ACL. */
    waf: v.object({ rateLimit: v.union([v.literal(0), v.pipe(WholeNumber, v.minValue(10, 'must be 0 or at least 10'))]) }),
    /** On-demand maximum throughput of the table and each index (request units per second); 0: none. */
    table: v.object({
      maxReadRequestUnits: OptionalLimit,
      maxWriteRequestUnits: OptionalLimit,
      /**
       * How many slot indexes the table declares (all of them normally). CloudFormation adds one
       * GSI per update, so upgrading a table raises it one deploy at a time.
       */
      indexSlots: v.pipe(OptionalLimit, v.maxValue(SLOT_COUNT, `must be at most ${SLOT_COUNT}`)),
    }),
    /** A monthly cost budget emailing `email` at 80% forecast and 100% actual; 0: none. */
    budget: v.object({ monthlyUsd: OptionalLimit, email: v.string() }),
    /** CloudFront in front of the API, caching anonymous GETs as their Cache-Control allows. */
    cdn: v.boolean('must be true or false'),
    logRetentionDays: v.picklist(RETENTION_DAYS, `must be one of ${RETENTION_DAYS.join(', ')}`),
    /** Keep data on stack deletion (RETAIN, deletion protection) instead of allowing DESTROY. */
    protect: v.boolean('must be true or false'),
  }),
  v.check((settings) => settings.rest.defaultLimit <= settings.rest.maxLimit, 'api.rest.defaultLimit must not exceed api.rest.maxLimit'),
  v.check((settings) => settings.budget.monthlyUsd === 0 || /^[^@\s]+@[^@\s]+$/.test(settings.budget.email), 'budget.monthlyUsd needs budget.email'),
)

export type StageSettings = v.InferOutput<typeof StageSettingsSchema>

export interface Stage {
  readonly name: string
  readonly settings: StageSettings
}

type ContextReader = (key: string) => unknown

/** Context values given on the command line arrive as strings: `--context api.rest.maxLimit=200`. */
function fromCli(value: unknown): unknown {
  if (typeof value !== 'string') return value
  if (/^\d+$/.test(value)) return Number(value)
  return value === 'true' ? true : value === 'false' ? false : value
}

/** Settings of stages without an entry in cdk.json (`undefined`: lib/config.ts's default); `protect` is true for `prod` only. */
function defaults(stage: string): Partial<Record<SettingKey, unknown>> {
  return {
    'throttle.rateLimit': 50,
    'throttle.burstLimit': 100,
    'throttle.adminRateLimit': 5,
    'throttle.adminBurstLimit': 10,
    'waf.rateLimit': 0,
    'table.maxReadRequestUnits': 0,
    'table.maxWriteRequestUnits': 0,
    'table.indexSlots': SLOT_COUNT,
    'budget.monthlyUsd': 0,
    'budget.email': '',
    'cdn': false,
    'logRetentionDays': 30,
    'protect': stage === 'prod',
  }
}

/** The stage named by context `stage` (default `dev`) with its validated settings; throws when wrong. */
export function stageFromContext(context: ContextReader): Stage {
  const name = v.safeParse(StageNameSchema, context('stage') ?? 'dev')
  if (!name.success) throw new Error(`Invalid context stage: ${name.issues[0].message}`)
  const entries = (context('stages') ?? {}) as Record<string, Record<string, unknown> | undefined>
  const entry = entries[name.output] ?? {}
  const unknown = Object.keys(entry).filter((key) => !(SETTING_KEYS as readonly string[]).includes(key))
  if (unknown.length > 0) throw new Error(`Unknown settings in stages.${name.output}: ${unknown.join(', ')}`)
  const value = (key: SettingKey) => fromCli(context(key) ?? entry[key] ?? defaults(name.output)[key])
  const result = v.safeParse(StageSettingsSchema, {
    rest: {
      defaultLimit: value('api.rest.defaultLimit'),
      maxLimit: value('api.rest.maxLimit'),
      findOneShape: value('api.rest.findOneShape'),
      maxScan: value('api.rest.maxScan'),
      maxResponseBytes: value('api.rest.maxResponseBytes'),
      cache: {
        maxAge: value('api.rest.cache.maxAge'),
        sMaxAge: value('api.rest.cache.sMaxAge'),
        staleWhileRevalidate: value('api.rest.cache.staleWhileRevalidate'),
      },
      pageCache: value('api.rest.pageCache'),
      pageCacheBytes: value('api.rest.pageCacheBytes'),
      listMarks: value('api.rest.listMarks'),
      relations: { maxLinks: value('api.rest.relations.maxLinks') },
      populate: { maxDocuments: value('api.rest.populate.maxDocuments'), cacheBytes: value('api.rest.populate.cacheBytes') },
    },
    throttle: {
      rateLimit: value('throttle.rateLimit'),
      burstLimit: value('throttle.burstLimit'),
      adminRateLimit: value('throttle.adminRateLimit'),
      adminBurstLimit: value('throttle.adminBurstLimit'),
    },
    waf: { rateLimit: value('waf.rateLimit') },
    table: { maxReadRequestUnits: value('table.maxReadRequestUnits'), maxWriteRequestUnits: value('table.maxWriteRequestUnits'), indexSlots: value('table.indexSlots') },
    budget: { monthlyUsd: value('budget.monthlyUsd'), email: value('budget.email') },
    cdn: value('cdn'),
    logRetentionDays: value('logRetentionDays'),
    protect: value('protect'),
  })
  if (!result.success) {
    const problems = result.issues.map((issue) => `${v.getDotPath(issue) ?? '(root)'}: ${issue.message}`)
    throw new Error(`Invalid settings for stage ${name.output}: ${problems.join('; ')}`)
  }
  return { name: name.output, settings: result.output }
}

/** The environment variables lib/config.ts reads the `api.rest.*` settings from. */
export function restEnvironment(rest: StageSettings['rest']): Record<string, string> {
  return {
    API_REST_DEFAULT_LIMIT: String(rest.defaultLimit),
    API_REST_MAX_LIMIT: String(rest.maxLimit),
    API_REST_FIND_ONE_SHAPE: rest.findOneShape,
    API_REST_MAX_SCAN: String(rest.maxScan),
    API_REST_MAX_RESPONSE_BYTES: String(rest.maxResponseBytes),
    API_REST_CACHE_MAX_AGE: String(rest.cache.maxAge),
    API_REST_CACHE_S_MAXAGE: String(rest.cache.sMaxAge),
    API_REST_CACHE_STALE_WHILE_REVALIDATE: String(rest.cache.staleWhileRevalidate),
    API_REST_PAGE_CACHE: String(rest.pageCache),
    API_REST_PAGE_CACHE_BYTES: String(rest.pageCacheBytes),
    API_REST_LIST_MARKS: String(rest.listMarks),
    API_REST_RELATIONS_MAX_LINKS: String(rest.relations.maxLinks),
    API_REST_POPULATE_MAX_DOCUMENTS: String(rest.populate.maxDocuments),
    API_REST_POPULATE_CACHE_BYTES: String(rest.populate.cacheBytes),
  }
}
