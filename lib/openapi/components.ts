// Components and dynamic zones in the OpenAPI document (content-model.md §18): each component a
// schema of its own (`Component<Category><Name>`), a dynamic zone an array of `oneOf` them with a
// `__component` discriminator. The same schemas describe answers (populated) and write bodies.
import { isPrivate, type ComponentField, type ComponentSchema, type ContentType } from '../content-types.js'
import { componentFieldSchema, componentSchemaName } from './component-refs.js'
import { attributeSchema, closed, nullable, type Schema } from './schemas.js'

function componentSchema(component: ComponentSchema, inZones: boolean): Schema {
  const properties: Record<string, Schema> = {
    ...(inZones ? { __component: { type: 'string', const: component.uid, description: 'The component of a dynamic zone entry' } } : {}),
    id: { type: 'integer', minimum: 1, description: 'Unique among the document\'s components; send it back to keep the entry, leave it out for a new one' },
  }
  for (const [name, attribute] of Object.entries(component.attributes)) {
    if (!isPrivate(attribute)) properties[name] = nullable(attributeSchema(attribute))
  }
  for (const [name, relation] of Object.entries(component.relations)) {
    properties[name] = { description: `Links to ${relation.target} documents: documentIds in a write; the documents when populated` }
  }
  for (const [name, field] of Object.entries(component.components)) properties[name] = { ...componentFieldSchema(field), description: 'Only when populated' }
  return closed(properties, inZones ? ['__component'] : [], { description: `The component ${component.uid}` })
}

/** The schema of every component `types` use (nested ones included), by schema name. */
export function componentSchemas(types: readonly ContentType[]): Record<string, Schema> {
  const found = new Map<string, { component: ComponentSchema; inZones: boolean }>()
  const visit = (field: ComponentField) => {
    for (const component of field.components) {
      const seen = found.get(component.uid)
      found.set(component.uid, { component, inZones: (seen?.inZones ?? false) || field.kind === 'dynamiczone' })
      if (seen === undefined) Object.values(component.components).forEach(visit)
    }
  }
  for (const type of types) Object.values(type.components).forEach(visit)
  return Object.fromEntries([...found.values()].map(({ component, inZones }) => [componentSchemaName(component.uid), componentSchema(component, inZones)]))
}
