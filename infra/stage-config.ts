// The settings of one deployment stage, read once from the CDK context and validated: the
// `stages.<stage>` entry of cdk.json, overridden by top-level context keys such as
// `--context api.rest.maxLimit=200`. A bad value fails `cdk synth`, not a request.
import { RetentionDays } from 'aws-cdk-lib/aws-logs'
import * as v from 'valibot'
import { RestConfigSchema } from '../lib/config.js'

/** The context keys a stage entry (or `--context`) may set, as the spec names them. */
export const SETTING_KEYS = [
  'api.rest.defaultLimit',
  'api.rest.maxLimit',
  'api.rest.findOneShape',
  'throttle.rateLimit',
  'throttle.burstLimit',
  'logRetentionDays',
  'protect',
] as const

/** Stage names become part of resource names and the API URL. */
const StageNameSchema = v.pipe(v.string(), v.regex(/^[a-z][a-z0-9-]{0,19}$/, 'must be 1-20 of [a-z0-9-], starting with a letter'))

const WholeNumber = v.pipe(v.number('must be a whole number'), v.integer(), v.minValue(1))
/** CloudWatch Logs accepts only these retention periods. */
const RETENTION_DAYS = Object.values(RetentionDays).filter((days): days is RetentionDays => typeof days === 'number')

const StageSettingsSchema = v.pipe(
  v.object({
    rest: RestConfigSchema,
    throttle: v.object({ rateLimit: WholeNumber, burstLimit: WholeNumber }),
    logRetentionDays: v.picklist(RETENTION_DAYS, `must be one of ${RETENTION_DAYS.join(', ')}`),
    /** Keep data on stack deletion (RETAIN, deletion protection) instead of allowing DESTROY. */
    protect: v.boolean('must be true or false'),
  }),
  v.check((settings) => settings.rest.defaultLimit <= settings.rest.maxLimit, 'api.rest.defaultLimit must not exceed api.rest.maxLimit'),
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

/** Settings of stages without an entry in cdk.json; `protect` defaults to true for `prod` only. */
function defaults(stage: string): Record<(typeof SETTING_KEYS)[number], unknown> {
  return {
    'api.rest.defaultLimit': undefined,
    'api.rest.maxLimit': undefined,
    'api.rest.findOneShape': undefined,
    'throttle.rateLimit': 50,
    'throttle.burstLimit': 100,
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
  const value = (key: (typeof SETTING_KEYS)[number]) => fromCli(context(key) ?? entry[key] ?? defaults(name.output)[key])
  const result = v.safeParse(StageSettingsSchema, {
    rest: { defaultLimit: value('api.rest.defaultLimit'), maxLimit: value('api.rest.maxLimit'), findOneShape: value('api.rest.findOneShape') },
    throttle: { rateLimit: value('throttle.rateLimit'), burstLimit: value('throttle.burstLimit') },
    logRetentionDays: value('logRetentionDays'),
    protect: value('protect'),
  })
  if (!result.success) {
    const problems = result.issues.map((issue) => `${v.getDotPath(issue) ?? '(root)'}: ${issue.message}`)
    throw new Error(`Invalid settings for stage ${name.output}: ${problems.join('; ')}`)
  }
  return { name: name.output, settings: result.output }
}
