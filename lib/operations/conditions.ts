// The versions a write's If-Match accepts (delivery.md §13), as an operation sees them: parsed by
// the HTTP layer (lib/http.ts parseIfMatch), checked here against the versions as read.
import { preconditionFailed } from '../errors.js'
import type { Version, VersionTag } from '../storage/items.js'

/** The versions a write accepts: undefined for any (no If-Match), `*` for any existing one, else these tags. */
export type Accepted = readonly VersionTag[] | '*' | undefined

/** True when `accepted` names `version` (or is `*` and it exists). */
export function accepts(accepted: readonly VersionTag[] | '*', version: Version | undefined): boolean {
  return version !== undefined && (accepted === '*' || accepted.some((tag) => tag.id === version.id && tag.rev === version.rev))
}

/**
 * The revision `accepted` pins a write to: undefined without a condition, the read revision when
 * it names `version` (or is `*`), 412 when it does not or the version does not exist.
 */
export function expectedRevision(accepted: Accepted, version: Version | undefined): number | undefined {
  if (accepted === undefined) return undefined
  if (version === undefined || !accepts(accepted, version)) throw preconditionFailed()
  return version.rev
}
