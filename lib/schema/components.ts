// Component files (content-model.md §18): `<dir>/<category>/<name>.json`, uid `<category>.<name>`,
// read and checked as a whole: attributes as a type's (lib/schema/attributes.ts), nested
// components resolved by uid, cycles and unknown uids refused naming the file and the key.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { join, relative } from 'node:path'
import * as v from 'valibot'
import type { Attribute, ComponentField, ComponentSchema, Relation } from '../content-types.js'
import { describe, isMediaDeclaration, PluginOptions, readAttribute, readMedia, readComponentRef, readRelation, SchemaError, type ComponentRef, type Fail } from './attributes.js'

const CATEGORY = /^[a-z0-9][a-z0-9_-]*$/i

const ComponentFileSchema = v.strictObject({
  collectionName: v.optional(v.string('must be a string')),
  uid: v.optional(v.string('must be a string')),
  category: v.optional(v.string('must be a string')),
  info: v.optional(v.strictObject({
    displayName: v.optional(v.string('must be a string')),
    name: v.optional(v.string('must be a string')),
    icon: v.optional(v.string('must be a string')),
    description: v.optional(v.string('must be a string')),
  }, 'must be an object')),
  options: v.optional(v.record(v.string(), v.unknown(), 'must be an object')),
  pluginOptions: v.optional(PluginOptions),
  config: v.optional(v.unknown()),
  attributes: v.record(v.string(), v.record(v.string(), v.unknown(), 'must be an object'), 'must be an object'),
}, 'must be a JSON object')

/** A component file read, its nested components not yet resolved. */
interface RawComponent {
  readonly uid: string
  readonly file: string
  readonly displayName: string
  readonly attributes: Record<string, Attribute>
  readonly relations: Record<string, Relation>
  readonly refs: Record<string, ComponentRef>
}

const isDirectory = (path: string) => existsSync(path) && statSync(path).isDirectory()
const shownPath = (file: string) => {
  const inside = relative(process.cwd(), file)
  return inside.startsWith('..') ? file : inside
}

/** The component files under `dir` (none when it does not exist), in uid order. */
function findComponentFiles(dir: string): { file: string; uid: string }[] {
  if (!isDirectory(dir)) return []
  const found: { file: string; uid: string }[] = []
  for (const category of readdirSync(dir).sort()) {
    const folder = join(dir, category)
    if (!isDirectory(folder)) continue
    for (const name of readdirSync(folder).sort()) {
      if (!name.endsWith('.json')) continue
      if (!CATEGORY.test(category)) throw new SchemaError(`${shownPath(join(folder, name))}: the category folder '${category}' must hold only letters, digits, - and _`)
      found.push({ file: join(folder, name), uid: `${category}.${name.slice(0, -'.json'.length)}` })
    }
  }
  return found
}

function readComponentFile(file: string, uid: string, customFields: Readonly<Record<string, string>>): RawComponent {
  const shown = shownPath(file)
  const fail: Fail = (path, problem) => {
    throw new SchemaError(`${shown}: ${path === '' ? problem : `${path}: ${problem}`}`)
  }
  let json: unknown
  try {
    json = JSON.parse(readFileSync(file, 'utf8'))
  } catch (error) {
    return fail('', `not valid JSON (${error instanceof Error ? error.message : String(error)})`)
  }
  const parsed = v.safeParse(ComponentFileSchema, json)
  if (!parsed.success) fail('', describe(parsed.issues, []))
  const content = parsed.output as v.InferOutput<typeof ComponentFileSchema>
  // Inside a component nothing is localized on its own: the attribute holding it is, as a whole.
  const context = { localizedType: false, customFields, fail }
  const attributes: Record<string, Attribute> = {}
  const relations: Record<string, Relation> = {}
  const refs: Record<string, ComponentRef> = {}
  for (const [name, raw] of Object.entries(content.attributes)) {
    // Media (content-model.md §19) as at top level: a one-way relation to files.
    if (isMediaDeclaration(raw)) relations[name] = readMedia(name, raw, fail)
    else if (raw.type === 'relation') {
      const relation = readRelation(name, raw, fail)
      if (relation.inversedBy !== undefined || relation.mappedBy !== undefined) fail(`attributes.${name}`, 'relations inside components are one-way: remove inversedBy/mappedBy')
      relations[name] = relation
    } else if (raw.type === 'dynamiczone') fail(`attributes.${name}.type`, 'dynamic zones cannot be nested inside components')
    else if (raw.type === 'component') refs[name] = readComponentRef(name, raw, context)
    else attributes[name] = readAttribute(name, raw, context)
  }
  return { uid, file: shown, displayName: content.info?.displayName ?? content.info?.name ?? uid, attributes, relations, refs }
}

