// TEMPORARY: the filter AST (replaced by the full parser and evaluator).
export type FilterOperator = '$eq' | '$ne' | '$eqi' | '$nei' | '$lt' | '$lte' | '$gt' | '$gte' | '$in' | '$notIn' | '$between'
  | '$contains' | '$notContains' | '$containsi' | '$notContainsi' | '$startsWith' | '$startsWithi' | '$endsWith' | '$endsWithi' | '$null' | '$notNull'
export type FilterValue = string | number | boolean
export type Filter =
  | { readonly kind: 'and'; readonly filters: readonly Filter[] }
  | { readonly kind: 'or'; readonly filters: readonly Filter[] }
  | { readonly kind: 'not'; readonly filter: Filter }
  | { readonly kind: 'condition'; readonly field: string; readonly operator: FilterOperator; readonly values: readonly FilterValue[] }
export function matchesFilter(filter: Filter, values: Readonly<Record<string, unknown>>, collation: string): boolean {
  void filter; void values; void collation
  return true
}
