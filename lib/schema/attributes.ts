// One attribute of a schema file (content-model.md §14, §16, §18), checked and normalized: the
// keys each type takes, the keys Strapi projects carry that change nothing here (accepted and
// ignored), `customField` attributes as their base type, relations, and component attributes
// (whose uids are resolved by the caller). Every problem names the key path.
import * as v from 'valibot'
import { FILE_UID, NUMBER_TYPES, SCALAR_TYPES, type Attribute, type AttributeType, type Relation, type RelationKind } from '../content-types.js'
import { RESERVED_NAMES } from '../table.js'
import { attributeValueSchema } from './values.js'

/** A schema file that cannot be served: `message` is one line, file and key path first. */
export class SchemaError extends Error {
  override readonly name = 'SchemaError'
}

/** Reports a problem at a key path (relative to the file), never returning. */
export type Fail = (path: string, problem: string) => never

export const SUPPORTED: readonly AttributeType[] = ['string', 'text', 'richtext', 'blocks', 'email', 'uid', 'enumeration', 'integer',
  'biginteger', 'float', 'decimal', 'boolean', 'date', 'time', 'datetime', 'json', 'password']

/**
 * Names storage keeps for itself on a version's item (lib/table.ts), the API's system fields, and
 * `localizations` (§16); `at` is a count item's field. `status` is an attribute name Strapi 5
 * accepts (content-model.md §14): it is served as any attribute.
 */
const RESERVED: ReadonlySet<string> = new Set([...RESERVED_NAMES, 'localizations', 'at'])
const SLOT_KEY = /^k\d+$/
const ATTRIBUTE_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/

const TEXT_TYPES: ReadonlySet<string> = new Set(['string', 'text', 'richtext', 'email', 'uid', 'password'])

const Flag = v.boolean('must be true or false')
const Length = v.pipe(v.number('must be a whole number'), v.integer('must be a whole number'), v.minValue(0, 'must be 0 or more'))
const Bound = v.union([v.pipe(v.number(), v.finite()), v.pipe(v.string(), v.regex(/^-?\d+(\.\d+)?$/))], 'must be a number')
const RELATION_KINDS: readonly RelationKind[] = ['oneToOne', 'oneToMany', 'manyToOne', 'manyToMany', 'oneWay', 'manyWay']
const I18n = v.strictObject({ localized: v.optional(Flag) }, 'must be an object')
/** Plugin options: only i18n means something here; other plugins' (versions, content-manager, ...) are accepted and ignored. */
export const PluginOptions = v.objectWithRest({ i18n: v.optional(I18n) }, v.unknown(), 'must be an object')
/** Keys Strapi's admin panel and plugins put on attributes, changing nothing here. */
const IGNORED = {
  configurable: v.optional(Flag),
  visible: v.optional(Flag),
  displayName: v.optional(v.string('must be a string')),
  conditions: v.optional(v.unknown()),
  useJoinTable: v.optional(Flag),
  pluginOptions: v.optional(PluginOptions),
}
/** A relation attribute's keys (content-model.md §16). */
const RelationSchema = v.strictObject({
  ...IGNORED,
  type: v.literal('relation'),
  relation: v.picklist(RELATION_KINDS, `must be one of ${RELATION_KINDS.join(', ')}`),
  target: v.pipe(v.string('must be a string'), v.regex(/^api::[a-z0-9-]+\.[a-z0-9-]+$/, "must name a type as 'api::<api>.<name>'")),
  inversedBy: v.optional(v.string('must be a string')),
  mappedBy: v.optional(v.string('must be a string')),
  private: v.optional(Flag),
})

/** Keys every scalar attribute may carry. */
const COMMON = {
  ...IGNORED,
  type: v.string(),
  required: v.optional(Flag),
  unique: v.optional(Flag),
  default: v.optional(v.unknown()),
  private: v.optional(Flag),
  writable: v.optional(Flag),
  searchable: v.optional(Flag),
}
const TEXT_OPTIONS = { minLength: v.optional(Length), maxLength: v.optional(Length), regex: v.optional(v.string('must be a string')) }
const NUMBER_OPTIONS = { min: v.optional(Bound), max: v.optional(Bound) }
const COUNT = v.optional(v.pipe(v.number('must be a whole number'), v.integer('must be a whole number'), v.minValue(0, 'must be 0 or more')))
const ComponentAttributeSchema = v.strictObject({
  ...IGNORED, type: v.literal('component'), component: v.string('must be a string naming a component'), repeatable: v.optional(Flag),
  required: v.optional(Flag), min: COUNT, max: COUNT,
})
const ZoneAttributeSchema = v.strictObject({
  ...IGNORED, type: v.literal('dynamiczone'),
  components: v.pipe(v.array(v.string('must be strings naming components'), 'must be an array of component uids'), v.minLength(1, 'must list at least one component')),
  required: v.optional(Flag), min: COUNT, max: COUNT,
})

