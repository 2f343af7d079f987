// One Strapi v5 schema.json, checked and turned into a ContentType (content-model.md §14). Pure:
// the caller reads the file; every problem is a SchemaError of one line naming the file and the
// key path, so start-up and `cdk synth` stop with a message a person can act on.
import * as v from 'valibot'
import { NUMBER_TYPES, SCALAR_TYPES, SEARCHABLE_TEXT_TYPES, type Attribute, type AttributeType, type ContentType, type Relation, type RelationKind } from '../content-types.js'
import { RESERVED_NAMES } from '../table.js'
import { attributeValueSchema } from './values.js'

/** A schema file that cannot be served: `message` is one line, file and key path first. */
export class SchemaError extends Error {
  override readonly name = 'SchemaError'
}

/** Where a schema file sits: its path (for messages) and the names its folders give its uid. */
export interface SchemaSource {
  readonly file: string
  readonly api: string
  readonly name: string
}

const SUPPORTED: readonly AttributeType[] = ['string', 'text', 'richtext', 'blocks', 'email', 'uid', 'enumeration', 'integer',
  'biginteger', 'float', 'decimal', 'boolean', 'date', 'time', 'datetime', 'json', 'password']
const NOT_YET: Readonly<Record<string, string>> = {
  component: 'components are not supported yet',
  dynamiczone: 'dynamic zones are not supported yet',
  media: 'media attributes are not supported yet',
}


/**
 * Names storage keeps for itself on a version's item (lib/table.ts), the API's system fields, and
 * the names §15–§16 give meanings (`status`, `localizations`); `at` is a count item's field.
 */
const RESERVED: ReadonlySet<string> = new Set([...RESERVED_NAMES, 'status', 'localizations', 'at'])
const SLOT_KEY = /^k\d+$/
const ATTRIBUTE_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/
const KEBAB = /^[a-z][a-z0-9]*(-[a-z0-9]+)*$/
/** Route names the API keeps for itself. */
const RESERVED_ROUTES = new Set(['i18n', 'openapi.json', 'admin'])

const TEXT_TYPES: ReadonlySet<string> = new Set(['string', 'text', 'richtext', 'email', 'uid', 'password'])
/** What a uid may be derived from: the text types `_q` searches. */
const UID_SOURCES: ReadonlySet<string> = SEARCHABLE_TEXT_TYPES

const Flag = v.boolean('must be true or false')
const Length = v.pipe(v.number('must be a whole number'), v.integer('must be a whole number'), v.minValue(0, 'must be 0 or more'))
const Bound = v.union([v.pipe(v.number(), v.finite()), v.pipe(v.string(), v.regex(/^-?\d+(\.\d+)?$/))], 'must be a number')
const RELATION_KINDS: readonly RelationKind[] = ['oneToOne', 'oneToMany', 'manyToOne', 'manyToMany', 'oneWay', 'manyWay']
/** A relation attribute's keys (content-model.md §16); admin-panel ones accepted and ignored. */
const RelationSchema = v.strictObject({
  type: v.literal('relation'),
  relation: v.picklist(RELATION_KINDS, `must be one of ${RELATION_KINDS.join(', ')}`),
  target: v.pipe(v.string('must be a string'), v.regex(/^api::[a-z0-9-]+\.[a-z0-9-]+$/, "must name a type as 'api::<api>.<name>'")),
  inversedBy: v.optional(v.string('must be a string')),
  mappedBy: v.optional(v.string('must be a string')),
  private: v.optional(Flag),
  configurable: v.optional(Flag),
  visible: v.optional(Flag),
  useJoinTable: v.optional(Flag),
  pluginOptions: v.optional(v.record(v.string(), v.unknown())),
})
const I18n = v.strictObject({ localized: v.optional(Flag) }, 'must be an object')
/** Plugin options Strapi projects carry; only i18n means something here, the others are accepted and ignored. */
const PluginOptions = v.strictObject({
  i18n: v.optional(I18n),
  'content-manager': v.optional(v.record(v.string(), v.unknown())),
  'content-type-builder': v.optional(v.record(v.string(), v.unknown())),
}, 'must be an object')

/** Keys every attribute may carry (admin-panel ones accepted and ignored). */
const COMMON = {
  type: v.string(),
  required: v.optional(Flag),
  unique: v.optional(Flag),
  default: v.optional(v.unknown()),
  private: v.optional(Flag),
  writable: v.optional(Flag),
  searchable: v.optional(Flag),
  configurable: v.optional(Flag),
  visible: v.optional(Flag),
  pluginOptions: v.optional(PluginOptions),
}
const TEXT_OPTIONS = { minLength: v.optional(Length), maxLength: v.optional(Length), regex: v.optional(v.string('must be a string')) }
const NUMBER_OPTIONS = { min: v.optional(Bound), max: v.optional(Bound) }

