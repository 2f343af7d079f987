// The project's shipped content types (functions/content-types/), loaded from their schema files as
// the server loads them, for tests that need a type by name.
import type { ContentType } from '../../lib/content-types.js'
import { loadContentTypes } from '../../lib/schema/load.js'

export const shippedTypes: readonly ContentType[] = loadContentTypes()

/** A shipped type by singular name. */
export function shippedType(name: string): ContentType {
  const type = shippedTypes.find((candidate) => candidate.singularName === name)
  if (type === undefined) throw new Error(`no shipped type ${name}`)
  return type
}

export const article = shippedType('article')
export const homepage = shippedType('homepage')
