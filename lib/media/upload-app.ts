// The upload API (content-model.md §19), Strapi's paths and answers, top to bottom: path, parse,
// authorize, call (files.ts), respond. Beyond Strapi, a presigned route for large files that never
// pass through a function: `presign` hands out an upload limited to a size and type, `complete`
// checks what arrived (the bytes decide its type) and registers it.
import type { Context, Hono } from 'hono'
import * as v from 'valibot'
import { TRUSTED_CALLER, UPLOAD_ACTIONS, type Caller } from '../access.js'
import { badRequest, payloadTooLarge } from '../errors.js'
import { allowOnly, createBaseApp, json, readJsonBody } from '../http.js'
import { paginationWindow } from '../query/pagination.js'
import { parseListQuery } from '../query/parse.js'
import type { Services } from '../services.js'
import { newDocumentId } from '../storage/documents.js'
import { INCOMING_PREFIX, type Media } from './blobs.js'
import { fileDocument, FILE_TYPE } from './file-type.js'
import { allowedMime, createFile, deleteFile, findFile, updateFile, type FileInfo } from './files.js'
import { readMultipart } from './multipart.js'
import { sniff } from './sniff.js'

/** Most files in one `POST /api/upload`. */
const MAX_FILES = 20

const Text = v.nullish(v.pipe(v.string(), v.maxLength(10_000)))
const FileInfoSchema = v.strictObject({ name: v.optional(v.pipe(v.string(), v.minLength(1), v.maxLength(1000))), alternativeText: Text, caption: Text, folder: v.nullish(v.unknown()) })
const PresignSchema = v.strictObject({ name: v.pipe(v.string(), v.minLength(1), v.maxLength(1000)), mime: v.pipe(v.string(), v.regex(/^[a-z0-9.+-]+\/[a-z0-9.+-]+$/)), size: v.pipe(v.number(), v.integer(), v.minValue(1)) })
const CompleteSchema = v.strictObject({ id: v.pipe(v.string(), v.regex(/^[a-z0-9]{24}$/)), name: v.optional(v.pipe(v.string(), v.minLength(1), v.maxLength(1000))), fileInfo: v.optional(FileInfoSchema) })

/** Parses a body part or JSON body with `schema`: 400 naming the first problem. */
function parsed<T extends v.GenericSchema>(schema: T, value: unknown, what: string): v.InferOutput<T> {
  const result = v.safeParse(schema, value)
  if (result.success) return result.output
  const issue = result.issues[0]
  throw badRequest(`Invalid ${what}: ${v.getDotPath(issue) ?? ''} ${issue.message}`.replace('  ', ' '), { errors: result.issues.map((each) => ({ path: (each.path ?? []).map((item) => item.key), message: each.message, name: 'ValidationError' })) })
}

/** The `fileInfo` of each of `count` files: one JSON object per file, or one JSON array of them. */
function fileInfosOf(raw: readonly string[] | undefined, count: number): FileInfo[] {
  const values = (raw ?? []).map((text) => {
    try {
      return JSON.parse(text) as unknown
    } catch {
      throw badRequest('Invalid fileInfo: not JSON')
    }
  })
  const infos = values.length === 1 && Array.isArray(values[0]) ? (values[0] as unknown[]) : values
  if (infos.length > Math.max(count, 1)) throw badRequest(`Invalid fileInfo: ${infos.length} given for ${count} files`)
  return infos.map((info) => parsed(FileInfoSchema, info, 'fileInfo'))
}

