// The content types as the admin web interface sees them. Every page reads the types through
// `typesOf`, and an attribute's optional schema settings through `AttributeView`, so the pages
// follow the registry whatever it grows (Strapi schema files: displayName, draftAndPublish,
// required, min/max, private, ...): nothing here names a particular type or attribute.
import { routeName, type ContentType } from '../content-types.js'
import type { Services } from '../services.js'

/** Every content type the deployment serves, in registry order. */
export function typesOf(services: Services): readonly ContentType[] {
  return services.types
}

/** The type served under `/admin/content/<segment>` (its API route name), if any. */
export function typeAt(services: Services, segment: string): ContentType | undefined {
  return typesOf(services).find((type) => routeName(type) === segment)
}

/** An attribute with every schema setting the interface can use; all but type optional. */
export interface AttributeView {
  readonly type: string
  readonly localized?: boolean
  readonly required?: boolean
  readonly enum?: readonly string[]
  readonly minLength?: number
  readonly maxLength?: number
  readonly min?: number | string
  readonly max?: number | string
  readonly private?: boolean
  readonly writable?: boolean
  readonly default?: unknown
}

/** A type's attributes in schema order. */
export function attributesOf(type: ContentType): [string, AttributeView][] {
  return Object.entries(type.attributes as Readonly<Record<string, AttributeView>>)
}

/** True when the attribute has one value per locale (a type that is not localized has none). */
export function isLocalized(type: ContentType, attribute: AttributeView): boolean {
  return (type as { localized?: boolean }).localized !== false && attribute.localized !== false
}

/** The type's name for people: its displayName, else its singular name capitalized. */
export function displayNameOf(type: ContentType): string {
  const given = (type as { displayName?: string }).displayName
  return given ?? type.singularName.charAt(0).toUpperCase() + type.singularName.slice(1)
}

/** True when the type has draft & publish: its pages then show status and publish actions. */
export function hasDraftAndPublish(type: ContentType): boolean {
  return (type as { draftAndPublish?: boolean }).draftAndPublish === true
}

const LABEL_TYPES = new Set(['string', 'uid', 'email', 'text'])

/** The attribute that names a document in lists, titles and pickers: the first public text attribute. */
export function labelAttribute(type: ContentType): string | undefined {
  return attributesOf(type).find(([, attribute]) => LABEL_TYPES.has(attribute.type) && attribute.private !== true)?.[0]
}
