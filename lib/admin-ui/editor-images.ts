// The images the blocks editor's image choice lists (blocks/browser/image-choice.ts): the media
// library's newest images, as JSON for the signed-in page's script. Read from the file records
// as `GET /api/upload/files` reads them (the same list service and query), not through the upload
// app itself: that app brings the S3 client and image processing, 240 KB of the admin bundle.
import { FILE_TYPE } from '../content-types.js'
import { fileDocument } from '../media/file-type.js'
import { parseListQuery } from '../query/parse.js'
import type { Ui } from './ui.js'

/** Images the choice lists at most (the newest first). */
export const MAX_IMAGE_CHOICES = 100

const QUERY = new URLSearchParams({ 'filters[mime][$startsWith]': 'image/', sort: 'createdAt:desc' })

/** Registers `GET /admin/editor/images`: `{ data: files[] }`, as `/api/upload/files` shows files. */
export function registerEditorImages(ui: Ui): void {
  const { services } = ui
  ui.page('/admin/editor/images', async (c) => {
    const query = parseListQuery(`http://admin/?${QUERY}`, FILE_TYPE, services.config.rest)
    const locale = await services.locales.defaultCode()
    const validator = services.lists.validator(FILE_TYPE, [locale])
    const page = await services.lists.list(FILE_TYPE, { lists: [locale], collation: locale, sort: query.sort, filter: query.filters, offset: 0, limit: MAX_IMAGE_CHOICES, maxScan: services.config.rest.maxScan, trusted: await services.locales.indexTrusted(), startedAt: Date.now() }, validator)
    return c.json({ data: page.versions.map(fileDocument) })
  })
}