/** Resolves `ref`'s uids among `raw` components into fields; `at` names the file and key for errors. */
function fieldOf(ref: ComponentRef, resolve: (uid: string, at: string) => ComponentSchema, at: (index: number) => string): ComponentField {
  return {
    kind: ref.kind,
    localized: ref.localized,
    repeatable: ref.repeatable,
    components: ref.uids.map((uid, index) => resolve(uid, at(index))),
    ...(ref.required === undefined ? {} : { required: ref.required }),
    ...(ref.min === undefined ? {} : { min: ref.min }),
    ...(ref.max === undefined ? {} : { max: ref.max }),
  }
}

/** The components of a deployment, by uid, with the resolver types use for their own component attributes. */
export interface ComponentRegistry {
  readonly byUid: ReadonlyMap<string, ComponentSchema>
  /** The file of each component, as messages show it. */
  readonly files: ReadonlyMap<string, string>
  /** The fields of `refs` (a type's), resolved; an unknown uid stops start-up naming `file` and the key. */
  fields(refs: Readonly<Record<string, ComponentRef>>, file: string): Record<string, ComponentField>
}

/**
 * Every component under `dir` (none when it does not exist), nested components resolved; a
 * SchemaError naming the file and key path for a bad file, an unknown uid or a cycle.
 */
export function loadComponents(dir: string, customFields: Readonly<Record<string, string>> = {}): ComponentRegistry {
  const raw = new Map(findComponentFiles(dir).map(({ file, uid }) => [uid, readComponentFile(file, uid, customFields)]))
  const done = new Map<string, ComponentSchema>()
  const visiting: string[] = []
  const known = () => (raw.size === 0 ? `none found in ${shownPath(dir)}` : [...raw.keys()].join(', '))
  const resolve = (uid: string, at: string): ComponentSchema => {
    const found = done.get(uid)
    if (found !== undefined) return found
    const component = raw.get(uid)
    if (component === undefined) throw new SchemaError(`${at}: unknown component '${uid}' (components: ${known()})`)
    if (visiting.includes(uid)) throw new SchemaError(`${at}: components nest in a cycle: ${[...visiting.slice(visiting.indexOf(uid)), uid].join(' → ')}`)
    visiting.push(uid)
    const components = Object.fromEntries(Object.entries(component.refs).map(([name, ref]) =>
      [name, fieldOf(ref, resolve, () => `${component.file}: attributes.${name}.component`)]))
    visiting.pop()
    const schema: ComponentSchema = { uid, displayName: component.displayName, attributes: component.attributes, relations: component.relations, components }
    done.set(uid, schema)
    return schema
  }
  for (const uid of raw.keys()) resolve(uid, uid)
  return {
    byUid: done,
    files: new Map([...raw].map(([uid, component]) => [uid, component.file])),
    fields: (refs, file) => Object.fromEntries(Object.entries(refs).map(([name, ref]) =>
      [name, fieldOf(ref, resolve, (index) => `${file}: attributes.${name}.${ref.kind === 'dynamiczone' ? `components.${index}` : 'component'}`)])),
  }
}
