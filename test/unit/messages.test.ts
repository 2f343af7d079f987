// Strapi's wording of validation messages (lib/schema/messages.ts): the value a message prints is the
// caller's, so it must never fail the request (a 500) nor grow with the body.
import { describe, expect, it } from 'vitest'
import { notType, printValue } from '../../lib/schema/messages.js'

describe('printValue', () => {
  it('prints a value nested deeper than JSON.stringify can follow, instead of throwing (was a 500 in the fuzz test)', () => {
    const deep = JSON.parse(`${'{"a":'.repeat(50_000)}1${'}'.repeat(50_000)}`)
    expect(() => printValue(deep)).not.toThrow()
    expect(notType('string')({ input: [deep] })).toMatch(/^must be a `string` type, but the final value was: `.+`\.$/s)
  })

  it('bounds what it prints of a long value', () => {
    expect(printValue('x'.repeat(10_000)).length).toBeLessThan(300)
  })

  it("prints small values as Strapi's yup does", () => {
    expect(printValue('a')).toBe('"a"')
    expect(printValue(5)).toBe('5')
    expect(printValue(null)).toBe('null')
  })
})
