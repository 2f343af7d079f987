// The upload API of content-model.md §19 (lib/media/upload-app.ts): Strapi's `/api/upload` and
// `/api/upload/files` routes, and the presigned route for large files. Every deployment serves
// it (the upload function in AWS, `npm start` locally), so every document describes it.
import { UPLOAD_ACTIONS } from '../access.js'
import { FILE_TYPE } from '../content-types.js'
import { OPTIONAL_API_TOKEN } from './admin.js'
import { filterSchemas, typeParameters } from './parameters.js'
import { errorResponses, jsonResponse, type ErrorStatus } from './responses.js'
import { closed, ref, type Schema } from './schemas.js'

const FILE = ref('File')
const FILES: Schema = { type: 'array', items: FILE }
const HEADERS = ['CacheControl']
const READ_ERRORS: ErrorStatus[] = [400, 401, 403, 414, 500, 503]
const BODY_ERRORS: ErrorStatus[] = [...READ_ERRORS, 413, 415]
const PAGINATION = ['PaginationPage', 'PaginationPageSize', 'PaginationStart', 'PaginationLimit'].map((name) => ref(name, 'parameters'))
const text: Schema = { type: ['string', 'null'], maxLength: 10_000 }
const name: Schema = { type: 'string', minLength: 1, maxLength: 1000 }

/** What `fileInfo` sets: Strapi's `folder` is accepted and ignored. */
const FILE_INFO = closed({ name, alternativeText: text, caption: text, folder: { description: 'Accepted and ignored (no folders)' } })

/** The schemas the upload paths refer to besides `File`. */
export function uploadSchemas(): Record<string, Schema> {
  return {
    ...filterSchemas(FILE_TYPE),
    FileInfo: FILE_INFO,
    PresignRequest: closed({ name, mime: { type: 'string', pattern: '^[a-z0-9.+-]+/[a-z0-9.+-]+$' }, size: { type: 'integer', minimum: 1, description: 'Bytes; at most upload.sizeLimit' } }, ['name', 'mime', 'size']),
    PresignedUpload: closed({
      id: { type: 'string', pattern: '^[a-z0-9]{24}$', description: 'Pass it to /api/upload/complete' },
      url: { type: 'string', description: 'Where to PUT the bytes' },
      method: { const: 'PUT' },
      headers: { type: 'object', additionalProperties: { type: 'string' }, description: 'Send these with the PUT, as they are (the signature covers them)' },
      expiresAt: { type: 'string', format: 'date-time' },
    }, ['id', 'url', 'method', 'headers', 'expiresAt']),
    CompleteRequest: closed({ id: { type: 'string', pattern: '^[a-z0-9]{24}$' }, name, fileInfo: ref('FileInfo') }, ['id']),
  }
}

function operation(action: keyof typeof UPLOAD_ACTIONS, operationId: string, summary: string, responses: Schema, more: Schema = {}): Schema {
  return {
    tags: ['upload'],
    operationId: `upload.${operationId}`,
    summary,
    description: `Needs the ${UPLOAD_ACTIONS[action]} permission.`,
    security: OPTIONAL_API_TOKEN,
    ...more,
    responses,
  }
}

const jsonBody = (schema: string): Schema => ({ requestBody: { required: true, content: { 'application/json': { schema: ref(schema) } } } })

/** `POST /api/upload`: new files, or with `?id=` a file's information and bytes. */
function uploadOperation(): Schema {
  const form = {
    type: 'object',
    properties: {
      files: { type: 'array', items: { type: 'string', contentMediaType: 'application/octet-stream' }, description: 'The files (at most 20; with ?id=, at most one: the new bytes)' },
      fileInfo: { type: 'string', contentMediaType: 'application/json', description: 'JSON: one FileInfo object per file, or one array of them, in the order of the files' },
    },
  }
  return operation('upload', 'upload', 'Upload files (or, with id, replace a file\'s information and bytes)', {
    200: jsonResponse('With id: the updated file', FILE, HEADERS),
    201: jsonResponse('The new files, in the order sent', FILES, HEADERS),
    ...errorResponses(...BODY_ERRORS, 404),
  }, {
    parameters: [{ name: 'id', in: 'query', required: false, description: 'Update this file (its id or documentId) instead of creating files; 404 when there is none', schema: { type: 'string' } }],
    requestBody: { required: true, content: { 'multipart/form-data': { schema: form, encoding: { fileInfo: { contentType: 'application/json' } } } } },
  })
}

/** The upload routes, keyed by path then method. */
export function uploadPaths(): Record<string, Schema> {
  const { sort, filters } = typeParameters(FILE_TYPE)
  const id: Schema = { name: 'id', in: 'path', required: true, description: 'The file\'s id or documentId', schema: { type: 'string' } }
  return {
    '/api/upload': { post: uploadOperation() },
    '/api/upload/files': {
      get: operation('find', 'find', 'List files (a bare array, as Strapi answers)', { 200: jsonResponse('The files', FILES, HEADERS), ...errorResponses(...READ_ERRORS) }, {
        parameters: [sort, ...PAGINATION, filters, ref('Search', 'parameters')],
      }),
    },
    '/api/upload/files/{id}': {
      parameters: [id],
      get: operation('findOne', 'findOne', 'One file', { 200: jsonResponse('The file', FILE, HEADERS), ...errorResponses(...READ_ERRORS, 404) }),
      delete: operation('destroy', 'destroy', 'Delete a file and its stored objects, unlinking it from every document', { 200: jsonResponse('The deleted file', FILE, HEADERS), ...errorResponses(...READ_ERRORS, 404) }),
    },
    '/api/upload/presign': {
      post: operation('upload', 'presign', 'Start a large upload: a URL to PUT the bytes to, limited to the size and type given', { 200: jsonResponse('Where and how to PUT the bytes', ref('PresignedUpload'), HEADERS), ...errorResponses(...BODY_ERRORS) }, jsonBody('PresignRequest')),
    },
    '/api/upload/complete': {
      post: operation('upload', 'complete', 'Register a presigned upload once its bytes are there (their type must be the one presigned)', { 201: jsonResponse('The new file', FILE, HEADERS), ...errorResponses(...BODY_ERRORS) }, jsonBody('CompleteRequest')),
    },
  }
}
