import { describe, expect, it } from 'vitest'
import { SESSION_TTL_SECONDS, SessionKeys } from '../../lib/admin-ui/session.js'

const NOW = Date.UTC(2026, 10, 25, 10, 0, 0)
const keys = new SessionKeys('admin-token-for-session-tests-0123')

describe('admin web interface sessions', () => {
  it('verifies a session it issued, until it expires', () => {
    const { value, session } = keys.issue(NOW)
    expect(keys.verify(value, NOW)).toEqual(session)
    expect(keys.verify(value, NOW + (SESSION_TTL_SECONDS - 1) * 1000)).toEqual(session)
    expect(keys.verify(value, NOW + SESSION_TTL_SECONDS * 1000)).toBeUndefined()
  })

  it.each([
    ['a changed expiry', (value: string) => value.replace(/^v1\.(\d+)/, (_, expires: string) => `v1.${Number(expires) + 3600}`)],
    // (Nonce and signature are random: each is changed to characters it does not hold.)
    ['a changed nonce', (value: string) => value.replace(/^(v1\.\d+\.)(.)/, (_, head: string, first: string) => `${head}${first === 'A' ? 'B' : 'A'}`)],
    ['a changed signature', (value: string) => `${value.slice(0, -2)}${value.endsWith('AA') ? 'BB' : 'AA'}`],
    ['no signature', (value: string) => value.split('.').slice(0, 3).join('.')],
    ['garbage', () => 'not a session'],
  ])('refuses %s', (_, tamper) => {
    const { value } = keys.issue(NOW)
    expect(keys.verify(tamper(value), NOW)).toBeUndefined()
  })

  it('refuses a session signed under another admin token (a rotated token ends every session)', () => {
    const { value } = new SessionKeys('another-admin-token-0123456789').issue(NOW)
    expect(keys.verify(value, NOW)).toBeUndefined()
  })

  it('signs nothing without an admin token', () => {
    const none = new SessionKeys(undefined)
    expect(none.verify(none.issue(NOW).value, NOW)).toBeUndefined()
  })

  it('gives each session its own CSRF token, and the sign-in form another', () => {
    const a = keys.issue(NOW).session
    const b = keys.issue(NOW).session
    expect(keys.csrfOf(a)).toMatch(/^[A-Za-z0-9_-]{43}$/)
    expect(keys.csrfOf(a)).not.toBe(keys.csrfOf(b))
    expect(keys.signInCsrfOf(a.nonce)).not.toBe(keys.csrfOf(a))
  })
})
