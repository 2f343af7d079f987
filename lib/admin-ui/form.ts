// Reading a submitted form (application/x-www-form-urlencoded or multipart): text values, and
// the files of a multipart form's file fields.
import type { Context } from 'hono'

/** The fields of a submitted form. */
export class Form {
  constructor(private readonly fields: Record<string, string | File | (string | File)[]>) {}

  /** The field's text, or undefined when absent (a file counts as absent). */
  text(name: string): string | undefined {
    const value = this.fields[name]
    const first = Array.isArray(value) ? value[0] : value
    return typeof first === 'string' ? first : undefined
  }

  /** Every text value of a repeated field (checkbox groups). */
  all(name: string): string[] {
    const value = this.fields[name]
    return (Array.isArray(value) ? value : value === undefined ? [] : [value]).filter((item): item is string => typeof item === 'string')
  }

  /** Every file of a repeated file field (multipart forms), empty picks left out. */
  files(name: string): File[] {
    const value = this.fields[name]
    return (Array.isArray(value) ? value : value === undefined ? [] : [value]).filter((item): item is File => typeof item !== 'string' && item.size > 0)
  }

  has(name: string): boolean {
    return this.fields[name] !== undefined
  }
}

/** The request's form (parsed once: Hono keeps the parsed body for later calls). */
export async function formOf(c: Context): Promise<Form> {
  const type = c.req.header('content-type') ?? ''
  if (!/^(application\/x-www-form-urlencoded|multipart\/form-data)/i.test(type)) return new Form({})
  return new Form(await c.req.parseBody({ all: true }))
}
