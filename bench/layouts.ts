// The table's index layouts the capacity probe prices: today's (lib/table.ts) and the alternatives
// issue 38 asks to measure before choosing one (none is deployed: each needs new indexes and a
// migration).
import { ATTR, INDEX, SLOT_PROJECTION, TABLE, type IndexDeclaration } from '../lib/table.js'

/** The same indexes, slot indexes projecting only the id (their keys and sort value stay): `f` left out. */
function slotsKeysOnly(indexes: readonly IndexDeclaration[]): IndexDeclaration[] {
  return indexes.map((index) => (index.projection.type === 'INCLUDE' && index.projection.attributes === SLOT_PROJECTION ? { ...index, projection: { type: 'INCLUDE', attributes: [ATTR.id] } } : index))
}

/** `byPublication` projecting the id alone (its pages then fetch the versions by key). */
function publicationKeysOnly(indexes: readonly IndexDeclaration[]): IndexDeclaration[] {
  return indexes.map((index) => (index.name === INDEX.byPublication ? { ...index, projection: { type: 'INCLUDE', attributes: [ATTR.id] } } : index))
}

/** Today's layout under `today`, and the alternatives by the names capacity-report.ts shows. */
export function layouts(): Record<string, readonly IndexDeclaration[]> {
  return {
    today: TABLE.indexes,
    'slots-keys': slotsKeysOnly(TABLE.indexes),
    'slots-keys+publication-keys': publicationKeysOnly(slotsKeysOnly(TABLE.indexes)),
  }
}
