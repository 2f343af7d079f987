// Finds and reads the schema.json files of a folder: `<dir>/<name>/schema.json`, or a Strapi
// project's `src/api` tree, `<dir>/<api>/content-types/<name>/schema.json`, as it is. The result is
// every content type the deployment serves, checked as a whole (names used once).
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { join, relative, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { FILE_UID, routeName, type ContentType } from '../content-types.js'
import { loadComponents } from './components.js'
import { checkRelations, readSchema, SchemaError, type SchemaSource } from './model.js'

/** The project's own example types (content-model.md §17), served when no folder is configured. */
export const DEFAULT_CONTENT_TYPES_DIR = fileURLToPath(new URL('../../functions/content-types/', import.meta.url))

const isDirectory = (path: string) => existsSync(path) && statSync(path).isDirectory()

/** The schema files under `dir` in either layout, in name order (the order types are served and listed). */
export function findSchemaFiles(dir: string): SchemaSource[] {
  if (!isDirectory(dir)) throw new SchemaError(`${dir}: the content types folder does not exist (set CONTENT_TYPES_DIR to a folder of schema.json files)`)
  const sources: SchemaSource[] = []
  for (const entry of readdirSync(dir).sort()) {
    const folder = join(dir, entry)
    if (!isDirectory(folder)) continue
    if (existsSync(join(folder, 'schema.json'))) {
      sources.push({ file: join(folder, 'schema.json'), api: entry, name: entry })
      continue
    }
    const nested = join(folder, 'content-types')
    if (!isDirectory(nested)) continue
    for (const name of readdirSync(nested).sort()) {
      const file = join(nested, name, 'schema.json')
      if (existsSync(file)) sources.push({ file, api: entry, name })
    }
  }
  return sources
}

/** Where the components of the types under `dir` are: `<dir>/../components` (a Strapi project's `src/components` beside `src/api`). */
export function componentsDirOf(dir: string): string {
  return resolve(dir, '..', 'components')
}

/** What loadContentTypes reads besides the types' folder (content-model.md §14, §18). */
export interface LoadOptions {
  /** The components folder (COMPONENTS_DIR); `<dir>/../components` by default. */
  readonly componentsDir?: string
  /** Base types of custom fields by uid (CUSTOM_FIELDS). */
  readonly customFields?: Readonly<Record<string, string>>
  /** Start-up warnings; console.warn by default. */
  readonly warn?: (message: string) => void
}

/**
 * Every content type declared under `dir`; throws a SchemaError (one line: file, key path,
 * problem) on the first bad file, on no file at all, or on two types sharing a name or route.
 */
export function loadContentTypes(dir: string = DEFAULT_CONTENT_TYPES_DIR, options: LoadOptions = {}): ContentType[] {
  const sources = findSchemaFiles(dir)
  const components = loadComponents(options.componentsDir ?? componentsDirOf(dir), options.customFields)
  if (sources.length === 0) throw new SchemaError(`${dir}: no schema.json found (expected <dir>/<name>/schema.json or <dir>/<api>/content-types/<name>/schema.json)`)
  const types: ContentType[] = []
  const files = new Map<ContentType, string>()
  const taken = new Map<string, string>()
  for (const source of sources) {
    // Paths inside the working folder are shown relative to it, others as they are.
    const inside = relative(process.cwd(), source.file)
    const shown = { ...source, file: inside.startsWith('..') ? source.file : inside }
    let json: unknown
    try {
      json = JSON.parse(readFileSync(source.file, 'utf8'))
    } catch (error) {
      throw new SchemaError(`${shown.file}: not valid JSON (${error instanceof Error ? error.message : String(error)})`)
    }
    const type = readSchema(shown, json, { components, customFields: options.customFields, warn: options.warn })
    const names = new Set([type.singularName, type.pluralName, routeName(type)])
    for (const name of names) {
      const other = taken.get(name)
      if (other !== undefined) throw new SchemaError(`${shown.file}: info: the name '${name}' is already used by ${other}`)
      taken.set(name, shown.file)
    }
    types.push(type)
    files.set(type, shown.file)
  }
  checkRelations(types, (type) => files.get(type) ?? type.uid)
  for (const component of components.byUid.values()) {
    for (const [name, relation] of Object.entries(component.relations)) {
      if (relation.target !== FILE_UID && !types.some((type) => type.uid === relation.target)) throw new SchemaError(`${components.files.get(component.uid) ?? component.uid}: attributes.${name}: target '${relation.target}' is not a content type of this deployment (${types.map((t) => t.uid).join(', ')})`)
    }
  }
  return types
}

/**
 * The loader's options from the environment: COMPONENTS_DIR, and CUSTOM_FIELDS (a JSON object of
 * custom field uid → base type); a SchemaError naming the variable when it is malformed.
 */
export function loadOptionsFromEnv(env: Readonly<Record<string, string | undefined>>): LoadOptions {
  const componentsDir = env.COMPONENTS_DIR === undefined || env.COMPONENTS_DIR === '' ? undefined : resolve(env.COMPONENTS_DIR)
  const raw = env.CUSTOM_FIELDS
  if (raw === undefined || raw === '') return { componentsDir }
  let customFields: unknown
  try {
    customFields = JSON.parse(raw)
  } catch {
    customFields = undefined
  }
  if (typeof customFields !== 'object' || customFields === null || Array.isArray(customFields) || !Object.values(customFields).every((base) => typeof base === 'string')) {
    throw new SchemaError(`CUSTOM_FIELDS: must be a JSON object of custom field uid to base type, e.g. {"plugin::my-plugin.field":"string"}`)
  }
  return { componentsDir, customFields: customFields as Record<string, string> }
}
