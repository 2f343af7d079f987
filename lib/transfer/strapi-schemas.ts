// The `schemas/` lines of an exported archive (integration.md §21): each schema file of the
// project (its types, and its components) as Strapi lists it in its own archives — the file's keys,
// the system attributes Strapi adds, and the names it derives (modelName, uid, globalId) — then
// Strapi 5's own types (plugin::, admin::) as a Strapi 5.54 project has them, so that `strapi
// import` finds the archive's schemas equal to its project's and has no difference to report.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { componentsDirOf, findSchemaFiles } from '../schema/load.js'

/** The Strapi version whose own schemas the archive carries (metadata.json names it). */
export const STRAPI_VERSION = '5.54.0'

type Json = Record<string, unknown>

const pascal = (text: string) => text.split(/[^a-zA-Z0-9]+/).filter(Boolean).map((part) => part[0]?.toUpperCase() + part.slice(1)).join('')

/** The attributes Strapi adds to every content type (`locale` public only on localized ones). */
function systemAttributes(uid: string, collectionName: string, localized: boolean): Json {
  const creator = { type: 'relation', relation: 'oneToOne', target: 'admin::user', configurable: false, writable: false, visible: false, useJoinTable: false, private: true }
  return {
    createdAt: { type: 'datetime' },
    updatedAt: { type: 'datetime' },
    publishedAt: { type: 'datetime', configurable: false, writable: true, visible: true },
    createdBy: creator,
    updatedBy: creator,
    locale: { writable: true, private: !localized, configurable: false, visible: false, type: 'string' },
    localizations: {
      type: 'relation', relation: 'oneToMany', target: uid, writable: false, private: !localized, configurable: false, visible: false, unstable_virtual: true,
      joinColumn: { name: 'document_id', referencedColumn: 'document_id', referencedTable: collectionName },
    },
  }
}

function typeRecord(file: Json, api: string, name: string): Json {
  const info = file.info as Json
  const uid = `api::${api}.${name}`
  const collectionName = (file.collectionName as string | undefined) ?? String(info.pluralName)
  const localized = (file.pluginOptions as { i18n?: { localized?: boolean } } | undefined)?.i18n?.localized === true
  const record: Json = { collectionName, info, options: file.options ?? {} }
  if (file.pluginOptions !== undefined) record.pluginOptions = file.pluginOptions
  return {
    ...record,
    attributes: { ...(file.attributes as Json), ...systemAttributes(uid, collectionName, localized) },
    kind: file.kind, modelType: 'contentType', modelName: name, uid, globalId: pascal(String(info.singularName)),
  }
}

function componentRecord(file: Json, category: string, name: string): Json {
  const { collectionName, info, options, pluginOptions, attributes } = file
  const record: Json = { collectionName: collectionName ?? `components_${category}_${name}s`, info, options: options ?? {} }
  if (pluginOptions !== undefined) record.pluginOptions = pluginOptions
  return { ...record, attributes, modelType: 'component', modelName: name, uid: `${category}.${name}`, globalId: `Component${pascal(category)}${pascal(name)}` }
}

const readJson = (file: string | URL) => JSON.parse(readFileSync(file, 'utf8')) as Json
const isDirectory = (path: string) => existsSync(path) && statSync(path).isDirectory()

/** Every schema line of an archive of the project whose schema files are under `typesDir`. */
export function archiveSchemas(typesDir: string): Json[] {
  const types = findSchemaFiles(typesDir).map((source) => typeRecord(readJson(source.file), source.api, source.name))
  const componentsDir = componentsDirOf(typesDir)
  const components = !isDirectory(componentsDir) ? [] : readdirSync(componentsDir).sort().flatMap((category) =>
    !isDirectory(join(componentsDir, category)) ? [] : readdirSync(join(componentsDir, category)).filter((name) => name.endsWith('.json')).sort()
      .map((name) => componentRecord(readJson(join(componentsDir, category, name)), category, name.slice(0, -'.json'.length))))
  const builtins = readJson(new URL('./strapi-builtin-schemas.json', import.meta.url)) as unknown as Json[]
  return [...builtins, ...types, ...components]
}
