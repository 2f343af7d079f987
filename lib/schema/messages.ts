// Strapi's wording of body validation messages (its yup-based entity validator, 5.x), which
// clients and Strapi's own tests match on (issue 33): each is the text after the attribute name.
import type { Attribute } from '../content-types.js'

/** A JSON value as yup's printValue shows it (strings quoted, nested values indented by 2). */
export function printValue(value: unknown): string {
  const simple = (item: unknown): string | undefined => {
    if (item === null || typeof item === 'boolean') return String(item)
    if (typeof item === 'number') return Object.is(item, -0) ? '-0' : String(item)
    if (typeof item === 'string') return `"${item}"`
    return undefined
  }
  try {
    const printed = simple(value) ?? JSON.stringify(value, function (this: Record<string, unknown>, key, item: unknown) {
      return simple(this[key]) ?? item
    }, 2)
    // The caller's value, in a message: bounded, as the body it came from is only by its bytes.
    return printed.length <= MAX_PRINTED ? printed : `${printed.slice(0, MAX_PRINTED)}…`
  } catch {
    // Nested deeper than JSON.stringify's stack allows (a hostile body): a 400 still, never a 500.
    return '(a value nested too deeply to show)'
  }
}

/** The longest value a message shows. */
const MAX_PRINTED = 200

/** The yup type Strapi checks an attribute's values against, where it checks one. */
function yupType(attribute: Attribute): string | undefined {
  switch (attribute.type) {
    case 'string': case 'text': case 'richtext': case 'email': case 'uid': case 'enumeration': case 'password':
      return 'string'
    case 'integer': case 'float': case 'decimal':
      return 'number'
    case 'boolean':
      return 'boolean'
    default:
      return undefined
  }
}

/** A value of the wrong type: `must be a \`string\` type, but the final value was: \`5\`.` */
export const notType = (type: string) => (issue: { input: unknown }) => `must be a \`${type}\` type, but the final value was: \`${printValue(issue.input)}\`.`

/** A required attribute not sent. */
export const MUST_BE_DEFINED = 'must be defined.'

/**
 * A required attribute that is null (sent so, or stored so in a draft being published): Strapi's
 * type error for null where it checks a type, else its "must be defined.".
 */
export function nullRequired(attribute: Attribute): string {
  const type = yupType(attribute)
  return type === undefined ? MUST_BE_DEFINED : notType(type)({ input: null })
}
