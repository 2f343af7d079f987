// Relation values in a write's `data` (content-model.md §16): every form Strapi takes, read into
// one normalized operation per relation, then applied to a version's current links. Pure: the
// existence of targets is checked by the caller (targets.ts), the links stored by the write.
import type { ContentType, Relation } from '../content-types.js'
import { badRequest } from '../errors.js'

/** A target as a write names it: its documentId, and the locale it must exist in (the version's when absent). */
export interface LinkTarget {
  readonly documentId: string
  readonly locale?: string
}

/** Where `connect` puts a target in a to-many's order. */
export type Position = { readonly before: string } | { readonly after: string } | { readonly start: true } | { readonly end: true }

export interface Connect {
  readonly target: LinkTarget
  readonly position?: Position
}

/** What a write does to one relation: replace its links, or connect and disconnect some. */
export type LinkOp =
  | { readonly kind: 'set'; readonly targets: readonly LinkTarget[] }
  | { readonly kind: 'edit'; readonly connect: readonly Connect[]; readonly disconnect: readonly LinkTarget[] }

interface FieldError {
  path: string[]
  message: string
  name: 'ValidationError'
}

const OP_KEYS = new Set(['connect', 'disconnect', 'set'])
const TARGET_KEYS = new Set(['documentId', 'locale', 'position'])

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

class Refusal extends Error {}

/** One target: `"<documentId>"` or `{ documentId, locale?, position? }` (position only where `positioned`). */
function readTarget(raw: unknown, name: string, positioned: boolean): Connect {
  if (typeof raw === 'string' && raw !== '') return { target: { documentId: raw } }
  if (!isRecord(raw)) throw new Refusal(`${name}: a target is a documentId string or an object { documentId, locale }`)
  for (const key of Object.keys(raw)) {
    if (!TARGET_KEYS.has(key) || (key === 'position' && !positioned)) throw new Refusal(`${name}: unknown key '${key}' in a relation target (expected documentId, locale${positioned ? ', position' : ''})`)
  }
  if (typeof raw.documentId !== 'string' || raw.documentId === '') throw new Refusal(`${name}: documentId must be a non-empty string`)
  if (raw.locale !== undefined && (typeof raw.locale !== 'string' || raw.locale === '')) throw new Refusal(`${name}: locale must be a locale code`)
  const target: LinkTarget = raw.locale === undefined ? { documentId: raw.documentId } : { documentId: raw.documentId, locale: raw.locale as string }
  return raw.position === undefined ? { target } : { target, position: readPosition(raw.position, name) }
}

function readPosition(raw: unknown, name: string): Position {
  const keys = isRecord(raw) ? Object.keys(raw) : []
  if (!isRecord(raw) || keys.length !== 1) throw new Refusal(`${name}: position must be one of { before: <documentId> }, { after: <documentId> }, { start: true }, { end: true }`)
  if (typeof raw.before === 'string') return { before: raw.before }
  if (typeof raw.after === 'string') return { after: raw.after }
  if (raw.start === true) return { start: true }
  if (raw.end === true) return { end: true }
  throw new Refusal(`${name}: position must be one of { before: <documentId> }, { after: <documentId> }, { start: true }, { end: true }`)
}

/** A list of targets: an array, or one target alone. */
function readTargets(raw: unknown, name: string, positioned: boolean): Connect[] {
  return (Array.isArray(raw) ? raw : [raw]).map((item) => readTarget(item, name, positioned))
}

function noDuplicates(targets: readonly LinkTarget[], name: string, where: string): void {
  const seen = new Set<string>()
  for (const { documentId } of targets) {
    if (seen.has(documentId)) throw new Refusal(`${name}: the target ${documentId} is named twice in ${where}`)
    seen.add(documentId)
  }
}

/** Reads one relation's value in `data` into its operation; throws a Refusal naming the problem. */
function readOp(name: string, relation: Relation, raw: unknown): LinkOp {
  const targetsOf = (connects: readonly Connect[]) => connects.map((connect) => connect.target)
  let op: LinkOp
  if (raw === null) op = { kind: 'set', targets: [] }
  else if (typeof raw === 'string' || Array.isArray(raw)) {
    if (!relation.many && Array.isArray(raw)) throw new Refusal(`${name} links one document: send a documentId, null, or { connect | disconnect | set }`)
    if (relation.many && !Array.isArray(raw)) throw new Refusal(`${name} links many documents: send an array of documentIds, or { connect, disconnect } / { set }`)
    op = { kind: 'set', targets: targetsOf(readTargets(raw, name, false)) }
  } else if (isRecord(raw) && Object.keys(raw).some((key) => OP_KEYS.has(key))) {
    for (const key of Object.keys(raw)) if (!OP_KEYS.has(key)) throw new Refusal(`${name}: unknown key '${key}' (expected connect, disconnect or set)`)
    if (raw.set !== undefined && (raw.connect !== undefined || raw.disconnect !== undefined)) throw new Refusal(`${name}: set replaces every link; send it without connect or disconnect`)
    if (raw.set !== undefined) op = { kind: 'set', targets: targetsOf(readTargets(raw.set, name, false)) }
    else {
      const connect = raw.connect === undefined ? [] : readTargets(raw.connect, name, relation.many)
      noDuplicates(targetsOf(connect), name, 'connect')
      op = { kind: 'edit', connect, disconnect: raw.disconnect === undefined ? [] : targetsOf(readTargets(raw.disconnect, name, false)) }
    }
  } else if (isRecord(raw)) {
    // `{ documentId, locale }` for a to-one.
    if (relation.many) throw new Refusal(`${name} links many documents: send an array of documentIds, or { connect, disconnect } / { set }`)
    op = { kind: 'set', targets: [readTarget(raw, name, false).target] }
  } else throw new Refusal(`${name}: a relation is written with documentIds (a string, an array, or { connect | disconnect | set })`)
  if (op.kind === 'set') noDuplicates(op.targets, name, 'set')
  if (!relation.many) {
    const linked = op.kind === 'set' ? op.targets.length : op.connect.length
    if (linked > 1) throw new Refusal(`${name} links one document: name at most one target`)
  }
  if (relation.mappedBy !== undefined && op.kind === 'edit') {
    const placed = op.connect.find((connect) => connect.position !== undefined && !('end' in connect.position))
    if (placed !== undefined) throw new Refusal(`${name} is the inverse side of ${relation.target}.${relation.mappedBy}: its order is not kept here, so position takes only { end: true }; position links on ${relation.target}.${relation.mappedBy}`)
  }
  return op
}

