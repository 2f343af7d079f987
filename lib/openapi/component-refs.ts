// How a type's schema refers to its components' schemas (lib/openapi/components.ts): by name, and a
// dynamic zone as a `oneOf` of them with a `__component` discriminator (content-model.md §18).
import type { ComponentField } from '../content-types.js'

type Schema = Record<string, unknown>

const ref = (name: string): Schema => ({ $ref: `#/components/schemas/${name}` })

/** The schema name of a component: `shared.seo` → `ComponentSharedSeo`. */
export function componentSchemaName(uid: string): string {
  return `Component${uid.split(/[.\-_]/).map((part) => part.charAt(0).toUpperCase() + part.slice(1)).join('')}`
}

/** The schema of a component attribute's value: an entry or null, an array of entries, or a zone's array of `oneOf` entries. */
export function componentFieldSchema(field: ComponentField): Schema {
  const refs = field.components.map((component) => ref(componentSchemaName(component.uid)))
  const bounds = { ...(field.min === undefined ? {} : { minItems: field.min }), ...(field.max === undefined ? {} : { maxItems: field.max }) }
  if (field.kind === 'dynamiczone') {
    const mapping = Object.fromEntries(field.components.map((component) => [component.uid, `#/components/schemas/${componentSchemaName(component.uid)}`]))
    return { type: 'array', ...bounds, items: { oneOf: refs, discriminator: { propertyName: '__component', mapping } }, description: 'A dynamic zone: entries of the listed components, each naming its own in __component' }
  }
  return field.repeatable ? { type: 'array', ...bounds, items: refs[0] } : { anyOf: [refs[0] as Schema, { type: 'null' }] }
}

