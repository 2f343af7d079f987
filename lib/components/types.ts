// A component seen as a content type, so the code that reads a level of `populate`, `fields` and
// `filters` against a type's attributes and relations reads a component's the same way. Never
// served, stored or granted: it has no routes and no permissions of its own.
import type { ComponentField, ComponentSchema, ContentType } from '../content-types.js'

const asTypes = new WeakMap<object, ContentType>()

function typeOf(key: object, uid: string, displayName: string, parts: Pick<ContentType, 'attributes' | 'relations' | 'components'>): ContentType {
  let type = asTypes.get(key)
  if (type === undefined) {
    type = { uid, kind: 'collection', singularName: uid, pluralName: uid, displayName, localized: false, draftAndPublish: false, ...parts }
    asTypes.set(key, type)
  }
  return type
}

/** `schema` as a type (kept per schema). */
export function componentType(schema: ComponentSchema): ContentType {
  return typeOf(schema, schema.uid, schema.displayName, schema)
}

/** What a level below `field` may name: its component's attributes, or for a zone those of any of its components. */
export function typeBelowField(field: ComponentField): ContentType {
  if (field.kind === 'component') return componentType(field.components[0] as ComponentSchema)
  const merged = (key: 'attributes' | 'relations' | 'components') => Object.assign({}, ...field.components.map((component) => component[key])) as never
  return typeOf(field, field.components.map((component) => component.uid).join('|'), 'zone', { attributes: merged('attributes'), relations: merged('relations'), components: merged('components') })
}

/** True when `type` is a component seen as a type (componentType, typeBelowField). */
export function isComponentType(type: ContentType): boolean {
  return !type.uid.includes('::')
}
