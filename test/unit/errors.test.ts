// ApiError: an answer, not a fault.
import { describe, expect, it } from 'vitest'
import { ApiError, badRequest } from '../../lib/errors.js'

describe('ApiError', () => {
  it('captures no stack frames (never logged), and leaves the stack limit of other errors as it was', () => {
    const limit = Error.stackTraceLimit
    const error = badRequest('Invalid key x')
    expect(error).toBeInstanceOf(ApiError)
    expect(error.stack).toBe('ApiError: Invalid key x')
    expect(Error.stackTraceLimit).toBe(limit)
    expect(new Error('fault').stack).toMatch(/\n\s+at /)
  })
})