function optionsSchema(type: string) {
  if (type === 'uid') return v.strictObject({ ...COMMON, ...TEXT_OPTIONS, targetField: v.optional(v.string('must be a string')), options: v.optional(v.record(v.string(), v.unknown())) })
  if (type === 'enumeration') return v.strictObject({ ...COMMON, enum: v.pipe(v.array(v.pipe(v.string('must be strings'), v.minLength(1, 'must be non-empty strings')), 'must be an array of strings'), v.minLength(1, 'must list at least one value')), enumName: v.optional(v.string()) })
  if (type === 'password') return v.strictObject({ ...COMMON, minLength: TEXT_OPTIONS.minLength, maxLength: TEXT_OPTIONS.maxLength })
  if (TEXT_TYPES.has(type)) return v.strictObject({ ...COMMON, ...TEXT_OPTIONS })
  if (NUMBER_TYPES.has(type as AttributeType)) return v.strictObject({ ...COMMON, ...NUMBER_OPTIONS })
  return v.strictObject(COMMON)
}

/** The one-line problem of the first valibot issue: its key path, then what is wrong. */
export function describe(issues: readonly v.BaseIssue<unknown>[], prefix: readonly string[]): string {
  const issue = issues[0] as v.BaseIssue<unknown>
  const path = [...prefix, ...(issue.path ?? []).map((item) => String(item.key))]
  // An unknown key is reported on the key itself.
  const problem = issue.expected === 'never' ? 'unknown key' : issue.input === undefined ? 'is required' : issue.message
  return `${path.join('.') || '(file)'}: ${problem}`
}

/** Base types of the custom fields real projects use most, served as those types (content-model.md §14). */
const BUILT_IN_CUSTOM_FIELDS: readonly [RegExp, AttributeType][] = [[/ckeditor/i, 'richtext'], [/color-?picker|\.colou?r$/i, 'string']]

/** What every attribute of one file is read with. */
export interface AttributeContext {
  /** The type's (or the holder's) i18n flag; attributes inside components are localized with their holder. */
  readonly localizedType: boolean
  /** Configured base types of custom fields by uid (`customFields`). */
  readonly customFields: Readonly<Record<string, string>>
  readonly fail: Fail
}

/** Checks an attribute's name; `at` is its key path. */
export function checkName(name: string, at: string, fail: Fail): void {
  if (!ATTRIBUTE_NAME.test(name)) fail(at, 'attribute names must start with a letter or _ and hold only letters, digits and _')
  if (RESERVED.has(name) || SLOT_KEY.test(name)) fail(at, `'${name}' is a reserved name`)
}

/** A `customField` attribute as its base type (its plugin's `options` dropped); other attributes as they are. */
function baseOf(raw: Record<string, unknown>, at: string, context: AttributeContext): Record<string, unknown> {
  if (raw.customField === undefined) return raw
  const uid = raw.customField
  if (typeof uid !== 'string') return context.fail(`${at}.customField`, 'must be a string naming the custom field')
  const base = context.customFields[uid] ?? BUILT_IN_CUSTOM_FIELDS.find(([pattern]) => pattern.test(uid))?.[1]
  if (base === undefined) return context.fail(`${at}.customField`, `unknown custom field '${uid}': set customFields: { "${uid}": "<base type>" } (CUSTOM_FIELDS) to the type it stores`)
  const { customField: _field, options: _options, ...rest } = raw
  return { ...rest, type: base }
}