function optionsSchema(type: string) {
  if (type === 'uid') return v.strictObject({ ...COMMON, ...TEXT_OPTIONS, targetField: v.optional(v.string('must be a string')), options: v.optional(v.record(v.string(), v.unknown())) })
  if (type === 'enumeration') return v.strictObject({ ...COMMON, enum: v.pipe(v.array(v.pipe(v.string('must be strings'), v.minLength(1, 'must be non-empty strings')), 'must be an array of strings'), v.minLength(1, 'must list at least one value')), enumName: v.optional(v.string()) })
  if (type === 'password') return v.strictObject({ ...COMMON, minLength: TEXT_OPTIONS.minLength, maxLength: TEXT_OPTIONS.maxLength })
  if (TEXT_TYPES.has(type)) return v.strictObject({ ...COMMON, ...TEXT_OPTIONS })
  if (NUMBER_TYPES.has(type as AttributeType)) return v.strictObject({ ...COMMON, ...NUMBER_OPTIONS })
  return v.strictObject(COMMON)
}

const FileSchema = v.strictObject({
  kind: v.picklist(['collectionType', 'singleType'], "must be 'collectionType' or 'singleType'"),
  collectionName: v.optional(v.string('must be a string')),
  info: v.strictObject({
    singularName: v.pipe(v.string('must be a string'), v.regex(KEBAB, 'must be lower-case kebab-case (a-z, 0-9, -)')),
    pluralName: v.pipe(v.string('must be a string'), v.regex(KEBAB, 'must be lower-case kebab-case (a-z, 0-9, -)')),
    displayName: v.optional(v.string('must be a string')),
    description: v.optional(v.string('must be a string')),
    icon: v.optional(v.string('must be a string')),
  }, 'must be an object'),
  options: v.optional(v.strictObject({
    draftAndPublish: v.optional(Flag),
    comment: v.optional(v.string()),
    populateCreatorFields: v.optional(Flag),
  }, 'must be an object')),
  pluginOptions: v.optional(PluginOptions),
  attributes: v.record(v.string(), v.record(v.string(), v.unknown(), 'must be an object'), 'must be an object'),
}, 'must be a JSON object')

/** The one-line problem of the first valibot issue: its key path, then what is wrong. */
function describe(issues: readonly v.BaseIssue<unknown>[], prefix: readonly string[]): string {
  const issue = issues[0] as v.BaseIssue<unknown>
  const path = [...prefix, ...(issue.path ?? []).map((item) => String(item.key))]
  // An unknown key is reported on the key itself.
  const problem = issue.expected === 'never' ? 'unknown key' : issue.input === undefined ? 'is required' : issue.message
  return `${path.join('.') || '(file)'}: ${problem}`
}

