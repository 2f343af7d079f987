import { ApiError } from '../../lib/errors.js'

/** The ApiError `run` throws; fails the test when it throws nothing or something else. */
export function errorOf(run: () => unknown): ApiError {
  try {
    run()
  } catch (error) {
    if (error instanceof ApiError) return error
    throw error
  }
  throw new Error('expected an ApiError')
}