/** Checks one scalar attribute's declaration and returns it normalized. */
export function readAttribute(name: string, declared: Record<string, unknown>, context: AttributeContext, prefix = 'attributes'): Attribute {
  const at = `${prefix}.${name}`
  const fail: Fail = context.fail
  checkName(name, at, fail)
  const raw = baseOf(declared, at, context)
  const type = raw.type
  if (typeof type !== 'string') fail(`${at}.type`, 'must be a string naming the attribute type')
  if (!(SUPPORTED as readonly string[]).includes(type)) fail(`${at}.type`, `unknown attribute type '${type}'`)
  const parsed = v.safeParse(optionsSchema(type), raw)
  if (!parsed.success) fail('', describe(parsed.issues, [...prefix.split('.'), name]))
  const options = parsed.output as Record<string, unknown>
  const number = (key: string) => (options[key] === undefined ? undefined : Number(options[key]))
  const explicit = (options.pluginOptions as { i18n?: { localized?: boolean } } | undefined)?.i18n?.localized
  const attribute: Attribute = {
    type: type as AttributeType,
    // Strapi's rule: an attribute is localized when it says so; a uid is, unless it says otherwise.
    localized: context.localizedType && (explicit ?? type === 'uid'),
    ...(options.required === true ? { required: true } : {}),
    ...(options.unique === true ? { unique: true } : {}),
    ...(options.default !== undefined ? { default: options.default } : {}),
    ...(number('minLength') !== undefined ? { minLength: number('minLength') } : {}),
    ...(number('maxLength') !== undefined ? { maxLength: number('maxLength') } : {}),
    ...(number('min') !== undefined ? { min: number('min') } : {}),
    ...(number('max') !== undefined ? { max: number('max') } : {}),
    ...(typeof options.regex === 'string' ? { regex: options.regex } : {}),
    ...(Array.isArray(options.enum) ? { enum: options.enum as string[] } : {}),
    ...(options.private === true || type === 'password' ? { private: true } : {}),
    ...(options.writable === false ? { writable: false } : {}),
    ...(options.searchable === false ? { searchable: false } : {}),
    ...(typeof options.targetField === 'string' ? { targetField: options.targetField } : {}),
  }
  checkOptions(attribute, at, fail)
  return attribute
}

function checkOptions(attribute: Attribute, at: string, fail: Fail): void {
  if (attribute.unique === true && !SCALAR_TYPES.has(attribute.type)) fail(`${at}.unique`, `unique is not supported on ${attribute.type} attributes`)
  if (attribute.minLength !== undefined && attribute.maxLength !== undefined && attribute.minLength > attribute.maxLength) fail(`${at}.minLength`, 'must not be greater than maxLength')
  if (attribute.min !== undefined && attribute.max !== undefined && attribute.min > attribute.max) fail(`${at}.min`, 'must not be greater than max')
  if (attribute.regex !== undefined) {
    try {
      new RegExp(attribute.regex)
    } catch {
      fail(`${at}.regex`, 'is not a valid regular expression')
    }
  }
  if (attribute.enum !== undefined && new Set(attribute.enum).size !== attribute.enum.length) fail(`${at}.enum`, 'lists a value twice')
  if (attribute.default !== undefined) {
    const checked = v.safeParse(attributeValueSchema(attribute), attribute.default)
    if (!checked.success) fail(`${at}.default`, `is not a valid value: ${checked.issues[0].message}`)
  }
}

/** Checks one relation attribute's declaration (its target and inverse are checked with every type, in load.ts). */
export function readRelation(name: string, raw: Record<string, unknown>, fail: Fail, prefix = 'attributes'): Relation {
  const at = `${prefix}.${name}`
  checkName(name, at, fail)
  const parsed = v.safeParse(RelationSchema, raw)
  if (!parsed.success) fail('', describe(parsed.issues, [...prefix.split('.'), name]))
  const options = parsed.output as v.InferOutput<typeof RelationSchema>
  if (options.inversedBy !== undefined && options.mappedBy !== undefined) fail(at, 'a relation has inversedBy or mappedBy, not both')
  const oneWay = options.relation === 'oneWay' || options.relation === 'manyWay'
  if (oneWay && (options.inversedBy !== undefined || options.mappedBy !== undefined)) fail(`${at}.relation`, `'${options.relation}' has no inverse: remove inversedBy/mappedBy`)
  return {
    relation: options.relation,
    target: options.target,
    many: options.relation === 'oneToMany' || options.relation === 'manyToMany' || options.relation === 'manyWay',
    ...(options.inversedBy === undefined ? {} : { inversedBy: options.inversedBy }),
    ...(options.mappedBy === undefined ? {} : { mappedBy: options.mappedBy }),
    ...(options.private === true ? { private: true } : {}),
  }
}

