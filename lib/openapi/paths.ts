// Where the two OpenAPI documents are served, and how an app gets their text: built from the
// registry in process (lib/openapi/document.ts, the local server and the tests), or read from the
// files the stack writes beside a Lambda bundle at synth (lib/openapi/bundled.ts), so that no
// function bundles the builder (about 39 KB of every bundle that served a document).

/** Where the public document is served. */
export const OPENAPI_PATH = '/api/openapi.json'
/** Where the admin document (public API and administration API) is served, to the admin token only. */
export const ADMIN_OPENAPI_PATH = '/admin/openapi.json'

/** Who a document is for: anyone (the public API), or the admin token (everything). */
export type Audience = 'public' | 'admin'
export const AUDIENCES: readonly Audience[] = ['public', 'admin']

/** The JSON text of the document for `audience`, made or read once per process. */
export type OpenApiSource = (audience: Audience) => string

/** The folder beside a bundle holding the documents, and each document's file in it. */
export const OPENAPI_DIR = 'openapi'
export const openApiFile = (audience: Audience): string => `${audience}.json`
