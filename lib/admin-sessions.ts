// Which admin web interface sessions are live, across every instance: each sign-in records its
// session in the table (lib/storage/admin-sessions.ts), sign-out deletes it, and "sign out
// everywhere" deletes them all. A page checks its session with one GetItem, kept for at most
// SESSION_CHECK_TTL_MS in this process, so a busy page burst costs one read; an end decided
// here is seen here at once, and by other instances within that time.
import { LruMap } from './lru-map.js'
import type { AdminSessionStore } from './storage/admin-sessions.js'

/** How long a process trusts a session it found live (ms). */
export const SESSION_CHECK_TTL_MS = 2000
/** Sessions whose last check this process keeps. */
const CHECKED_SESSIONS = 100

export class AdminSessions {
  private readonly checked = new LruMap<string, number>(CHECKED_SESSIONS)

  constructor(
    private readonly store: AdminSessionStore,
    private readonly clock: () => number = Date.now,
  ) {}

  /** Records a new session `id` that ends at `expires` (epoch seconds). */
  async open(id: string, expires: number): Promise<void> {
    await this.store.open(id, expires)
  }

  /** True while session `id` has not ended (signed out, everywhere, or expired). */
  async isLive(id: string): Promise<boolean> {
    const now = this.clock()
    const at = this.checked.get(id)
    if (at !== undefined && now - at < SESSION_CHECK_TTL_MS) return true
    const live = await this.store.isOpen(id, now)
    if (live) this.checked.set(id, now)
    return live
  }

  /** Ends session `id` (sign-out). */
  async end(id: string): Promise<void> {
    this.checked.delete(id)
    await this.store.close(id)
  }

  /** Ends every session (sign out everywhere); returns how many were live. */
  async endAll(): Promise<number> {
    this.checked.clear()
    return this.store.closeAll()
  }
}