const MEDIA_KINDS = ['images', 'videos', 'audios', 'files'] as const
/** A media attribute's keys (content-model.md §19); admin-panel ones accepted and ignored. */
const MediaSchema = v.strictObject({
  type: v.literal('media'),
  multiple: v.optional(Flag),
  required: v.optional(Flag),
  allowedTypes: v.optional(v.array(v.picklist(MEDIA_KINDS, `must list some of ${MEDIA_KINDS.join(', ')}`), 'must be an array')),
  private: v.optional(Flag),
  configurable: v.optional(Flag),
  visible: v.optional(Flag),
  pluginOptions: v.optional(v.record(v.string(), v.unknown())),
})
/** Strapi's polymorphic links to files, read as media attributes (content-model.md §19). */
const MorphMediaSchema = v.strictObject({
  type: v.literal('relation'),
  relation: v.picklist(['morphOne', 'morphMany']),
  target: v.literal(FILE_UID),
  morphBy: v.optional(v.string()),
  private: v.optional(Flag),
  configurable: v.optional(Flag),
  visible: v.optional(Flag),
  pluginOptions: v.optional(v.record(v.string(), v.unknown())),
})

/** True for a media attribute's declaration, or a morph relation to files (read as one). */
export function isMediaDeclaration(raw: Record<string, unknown>): boolean {
  return raw.type === 'media' || (raw.type === 'relation' && raw.target === FILE_UID)
}

/**
 * Checks one media attribute (or a morph relation to files) and returns it as the one-way relation
 * to `plugin::upload.file` it is stored as: a file's documentId, or for `multiple` their list in
 * display order. A function of the declaration alone, so a media attribute inside a component can
 * be read the same way.
 */
export function readMedia(name: string, raw: Record<string, unknown>, fail: Fail, prefix = 'attributes'): Relation {
  const at = `${prefix}.${name}`
  checkName(name, at, fail)
  const morph = raw.type === 'relation'
  const parsed = v.safeParse(morph ? MorphMediaSchema : MediaSchema, raw)
  if (!parsed.success) fail('', describe(parsed.issues, [...prefix.split('.'), name]))
  const options = parsed.output as { multiple?: boolean; required?: boolean; allowedTypes?: string[]; private?: boolean; relation?: string }
  const many = morph ? options.relation === 'morphMany' : options.multiple === true
  return {
    relation: many ? 'manyWay' : 'oneWay',
    target: FILE_UID,
    many,
    ...(options.private === true ? { private: true } : {}),
    media: { ...(options.allowedTypes === undefined ? {} : { allowedTypes: options.allowedTypes }), ...(options.required === true ? { required: true } : {}) },
  }
}

/** A component or dynamic-zone attribute before its uids are resolved (components.ts). */
export interface ComponentRef {
  readonly kind: 'component' | 'dynamiczone'
  readonly uids: readonly string[]
  readonly localized: boolean
  readonly repeatable: boolean
  readonly required?: boolean
  readonly min?: number
  readonly max?: number
}

/** Checks a `component` or `dynamiczone` attribute's declaration (content-model.md §18). */
export function readComponentRef(name: string, raw: Record<string, unknown>, context: AttributeContext, prefix = 'attributes'): ComponentRef {
  const at = `${prefix}.${name}`
  checkName(name, at, context.fail)
  const zone = raw.type === 'dynamiczone'
  const parsed = v.safeParse(zone ? ZoneAttributeSchema : ComponentAttributeSchema, raw)
  if (!parsed.success) context.fail('', describe(parsed.issues, [...prefix.split('.'), name]))
  const options = parsed.output as { component?: string; components?: string[]; repeatable?: boolean; required?: boolean; min?: number; max?: number; pluginOptions?: { i18n?: { localized?: boolean } } }
  const repeatable = zone || options.repeatable === true
  if (!repeatable && (options.min !== undefined || options.max !== undefined)) context.fail(`${at}.${options.min === undefined ? 'max' : 'min'}`, 'applies to repeatable components and dynamic zones only')
  if (options.min !== undefined && options.max !== undefined && options.min > options.max) context.fail(`${at}.min`, 'must not be greater than max')
  return {
    kind: zone ? 'dynamiczone' : 'component',
    uids: zone ? (options.components as string[]) : [options.component as string],
    localized: context.localizedType && options.pluginOptions?.i18n?.localized === true,
    repeatable,
    ...(options.required === true ? { required: true } : {}),
    ...(options.min === undefined ? {} : { min: options.min }),
    ...(options.max === undefined ? {} : { max: options.max }),
  }
}
