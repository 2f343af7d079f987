// qs's parser alone (`qs/lib/parse.js`, the function `qs.parse` is): the bundles then leave out
// its stringifier, which nothing here uses (about 6 KB).
declare module 'qs/lib/parse.js' {
  import type { parse } from 'qs'
  const parseQuery: typeof parse
  export default parseQuery
}
