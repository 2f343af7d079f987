// List queries kept parsed, by query string: a repeated list request (the page cache's case) is
// not parsed again, nor is its populate tree.
import type { RestConfig } from '../config.js'
import { LruMap } from '../lru-map.js'
import { parseListQuery, type ListQuery } from '../query/parse.js'
import { parsePopulate, type PopulateTree } from '../relations/populate-query.js'
import type { Scope } from './context.js'

/** Bounded, since the query string is the caller's; longer ones are not kept. */
const PARSED_QUERIES = 256
const MAX_PARSED_QUERY_LENGTH = 2048

/** The parsed list queries of one content type. */
export class ListQueries {
  private readonly queries = new LruMap<string, ListQuery>(PARSED_QUERIES)
  private readonly trees = new WeakMap<ListQuery, PopulateTree | undefined>()

  constructor(private readonly scope: Scope, private readonly rest: Pick<RestConfig, 'defaultLimit' | 'maxLimit'>) {}

  /** A list request's query, parsed once per query string (a 400 is not kept, and thrown again). */
  of(url: string): ListQuery {
    const at = url.indexOf('?')
    const search = at === -1 ? '' : url.slice(at + 1)
    const kept = this.queries.get(search)
    if (kept !== undefined) return kept
    const query = parseListQuery(url, this.scope.type, this.rest, this.scope.typeOf)
    if (search.length <= MAX_PARSED_QUERY_LENGTH) this.queries.set(search, query)
    return query
  }

  /** The populate tree of a query kept, parsed once (a 400 is thrown again). */
  treeOf(query: ListQuery): () => PopulateTree | undefined {
    return () => {
      if (this.trees.has(query)) return this.trees.get(query)
      const tree = parsePopulate(query.populate, this.scope.type, this.scope.typeOf)
      this.trees.set(query, tree)
      return tree
    }
  }
}
