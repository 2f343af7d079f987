// The OpenAPI documents of a Lambda function: the files the stack wrote beside its bundle at synth
// (infra/content-api-stack.ts), from the same schema files and REST settings the function runs
// with; each read once, when first asked for.
import { readFileSync } from 'node:fs'
import { OPENAPI_DIR, openApiFile, type Audience, type OpenApiSource } from './paths.js'

/** The documents in `openapi/` beside the module holding this code (the bundle). */
export function bundledOpenApi(base: string | URL = import.meta.url): OpenApiSource {
  const read = new Map<Audience, string>()
  return (audience) => {
    let text = read.get(audience)
    if (text === undefined) {
      text = readFileSync(new URL(`./${OPENAPI_DIR}/${openApiFile(audience)}`, base), 'utf8')
      read.set(audience, text)
    }
    return text
  }
}
