// The OpenAPI 3.1 documents of the API, built from the content-type registry and the
// configuration: pure, so the app computes them once per process and tests can build them
// directly. The public one describes what callers without the admin token can reach; the admin
// one, served only to the admin token, adds the administration API.
import type { Config } from '../config.js'
import { FILE_TYPE, routeName, type ContentType } from '../content-types.js'
import { adminPaths, adminSchemas, localeListPaths, OPTIONAL_API_TOKEN, securitySchemes } from './admin.js'
import { filterSchemas, sharedParameters, typeParameters } from './parameters.js'
import { emptyResponse, errorResponses, jsonResponse, NOT_MODIFIED, READ_HEADERS, responseComponents, type ErrorStatus } from './responses.js'
import { componentSchemas } from './components.js'
import { contentTypeSchemas, ref, sharedSchemas, typeName, type Schema } from './schemas.js'
import { ADMIN_OPENAPI_PATH, AUDIENCES, OPENAPI_PATH, openApiFile, type Audience, type OpenApiSource } from './paths.js'
import { uploadPaths, uploadSchemas } from './upload.js'

const parameter = (name: string) => ref(name, 'parameters')
const PAGINATION = ['PaginationPage', 'PaginationPageSize', 'PaginationStart', 'PaginationLimit', 'PaginationWithCount'].map(parameter)
const WRITE_HEADERS = ['ETag', 'CacheControl']
const READ_ERRORS: ErrorStatus[] = [400, 401, 403, 414, 500, 503]
const WRITE_ERRORS: ErrorStatus[] = [400, 401, 403, 409, 413, 414, 415, 500, 503]

