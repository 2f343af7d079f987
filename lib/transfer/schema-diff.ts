// The schema comparison that comes before an import writes anything (integration.md §21): each
// content type of the archive (`api::` uids) is read by the project's own schema reader, as if it
// were a schema file here, and compared with the project's type of the same uid, field by field.
// Every difference is listed; none means the archive's documents fit the project's types.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { ContentType } from '../content-types.js'
import { loadComponents, type ComponentRegistry } from '../schema/components.js'
import { readSchema, SchemaError } from '../schema/model.js'
import type { SchemaRecord } from './archive-records.js'

/**
 * Attributes Strapi adds to every schema it exports (system fields, creators, the localizations
 * link); the project has them without declaring them.
 */
const STRAPI_SYSTEM_ATTRIBUTES = new Set(['createdAt', 'updatedAt', 'publishedAt', 'createdBy', 'updatedBy', 'locale', 'localizations'])

/** The archive's schema as a schema file would hold it: system attributes and export-only keys left out. */
function asSchemaFile(record: SchemaRecord): Record<string, unknown> {
  const attributes = Object.fromEntries(Object.entries(record.attributes).filter(([name]) => !STRAPI_SYSTEM_ATTRIBUTES.has(name)))
  const file: Record<string, unknown> = { kind: record.kind, info: record.info, attributes }
  for (const key of ['collectionName', 'options', 'pluginOptions'] as const) if (record[key] !== undefined) file[key] = record[key]
  return file
}

/**
 * The archive's components (its `modelType: component` schemas), read by the project's component
 * reader: written as component files to a folder of their own for that, then removed.
 */
function archiveComponents(records: readonly SchemaRecord[]): ComponentRegistry {
  const dir = mkdtempSync(join(tmpdir(), 'archive-components-'))
  try {
    for (const record of records.filter((candidate) => candidate.modelType === 'component')) {
      const [category = '', name = ''] = record.uid.split('.')
      const { collectionName, info, options, pluginOptions, attributes } = record
      mkdirSync(join(dir, category), { recursive: true })
      writeFileSync(join(dir, category, `${name}.json`), JSON.stringify({ collectionName, info, options, pluginOptions, attributes }))
    }
    return loadComponents(dir)
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

/** The archive's content types: the `api::` schemas, read by the project's schema reader (or the reason it cannot). */
export function archiveTypes(records: readonly SchemaRecord[]): { types: ContentType[]; problems: string[] } {
  const types: ContentType[] = []
  const problems: string[] = []
  let components: ComponentRegistry
  try {
    components = archiveComponents(records)
  } catch (error) {
    if (!(error instanceof SchemaError)) throw error
    return { types, problems: [`archive components: ${error.message}`] }
  }
  for (const record of records.filter((candidate) => candidate.uid.startsWith('api::'))) {
    const [api = '', name = ''] = record.uid.slice('api::'.length).split('.')
    try {
      types.push(readSchema({ file: `archive schema ${record.uid}`, api, name }, asSchemaFile(record), { components }))
    } catch (error) {
      if (!(error instanceof SchemaError)) throw error
      problems.push(error.message)
    }
  }
  return { types, problems }
}

const show = (value: unknown) => (value === undefined ? '(absent)' : JSON.stringify(value))

/** Differences of two values of one key path: `where: archive X, project Y`. */
function compareKeys(where: string, archive: object, project: object, out: string[]): void {
  const keys = new Set([...Object.keys(archive), ...Object.keys(project)])
  for (const key of keys) {
    const a = (archive as Record<string, unknown>)[key]
    const p = (project as Record<string, unknown>)[key]
    if (JSON.stringify(a) !== JSON.stringify(p)) out.push(`${where}.${key}: archive ${show(a)}, project ${show(p)}`)
  }
}

/** Every difference between the archive's types and the project's, one line each (empty: they match). */
export function schemaDifferences(records: readonly SchemaRecord[], project: readonly ContentType[]): string[] {
  const { types, problems } = archiveTypes(records)
  const out = [...problems]
  const readable = new Set(records.filter((record) => record.uid.startsWith('api::')).map((record) => record.uid))
  for (const type of project) if (!readable.has(type.uid)) out.push(`${type.uid}: a content type of the project, not in the archive`)
  for (const archived of types) {
    const mine = project.find((type) => type.uid === archived.uid)
    if (mine === undefined) {
      out.push(`${archived.uid}: in the archive, not a content type of the project (add its schema.json to the project's content types)`)
      continue
    }
    const { attributes: aAttributes, relations: aRelations, displayName: _a, ...aType } = archived
    const { attributes: pAttributes, relations: pRelations, displayName: _p, ...pType } = mine
    compareKeys(archived.uid, aType, pType, out)
    for (const [kind, a, p] of [['attributes', aAttributes, pAttributes], ['relations', aRelations, pRelations]] as const) {
      for (const name of new Set([...Object.keys(a), ...Object.keys(p)])) {
        const inArchive = a[name]
        const inProject = p[name]
        if (inArchive === undefined) out.push(`${archived.uid}.${name}: ${kind === 'relations' ? 'a relation' : 'an attribute'} of the project, not in the archive`)
        else if (inProject === undefined) out.push(`${archived.uid}.${name}: ${kind === 'relations' ? 'a relation' : 'an attribute'} in the archive, not in the project`)
        else compareKeys(`${archived.uid}.${name}`, inArchive, inProject, out)
      }
    }
  }
  return out
}