/** `/api/upload` and `/api/upload/files`; `mounted` inside the server app. */
export function createUploadApp(services: Services, media: Media, mounted = false): Hono {
  const app = createBaseApp(services.config, undefined, mounted)
  const caller = async (c: Context, action: string): Promise<Caller> => {
    const trusted = c.get(TRUSTED_CALLER) as Caller | undefined
    if (trusted === undefined) return services.access.authorize(c.req.header('authorization'), undefined, action)
    trusted.requireAny(undefined, action)
    return trusted
  }
  const direct = Math.min(media.config.sizeLimit, media.config.maxBodyBytes)

  app.post('/api/upload', async (c) => {
    await caller(c, UPLOAD_ACTIONS.upload)
    const id = new URL(c.req.url).searchParams.get('id')
    const body = await readMultipart(c.req.header('content-type'), c.req.raw.body, { fileBytes: direct, files: id === null ? MAX_FILES : 1 })
    const files = body.files.filter((file) => file.field === 'files' || file.field.startsWith('files'))
    const infos = fileInfosOf(body.fields.fileInfo, files.length)
    if (id !== null) {
      const file = files[0]
      const updated = await updateFile(services, media, id, infos[0] ?? {}, file === undefined ? undefined : { bytes: file.bytes, filename: file.filename })
      return json(c, fileDocument(updated))
    }
    if (files.length === 0) throw badRequest('Files are empty', { errors: [{ path: ['files'], message: 'at least one file is required', name: 'ValidationError' }] })
    const created = []
    for (const [i, file] of files.entries()) created.push(await createFile(services, media, file.bytes, file.filename, infos[i]))
    return json(c, created.map(fileDocument), 201)
  })
  allowOnly(app, '/api/upload', ['POST'])

  app.post('/api/upload/presign', async (c) => {
    await caller(c, UPLOAD_ACTIONS.upload)
    const request = parsed(PresignSchema, await readJsonBody(c, services.config.maxBodyBytes), 'body')
    if (request.size > media.config.sizeLimit) throw payloadTooLarge(media.config.sizeLimit)
    if (!allowedMime(media.config.allowedTypes, request.mime)) throw badRequest(`Type ${request.mime} is not accepted by this server`)
    const id = newDocumentId()
    const upload = await media.blobs.presign(`${INCOMING_PREFIX}${id}`, request.mime, request.size, new URL(c.req.url).origin)
    return json(c, { id, ...upload })
  })
  allowOnly(app, '/api/upload/presign', ['POST'])

  app.post('/api/upload/complete', async (c) => {
    await caller(c, UPLOAD_ACTIONS.upload)
    const request = parsed(CompleteSchema, await readJsonBody(c, services.config.maxBodyBytes), 'body')
    const key = `${INCOMING_PREFIX}${request.id}`
    const stored = await media.blobs.read(key, media.config.sizeLimit)
    if (stored === undefined) throw badRequest(`Nothing was uploaded for ${request.id}: PUT the file to the presigned URL first`)
    try {
      if (stored.bytes === undefined) throw payloadTooLarge(media.config.sizeLimit)
      // The type signed into the upload must be the one its bytes show.
      const { mime } = await sniff(stored.bytes)
      if (stored.contentType !== mime) throw badRequest(`The uploaded bytes are ${mime}, not ${stored.contentType ?? 'the type presigned'}`)
      const file = await createFile(services, media, stored.bytes, request.fileInfo?.name ?? request.name ?? 'file', request.fileInfo)
      return json(c, fileDocument(file), 201)
    } finally {
      await media.blobs.delete([key])
    }
  })
  allowOnly(app, '/api/upload/complete', ['POST'])

  app.get('/api/upload/files', async (c) => {
    await caller(c, UPLOAD_ACTIONS.find)
    const query = parseListQuery(c.req.url, FILE_TYPE, services.config.rest)
    if (query.populate !== undefined) throw badRequest('Invalid key populate: files have no relations to populate')
    const locale = await services.locales.defaultCode()
    const { offset, limit } = paginationWindow(query.pagination)
    const validator = services.lists.validator(FILE_TYPE, [locale])
    const page = await services.lists.list(FILE_TYPE, { lists: [locale], collation: locale, sort: query.sort, filter: query.filters, offset, limit, maxScan: services.config.rest.maxScan, trusted: await services.locales.indexTrusted(), startedAt: Date.now() }, validator)
    return json(c, page.versions.map(fileDocument))
  })
  allowOnly(app, '/api/upload/files', ['GET'])

  app.get('/api/upload/files/:id', async (c) => {
    await caller(c, UPLOAD_ACTIONS.findOne)
    return json(c, fileDocument(await findFile(services, c.req.param('id'))))
  })

  app.delete('/api/upload/files/:id', async (c) => {
    await caller(c, UPLOAD_ACTIONS.destroy)
    return json(c, fileDocument(await deleteFile(services, media, c.req.param('id'))))
  })
  allowOnly(app, '/api/upload/files/:id', ['GET', 'DELETE'])
  return app
}