/**
 * One relation's value in `data` (at top level or inside a component entry, `name` its path as
 * messages show it) read into its operation, or the message of the 400 it makes.
 */
export function readLinkOp(name: string, relation: Relation, raw: unknown): LinkOp | { readonly refused: string } {
  try {
    return readOp(name, relation, raw)
  } catch (error) {
    if (!(error instanceof Refusal)) throw error
    return { refused: error.message }
  }
}

/**
 * The relation operations of a body's `data`, by relation name; every problem in one 400
 * (`details.errors[].path` naming the relation), nothing written.
 */
export function parseLinkOps(data: Record<string, unknown>, type: ContentType): Record<string, LinkOp> {
  const ops: Record<string, LinkOp> = {}
  const errors: FieldError[] = []
  for (const [name, relation] of Object.entries(type.relations)) {
    if (!Object.hasOwn(data, name)) continue
    try {
      ops[name] = readOp(name, relation, data[name])
    } catch (error) {
      if (!(error instanceof Refusal)) throw error
      errors.push({ path: [name], message: error.message, name: 'ValidationError' })
    }
  }
  if (errors.length > 0) throw badRequest(errors.length === 1 ? (errors[0] as FieldError).message : `${errors.length} errors occurred`, { errors })
  return ops
}

/** The documentIds a stored link value holds (a to-one's one, a to-many's in order; none for null). */
export function linkIds(value: unknown): readonly string[] {
  if (typeof value === 'string') return [value]
  return Array.isArray(value) ? (value as string[]) : []
}

/** The stored form of links: a to-one's documentId or null; a to-many's array, null when empty. */
export function linkValue(relation: Relation, ids: readonly string[]): string | readonly string[] | null {
  if (!relation.many) return ids[0] ?? null
  return ids.length === 0 ? null : ids
}

/** The targets an operation may add (those not already linked must exist). */
export function connected(op: LinkOp): readonly LinkTarget[] {
  return op.kind === 'set' ? op.targets : op.connect.map((connect) => connect.target)
}

/**
 * The links after `op`, from `current` (documentIds in order): `set` replaces them; `disconnect`
 * removes, then each `connect` in turn adds at its position (the end by default) or moves an
 * already linked target there (left in place without a position). 400 for a position relative to
 * a target that is not linked, or more than `maxLinks` links (`path` names the relation in its details).
 */
export function applyLinkOp(name: string, relation: Relation, current: readonly string[], op: LinkOp, maxLinks: number, path: readonly (string | number)[] = [name]): string[] {
  const refuse = (message: string) => badRequest(message, { errors: [{ path, message, name: 'ValidationError' }] })
  let links: string[]
  if (op.kind === 'set') links = op.targets.map((target) => target.documentId)
  else {
    const gone = new Set(op.disconnect.map((target) => target.documentId))
    links = current.filter((id) => !gone.has(id))
    for (const { target, position } of op.connect) {
      const at = links.indexOf(target.documentId)
      if (!relation.many) {
        links = [target.documentId]
        continue
      }
      if (at !== -1 && position === undefined) continue
      if (at !== -1) links.splice(at, 1)
      if (position === undefined || 'end' in position) links.push(target.documentId)
      else if ('start' in position) links.unshift(target.documentId)
      else {
        const anchor = 'before' in position ? position.before : position.after
        const index = links.indexOf(anchor)
        if (index === -1) throw refuse(`${name}: position is relative to ${anchor}, which is not linked`)
        links.splice('before' in position ? index : index + 1, 0, target.documentId)
      }
    }
  }
  if (relation.many && links.length > maxLinks) throw refuse(`${name} would hold ${links.length} links, more than api.rest.relations.maxLinks (${maxLinks})`)
  return links
}

/**
 * The link values `ops` give the owning relations of a version whose links are now `current`'s
 * (none for a new version), as attributes to write with it.
 */
export function resolveLinks(type: ContentType, ops: Readonly<Record<string, LinkOp>>, current: { readonly attributes: Readonly<Record<string, unknown>> } | undefined, maxLinks: number): Record<string, unknown> {
  const values: Record<string, unknown> = {}
  for (const [name, op] of Object.entries(ops)) {
    const relation = type.relations[name] as Relation
    if (relation.mappedBy !== undefined) continue
    values[name] = linkValue(relation, applyLinkOp(name, relation, linkIds(current?.attributes[name]), op, maxLinks))
  }
  return values
}
