// The content types the benchmark drives, from the schema files as the server reads them
// (CONTENT_TYPES_DIR, or the project's examples): `article` must be among them.
import type { ContentType } from '../lib/content-types.js'
import { loadContentTypes } from '../lib/schema/load.js'

export const types: readonly ContentType[] = loadContentTypes(process.env.CONTENT_TYPES_DIR || undefined)

const found = types.find((type) => type.singularName === 'article')
if (found === undefined) throw new Error('The benchmark needs the `article` type of the examples (content-model.md §17)')
export const article: ContentType = found