/** Checks one attribute's declaration and returns it normalized; `localizedType` is the type's i18n flag. */
function readAttribute(name: string, raw: Record<string, unknown>, localizedType: boolean, fail: (path: string, problem: string) => never): Attribute {
  const at = `attributes.${name}`
  if (!ATTRIBUTE_NAME.test(name)) fail(at, 'attribute names must start with a letter or _ and hold only letters, digits and _')
  if (RESERVED.has(name) || SLOT_KEY.test(name)) fail(at, `'${name}' is a reserved name`)
  const type = raw.type
  if (typeof type !== 'string') fail(`${at}.type`, 'must be a string naming the attribute type')
  if (Object.hasOwn(NOT_YET, type)) fail(`${at}.type`, `'${type}' is not supported: ${NOT_YET[type]}`)
  if (!(SUPPORTED as readonly string[]).includes(type)) fail(`${at}.type`, `unknown attribute type '${type}'`)
  const parsed = v.safeParse(optionsSchema(type), raw)
  if (!parsed.success) fail('', describe(parsed.issues, ['attributes', name]))
  const options = parsed.output as Record<string, unknown>
  const number = (key: string) => (options[key] === undefined ? undefined : Number(options[key]))
  const explicit = (options.pluginOptions as { i18n?: { localized?: boolean } } | undefined)?.i18n?.localized
  const attribute: Attribute = {
    type: type as AttributeType,
    // Strapi's rule: an attribute is localized when it says so; a uid is, unless it says otherwise.
    localized: localizedType && (explicit ?? type === 'uid'),
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
  if (attribute.unique === true && !SCALAR_TYPES.has(attribute.type)) fail(`${at}.unique`, `unique is not supported on ${type} attributes`)
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
  return attribute
}

/** Checks one relation attribute's declaration (its target and inverse are checked with every type, in load.ts). */
function readRelation(name: string, raw: Record<string, unknown>, fail: (path: string, problem: string) => never): Relation {
  const at = `attributes.${name}`
  if (!ATTRIBUTE_NAME.test(name)) fail(at, 'attribute names must start with a letter or _ and hold only letters, digits and _')
  if (RESERVED.has(name) || SLOT_KEY.test(name)) fail(at, `'${name}' is a reserved name`)
  const parsed = v.safeParse(RelationSchema, raw)
  if (!parsed.success) fail('', describe(parsed.issues, ['attributes', name]))
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

/** The kind the other side of a bidirectional relation must declare. */
const INVERSE_KIND: Readonly<Record<string, RelationKind>> = { oneToOne: 'oneToOne', oneToMany: 'manyToOne', manyToOne: 'oneToMany', manyToMany: 'manyToMany' }

/**
 * Checks every relation against the types it names: an existing target, and an inverse declared
 * on both sides with matching kinds. `fileOf` names the file a type came from.
 */
export function checkRelations(types: readonly ContentType[], fileOf: (type: ContentType) => string): void {
  for (const type of types) {
    for (const [name, relation] of Object.entries(type.relations)) {
      const fail = (problem: string): never => {
        throw new SchemaError(`${fileOf(type)}: attributes.${name}: ${problem}`)
      }
      const target = types.find((candidate) => candidate.uid === relation.target)
      if (target === undefined) fail(`target '${relation.target}' is not a content type of this deployment (${types.map((t) => t.uid).join(', ')})`)
      const otherName = relation.inversedBy ?? relation.mappedBy
      if (otherName === undefined) continue
      const other = (target as ContentType).relations[otherName]
      const key = relation.inversedBy !== undefined ? 'inversedBy' : 'mappedBy'
      const back = relation.inversedBy !== undefined ? 'mappedBy' : 'inversedBy'
      if (other === undefined) fail(`${key} '${otherName}' is not a relation attribute of ${relation.target}`)
      const inverse = other as Relation
      if (inverse.target !== type.uid || (back === 'mappedBy' ? inverse.mappedBy : inverse.inversedBy) !== name) {
        fail(`${key} '${otherName}' does not match: ${relation.target}.${otherName} must declare target '${type.uid}' and ${back} '${name}'`)
      }
      if (INVERSE_KIND[relation.relation] !== inverse.relation) fail(`relation '${relation.relation}' does not match ${relation.target}.${otherName}'s '${inverse.relation}' (expected '${INVERSE_KIND[relation.relation]}')`)
    }
  }
}

/** Reads one parsed schema.json into a ContentType; throws a SchemaError on the first problem. */
export function readSchema(source: SchemaSource, json: unknown): ContentType {
  const fail = (path: string, problem: string): never => {
    throw new SchemaError(`${source.file}: ${path === '' ? problem : `${path}: ${problem}`}`)
  }
  const parsed = v.safeParse(FileSchema, json)
  if (!parsed.success) fail('', describe(parsed.issues, []))
  const file = parsed.output as v.InferOutput<typeof FileSchema>
  const { singularName, pluralName } = file.info
  const kind = file.kind === 'collectionType' ? 'collection' : 'single'
  if (kind === 'collection' && singularName === pluralName) fail('info.pluralName', 'must differ from info.singularName')
  for (const [key, value] of [['singularName', singularName], ['pluralName', pluralName]] as const) {
    if (RESERVED_ROUTES.has(value)) fail(`info.${key}`, `'${value}' is a route the API keeps for itself`)
  }
  const localizedType = file.pluginOptions?.i18n?.localized === true
  const attributes: Record<string, Attribute> = {}
  const relations: Record<string, Relation> = {}
  for (const [name, raw] of Object.entries(file.attributes)) {
    if (raw.type === 'relation') relations[name] = readRelation(name, raw, fail)
    else attributes[name] = readAttribute(name, raw, localizedType, fail)
  }
  for (const [name, attribute] of Object.entries(attributes)) {
    if (attribute.targetField === undefined) continue
    const target = attributes[attribute.targetField]
    if (target === undefined || !UID_SOURCES.has(target.type)) fail(`attributes.${name}.targetField`, `must name a text attribute of this type, not '${attribute.targetField}'`)
  }
  return {
    uid: `api::${source.api}.${source.name}`,
    kind,
    singularName,
    pluralName,
    displayName: file.info.displayName ?? singularName,
    localized: localizedType,
    draftAndPublish: file.options?.draftAndPublish === true,
    attributes,
    relations,
  }
}
