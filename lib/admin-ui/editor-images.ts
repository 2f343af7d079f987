// The images the blocks editor's image choice lists (blocks/browser/image-choice.ts): the media
// library's newest images, as JSON for the signed-in page's script, read through the in-process
// API (`/api/upload/files`). Without a media library in this process the list is empty, and says so.
import { messageOf } from './api-client.js'
import type { Ui } from './ui.js'

/** Images the choice lists at most (the newest first). */
export const MAX_IMAGE_CHOICES = 100

/** Registers `GET /admin/editor/images`: `{ data: files[] }`, or `{ data: [], problem }`. */
export function registerEditorImages(ui: Ui): void {
  ui.page('/admin/editor/images', async (c) => {
    if (ui.services.media === undefined) return c.json({ data: [], problem: 'This deployment serves no media library here.' })
    const query = new URLSearchParams({ 'filters[mime][$startsWith]': 'image/', sort: 'createdAt:desc', 'pagination[pageSize]': String(MAX_IMAGE_CHOICES) })
    const answer = await ui.api.call('GET', `/api/upload/files?${query}`)
    if (answer.status !== 200) return c.json({ data: [], problem: messageOf(answer) }, 502)
    return c.json({ data: answer.body })
  })
}
