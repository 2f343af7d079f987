// Stands in for `mnemonist/lru-cache` in the Lambda bundles (an esbuild alias set in
// infra/content-api-stack.ts). Only the SDK's endpoint cache (@aws-sdk/endpoint-cache, for
// DynamoDB endpoint discovery, which we leave off) uses it, through get, set, has, peek and clear:
// the same contract as our own LruMap (a Map, whose insertion order is the recency order; `has` and
// `peek` do not make an entry recent), with mnemonist's chained `set`. The package's typed arrays and iterators are about 7 KB of every bundle.
import { LruMap } from '../lib/lru-map.js'

export default class LRUCache<K, V> extends LruMap<K, V> {
  /** Sets the value as the most recently used, dropping the least recently used past the capacity. */
  override set(key: K, value: V): this {
    super.set(key, value)
    return this
  }
}
