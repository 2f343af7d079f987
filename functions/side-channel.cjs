// Stands in for `side-channel` in the Lambda bundles (an esbuild alias set in
// infra/content-api-stack.ts). qs keys its side channels by objects only; the package's generic
// version (with object-inspect and get-intrinsic for its messages and intrinsics: about 34 KB of
// every bundle) is this same contract on a WeakMap, and a Map for any other key.
'use strict'

module.exports = function getSideChannel() {
  const objects = new WeakMap()
  const others = new Map()
  const store = (key) => (key !== null && (typeof key === 'object' || typeof key === 'function') ? objects : others)
  return {
    assert(key) {
      if (!store(key).has(key)) throw new TypeError('Side channel does not contain the given key')
    },
    delete: (key) => store(key).delete(key),
    get: (key) => store(key).get(key),
    has: (key) => store(key).has(key),
    set(key, value) {
      store(key).set(key, value)
    },
  }
}