/** The operations of one content type, keyed by path then method. */
function contentPaths(type: ContentType): Record<string, Schema> {
  const name = typeName(type)
  const { sort, filters, fields, populate } = typeParameters(type)
  const operation = (action: string, summary: string, { description, ...rest }: Schema): Schema => ({
    tags: [type.singularName],
    operationId: `${type.singularName}.${action}`,
    summary,
    description: `Needs the ${type.uid}.${action} permission. ${String(description)}`,
    security: OPTIONAL_API_TOKEN,
    ...rest,
  })
  const read = (schema: string, statuses: ErrorStatus[], headers = READ_HEADERS) => ({
    200: jsonResponse('The document(s)', ref(schema), headers),
    304: NOT_MODIFIED,
    ...errorResponses(...statuses),
  })
  const written = (extra: ErrorStatus[] = []) => ({
    200: jsonResponse('The resulting locale version (200, not 201, also when created)', ref(`${name}Response`), WRITE_HEADERS),
    ...errorResponses(...WRITE_ERRORS, ...extra),
  })
  const body = (schema: string) => ({ required: true, content: { 'application/json': { schema: ref(`${name}${schema}`) } } })
  // Draft & publish types take `status` on reads and writes (content-model.md §15).
  const status = type.draftAndPublish ? [parameter('Status')] : []
  const publication = type.draftAndPublish
    ? ' Without status=draft, the draft is written then published, and the answer is the published version; with it, only the draft (the answer). If-Match names the version of the request\'s status.'
    : ''
  const update = (description: string, errors: ErrorStatus[]) => operation('update', `Create or update the ${type.singularName} in a locale`, {
    description: `${description} A new localization needs createLocalization instead of update. Writes never fall back.${publication}`,
    parameters: [parameter('Locale'), ...status, fields, populate, parameter('IfMatch')],
    requestBody: body('UpdateRequest'),
    responses: written(errors),
  })
  const remove = operation('delete', `Delete the ${type.singularName} in a locale (locale=* deletes every version)`, {
    description: `Without locale, the default-locale version. Deleting the last version removes the document.${type.draftAndPublish ? ' Removes the locale\'s draft and published version together; status is a 400. If-Match names the published version (the draft when unpublished).' : ''}`,
    parameters: [parameter('LocaleOrAll'), parameter('IfMatch')],
    responses: { 204: emptyResponse('Deleted: no body', ['CacheControl']), ...errorResponses(...READ_ERRORS, 404, 409, 412) },
  })
  const getOne = (action: string, locale: string, schema: string) => operation(action, `Get the ${type.singularName} in a locale`, {
    description: 'The first version along the locale\'s fallback chain (Content-Language names it); 404 when there is none, or it does not match filters.',
    parameters: [parameter(locale), ...status, filters, fields, populate, parameter('Fallback'), parameter('IfNoneMatch')],
    responses: read(schema, [...READ_ERRORS, 404], [...READ_HEADERS, 'ContentLanguage']),
  })
  const action = (name: string, summary: string, description: string, path: string): Record<string, Schema> => ({
    [`${path}/actions/${name}`]: {
      post: {
        tags: [type.singularName],
        operationId: `${type.singularName}.${name}`,
        summary,
        description: `Needs the ${type.uid}.publish permission. ${description} One transaction. If-Match names the draft's ETag (412 when it moved).`,
        security: OPTIONAL_API_TOKEN,
        parameters: [...(type.kind === 'collection' ? [parameter('DocumentId')] : []), parameter('PublicationLocale'), fields, parameter('IfMatch')],
        responses: {
          200: jsonResponse('The version the action leaves (an array of them with locale=*)', ref(`${typeName(type)}Response`), WRITE_HEADERS),
          ...errorResponses(400, 401, 403, 404, 412, 414, 500, 503),
        },
      },
    },
  })
  const actions = (path: string): Record<string, Schema> => type.draftAndPublish ? {
    ...action('publish', `Publish the ${type.singularName}'s draft in a locale`, 'The published version becomes a copy of the draft (keeping its id), and the draft\'s non-localized values go to every published version. Publishing a draft equal to its published version writes nothing.', path),
    ...action('unpublish', `Unpublish the ${type.singularName} in a locale`, 'Removes the published version; the draft stays and is the answer. 404 when it was not published.', path),
    ...action('discard-draft', `Discard the ${type.singularName}'s draft in a locale`, 'Resets the draft to a copy of the published version (its non-localized values to every draft); the answer is the draft. 404 when never published.', path),
  } : {}
  const root = `/api/${routeName(type)}`
  if (type.kind === 'single') {
    return {
      [root]: {
        get: getOne('find', 'Locale', `${name}Response`),
        put: update('The first PUT creates the document (needs update).', [412]),
        delete: remove,
      },
      ...actions(root),
    }
  }
  return {
    [root]: {
      get: operation('find', `List ${type.pluralName}`, {
        description: 'Filtered, then sorted, then paginated. With a fallback chain, each document appears once, in the first locale of the chain it has a version in.',
        parameters: [parameter('LocaleOrAll'), ...status, ...(type.draftAndPublish ? [parameter('PublicationFilter')] : []), sort, ...PAGINATION, filters, parameter('Search'), fields, populate, parameter('Fallback'), parameter('IfNoneMatch')],
        responses: read(`${name}ListResponse`, READ_ERRORS),
      }),
      post: operation('create', `Create a ${type.singularName}`, {
        description: 'A new document with its first version, in the requested locale (default: the default locale).',
        parameters: [parameter('Locale'), ...status, fields, populate],
        requestBody: body('CreateRequest'),
        responses: written(),
      }),
    },
    [`${root}/{documentId}`]: {
      parameters: [parameter('DocumentId')],
      get: getOne('findOne', 'LocaleOrAll', `${name}FindOneResponse`),
      put: update('PUT on a document without any version is a 404 (POST creates documents).', [404, 412]),
      delete: remove,
    },
    ...actions(`${root}/{documentId}`),
  }
}

function openApiPath(audience: Audience): Schema {
  return {
    get: {
      tags: [audience === 'admin' ? 'admin' : 'meta'],
      operationId: audience === 'admin' ? 'admin.openapi' : 'openapi',
      summary: audience === 'admin' ? 'This document: the public API and the administration API' : 'The OpenAPI document of the public API',
      security: audience === 'admin' ? [{ adminToken: [] }] : [{}],
      responses: {
        200: jsonResponse('The OpenAPI 3.1 document', {
          type: 'object',
          required: ['openapi', 'info', 'paths'],
          properties: { openapi: { type: 'string' }, info: { type: 'object' }, paths: { type: 'object' } },
        }),
        ...errorResponses(...(audience === 'admin' ? [400, 401, 414, 500] as const : [400, 414, 500] as const)),
      },
    },
  }
}

/**
 * The OpenAPI 3.1 document, under `config`, of the routes `types` and the locale app serve
 * (`public`), or of those and the admin app's (`admin`). Schemas no path of the document refers
 * to are left out, so the public one names nothing of the administration API.
 */
