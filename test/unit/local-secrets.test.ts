// The admin token npm start makes: safe to pass as `--token "$ADMIN_TOKEN"` (a base64url token
// starting with '-' read as an option about once in 64 starts, failing the documentation's examples).
import { describe, expect, it } from 'vitest'
import { resolveLocalSecrets } from '../../lib/local/secrets.js'

describe('a new admin token', () => {
  it('never starts with a dash, over many starts', async () => {
    for (let i = 0; i < 200; i++) {
      const { adminToken } = (await resolveLocalSecrets(undefined, {})).secrets
      expect(adminToken).toMatch(/^[0-9a-f]{48}$/)
    }
  })
})
