// One Strapi v5 schema.json, checked and turned into a ContentType (content-model.md §14). Pure:
// the caller reads the file; every problem is a SchemaError of one line naming the file and the
// key path, so start-up and `cdk synth` stop with a message a person can act on.
import * as v from 'valibot'
import { FILE_UID, SEARCHABLE_TEXT_TYPES, type Attribute, type ContentType, type Relation, type RelationKind } from '../content-types.js'
import { describe, isMediaDeclaration, PluginOptions, readAttribute, readComponentRef, readMedia, readRelation, SchemaError, type ComponentRef } from './attributes.js'
import type { ComponentRegistry } from './components.js'

export { SchemaError }

/** Where a schema file sits: its path (for messages) and the names its folders give its uid. */
export interface SchemaSource {
  readonly file: string
  readonly api: string
  readonly name: string
}

const KEBAB = /^[a-z][a-z0-9]*(-[a-z0-9]+)*$/
/** Route names the API keeps for itself. */
const RESERVED_ROUTES = new Set(['i18n', 'openapi.json', 'admin'])

/** What a uid may be derived from: the text types `_q` searches. */
const UID_SOURCES: ReadonlySet<string> = SEARCHABLE_TEXT_TYPES

const Flag = v.boolean('must be true or false')

const FileSchema = v.strictObject({
  kind: v.picklist(['collectionType', 'singleType'], "must be 'collectionType' or 'singleType'"),
  collectionName: v.optional(v.string('must be a string')),
  info: v.strictObject({
    singularName: v.pipe(v.string('must be a string'), v.regex(KEBAB, 'must be lower-case kebab-case (a-z, 0-9, -)')),
    pluralName: v.pipe(v.string('must be a string'), v.regex(KEBAB, 'must be lower-case kebab-case (a-z, 0-9, -)')),
    displayName: v.optional(v.string('must be a string')),
    description: v.optional(v.string('must be a string')),
    icon: v.optional(v.string('must be a string')),
    // Strapi 4's name for displayName, accepted and ignored (content-model.md §14).
    name: v.optional(v.string('must be a string')),
  }, 'must be an object'),
  options: v.optional(v.strictObject({
    draftAndPublish: v.optional(Flag),
    comment: v.optional(v.string()),
    populateCreatorFields: v.optional(Flag),
    // Strapi 4 and plugin options that change nothing here.
    increments: v.optional(Flag),
    timestamps: v.optional(v.unknown()),
    reviewWorkflows: v.optional(Flag),
    privateAttributes: v.optional(v.array(v.string())),
  }, 'must be an object')),
  pluginOptions: v.optional(PluginOptions),
  attributes: v.record(v.string(), v.record(v.string(), v.unknown(), 'must be an object'), 'must be an object'),
}, 'must be a JSON object')

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
      // Media attributes link files, which every deployment has.
      if (relation.target === FILE_UID) continue
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

/** What a type's file is read with besides the file itself. */
export interface ReadOptions {
  /** The deployment's components (content-model.md §18). */
  readonly components?: ComponentRegistry
  /** Configured base types of custom fields by uid (content-model.md §14). */
  readonly customFields?: Readonly<Record<string, string>>
  /** Start-up warnings (an attribute named `status` on a draft & publish type). */
  readonly warn?: (message: string) => void
}

/** Reads one parsed schema.json into a ContentType; throws a SchemaError on the first problem. */
export function readSchema(source: SchemaSource, json: unknown, options: ReadOptions = {}): ContentType {
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
  const draftAndPublish = file.options?.draftAndPublish === true
  const context = { localizedType, customFields: options.customFields ?? {}, fail }
  const attributes: Record<string, Attribute> = {}
  const relations: Record<string, Relation> = {}
  const refs: Record<string, ComponentRef> = {}
  for (const [name, raw] of Object.entries(file.attributes)) {
    if (isMediaDeclaration(raw)) relations[name] = readMedia(name, raw, fail)
    else if (raw.type === 'relation') relations[name] = readRelation(name, raw, fail)
    else if (raw.type === 'component' || raw.type === 'dynamiczone') refs[name] = readComponentRef(name, raw, context)
    else attributes[name] = readAttribute(name, raw, context)
  }
  for (const [name, attribute] of Object.entries(attributes)) {
    if (attribute.targetField === undefined) continue
    const target = attributes[attribute.targetField]
    if (target === undefined || !UID_SOURCES.has(target.type)) fail(`attributes.${name}.targetField`, `must name a text attribute of this type, not '${attribute.targetField}'`)
  }
  if (Object.hasOwn(file.attributes, 'status') && draftAndPublish) {
    // Strapi 5 accepts it too, with the same warning: the query parameter keeps its meaning.
    (options.warn ?? console.warn)(`${source.file}: attributes.status: an attribute named 'status' on a draft & publish type: the query parameter status still selects drafts or published versions (filter the attribute with filters[status])`)
  }
  const components = Object.keys(refs).length === 0 ? {} : options.components === undefined ? fail(`attributes.${Object.keys(refs)[0]}`, 'no components folder was read') : options.components.fields(refs, source.file)
  return {
    uid: `api::${source.api}.${source.name}`,
    kind,
    singularName,
    pluralName,
    displayName: file.info.displayName ?? singularName,
    localized: localizedType,
    draftAndPublish,
    attributes,
    relations,
    components,
  }
}
