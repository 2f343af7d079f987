// Stands in for `mnemonist/lru-cache` in the Lambda bundles (an esbuild alias set in
// infra/content-api-stack.ts). Only the SDK's endpoint cache (@aws-sdk/endpoint-cache, for
// DynamoDB endpoint discovery, which we leave off) uses it, through get, set, has, peek and clear:
// the same contract on a Map, whose insertion order is the recency order. The package's typed
// arrays and iterators are about 7 KB of every bundle.
export default class LRUCache<K, V> {
  private readonly items = new Map<K, V>()

  constructor(private readonly capacity: number) {}

  get size(): number {
    return this.items.size
  }

  /** The value, now the most recently used. */
  get(key: K): V | undefined {
    if (!this.items.has(key)) return undefined
    const value = this.items.get(key) as V
    this.items.delete(key)
    this.items.set(key, value)
    return value
  }

  /** Sets the value as the most recently used, dropping the least recently used past the capacity. */
  set(key: K, value: V): this {
    this.items.delete(key)
    this.items.set(key, value)
    if (this.items.size > this.capacity) this.items.delete(this.items.keys().next().value as K)
    return this
  }

  /** Whether the key is cached, without making it recent. */
  has(key: K): boolean {
    return this.items.has(key)
  }

  /** The value, without making it recent. */
  peek(key: K): V | undefined {
    return this.items.get(key)
  }

  clear(): void {
    this.items.clear()
  }
}