export function buildOpenApiDocument(types: readonly ContentType[], config: Config, audience: Audience = 'public'): Schema {
  const errors = responseComponents(config)
  const paths: Record<string, Schema> = {
    ...Object.assign({}, ...types.map(contentPaths)),
    ...localeListPaths(),
    ...uploadPaths(),
    [OPENAPI_PATH]: openApiPath('public'),
    ...(audience === 'admin' ? { ...adminPaths(), [ADMIN_OPENAPI_PATH]: openApiPath('admin') } : {}),
  }
  return withoutUnused({
    openapi: '3.1.1',
    info: {
      title: 'Localized Content API',
      version: '1.0.0',
      description: 'A Strapi v5 compatible, localized content REST API. Every non-2xx answer is the error envelope; every path answers 405 (with Allow) to a method it does not list. Query strings use bracket syntax (qs); unknown parameters are a 400.',
    },
    servers: [{ url: '..', description: 'Where this document is served from' }, { url: 'http://127.0.0.1:1337', description: 'npm start' }],
    tags: [
      ...types.map((type) => ({ name: type.singularName, description: `${type.kind === 'collection' ? 'Collection' : 'Single'} type ${type.uid}` })),
      { name: 'i18n', description: 'The registered locales' },
      { name: 'upload', description: 'The media library: files (plugin::upload.file)' },
      ...(audience === 'admin' ? [{ name: 'admin', description: 'The administration API (admin token)' }] : []),
      { name: 'meta', description: 'This description' },
    ],
    paths,
    components: {
      schemas: {
        ...sharedSchemas(config.rest),
        ...Object.assign({}, ...types.flatMap((type) => [contentTypeSchemas(type, config.rest, types), filterSchemas(type)])),
        ...componentSchemas(types),
        // A populated media attribute is a file (content-model.md §19).
        File: contentTypeSchemas(FILE_TYPE, config.rest)[typeName(FILE_TYPE)],
        ...uploadSchemas(),
        ...adminSchemas(types),
        ...errors.schemas,
      },
      parameters: sharedParameters(config.rest),
      responses: errors.responses,
      headers: errors.headers,
      securitySchemes: securitySchemes(),
    },
  })
}

/**
 * `document` with only the schemas its paths refer to (transitively) and the security schemes they
 * name; shared parameters, responses and headers (all of the public API) stay.
 */
function withoutUnused(document: Schema): Schema {
  const components = document.components as Record<string, Record<string, unknown>>
  const used = new Set<string>()
  const schemes = new Set<string>()
  const visit = (value: unknown): void => {
    if (typeof value !== 'object' || value === null) return
    for (const [key, child] of Object.entries(value)) {
      if (key === '$ref' && typeof child === 'string' && child.startsWith('#/components/') && !used.has(child)) {
        used.add(child)
        const [, , kind = '', name = ''] = child.split('/')
        visit(components[kind]?.[name])
      } else if (key === 'security' && Array.isArray(child)) {
        for (const requirement of child) Object.keys(requirement as object).forEach((name) => schemes.add(name))
      } else {
        visit(child)
      }
    }
  }
  visit(document.paths)
  const kept = Object.fromEntries(Object.entries(components).map(([kind, entries]) => [kind, Object.fromEntries(
    Object.entries(entries).filter(([name]) => kind === 'securitySchemes' ? schemes.has(name) : kind !== 'schemas' || used.has(`#/components/${kind}/${name}`)),
  )]))
  return { ...document, components: kept }
}

/** The documents built in process, each on first use (the local server and the tests). */
export function builtOpenApi(types: readonly ContentType[], config: Config): OpenApiSource {
  const built = new Map<Audience, string>()
  return (audience) => {
    let text = built.get(audience)
    if (text === undefined) {
      text = JSON.stringify(buildOpenApiDocument(types, config, audience))
      built.set(audience, text)
    }
    return text
  }
}

/** Each document's file name and JSON text, as the stack writes them beside a bundle (lib/openapi/bundled.ts reads them). */
export function openApiFiles(types: readonly ContentType[], config: Config): Record<string, string> {
  const source = builtOpenApi(types, config)
  return Object.fromEntries(AUDIENCES.map((audience) => [openApiFile(audience), source(audience)]))
}
