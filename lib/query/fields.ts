// TEMPORARY shim.
export function selectFields(document: Record<string, unknown>, fields: readonly string[] | undefined): Record<string, unknown> {
  if (fields === undefined) return document
  return Object.fromEntries(Object.entries(document).filter(([key]) => key === 'id' || key === 'documentId' || fields.includes(key)))
}
