/** @jsxImportSource ./jsx */
// The media library (content-model.md §19): a grid of the files, newest first, with their
// thumbnails and pages of GRID_SIZE; an upload form (a file field, and with the script a drop zone
// that fills it); per file a page to edit its alternative text and caption, and to delete it,
// saying how many documents use it. Reads and writes go through the upload API (api-client.ts);
// the count of documents comes from the index of links (lib/media/usage.ts).
import type { Context } from 'hono'
import { routeName, typeByUid } from '../content-types.js'
import type { Media } from '../media/blobs.js'
import { createUploadApp } from '../media/upload-app.js'
import { fileUsage } from '../media/usage.js'
import { messageOf } from './api-client.js'
import { Csrf, Notice, Page, Problem, to, type PageContext } from './layout.js'
import { readLibrary, summaryOf, uploadFiles, type FileSummary } from './media-files.js'
import { Thumbnail } from './media-picker.js'
import { queryOf } from './paths.js'
import { displayNameOf } from './types.js'
import { seeOther, type PageSet, type Ui } from './ui.js'

/** Files a page of the grid shows. */
export const GRID_SIZE = 24

const NOTICES: Record<string, string> = { uploaded: 'Uploaded.', saved: 'Saved.', deleted: 'File deleted.' }

const sizeText = (kb: number) => (kb >= 1024 ? `${(kb / 1024).toFixed(1)} MB` : `${kb.toFixed(kb < 10 ? 2 : 0)} KB`)

/** The upload form: a file field in a drop zone (the script lets files be dropped on it). */
function UploadForm(props: { page: PageContext }) {
  return (
    <form method="post" action={to(props.page, '/admin/media')} enctype="multipart/form-data" class="drop-zone" data-drop="">
      <Csrf token={props.page.csrf} />
      <div class="field">
        <label for="media-files">Files to upload</label>
        <input type="file" id="media-files" name="files" multiple aria-describedby="media-files-hint" />
        <span id="media-files-hint" class="hint">Choose files, or drop them here. Images get a thumbnail and smaller formats.</span>
      </div>
      <button type="submit" name="intent" value="upload">Upload</button>
    </form>
  )
}

/** One file of the grid: thumbnail, name, type and size, and the link to its page. */
function Tile(props: { page: PageContext; file: FileSummary }) {
  const { page, file } = props
  return (
    <li>
      <Thumbnail page={page} file={file} />
      <a href={to(page, `/admin/media/${file.documentId}`)}>{file.name}</a>
      <span class="hint">{`${file.mime}, ${sizeText(file.size)}`}</span>
      {file.alternativeText === '' && file.mime.startsWith('image/') ? <span class="hint">No alternative text yet.</span> : null}
    </li>
  )
}

async function gridPage(ui: Ui, c: Context, page: PageContext, problem?: string) {
  const number = Math.max(1, Math.min(10_000, Number.parseInt(c.req.query('page') ?? '1', 10) || 1))
  const library = await readLibrary(ui.api, (number - 1) * GRID_SIZE, GRID_SIZE)
  return c.html(
    <Page page={page} title="Media library" section="media">
      <Notice text={NOTICES[c.req.query('notice') ?? '']} />
      <Problem text={problem ?? library.problem} />
      <UploadForm page={page} />
      <h2 id="files-title">{`Files, newest first (page ${number})`}</h2>
      {library.files.length === 0 ? <p>No files here yet.</p> : <ul class="media-grid" aria-labelledby="files-title">{library.files.map((file) => <Tile page={page} file={file} />)}</ul>}
      <nav aria-label="Pages of files" class="row">
        {number > 1 ? <a href={to(page, `/admin/media${queryOf({ page: String(number - 1) })}`)}>Previous page</a> : null}
        {library.more ? <a href={to(page, `/admin/media${queryOf({ page: String(number + 1) })}`)}>Next page</a> : null}
      </nav>
    </Page>,
    problem === undefined ? 200 : 400,
  )
}

/** The page of one file: its preview and details, the text form, and delete with its use count. */
async function filePage(ui: Ui, c: Context, page: PageContext, documentId: string, problem?: string, status = 200) {
  const answer = await ui.api.call('GET', `/api/upload/files/${documentId}`)
  if (answer.status !== 200) return c.html(<Page page={page} title="File not found" section="media"><p><a href={to(page, '/admin/media')}>Back to the media library</a></p></Page>, 404)
  const file = summaryOf(answer.body)
  const usage = await fileUsage(ui.services, file.documentId)
  const count = `${usage.documents.length}${usage.more ? '+' : ''} document${usage.documents.length === 1 ? '' : 's'}`
  const uses = usage.documents.length === 0 ? 'No document uses this file.' : `Used by ${count}: deleting it leaves ${usage.documents.length === 1 ? 'that document' : 'them'} without it.`
  return c.html(
    <Page page={page} title={file.name} section="media">
      <p><a href={to(page, '/admin/media')}>Back to the media library</a></p>
      <Notice text={NOTICES[c.req.query('notice') ?? '']} />
      <Problem text={problem} />
      <div class="file-preview">
        <Thumbnail page={page} file={file} />
        <p>{`${file.mime}, ${sizeText(file.size)}${answer.body.width ? `, ${answer.body.width} × ${answer.body.height} px` : ''}`} · <a href={file.url.startsWith('/') ? to(page, file.url) : file.url}>Open the file</a></p>
      </div>
      <form method="post" action={to(page, `/admin/media/${file.documentId}`)} aria-label="Texts of the file">
        <Csrf token={page.csrf} />
        <div class="field">
          <label for="file-alt">Alternative text</label>
          <input type="text" id="file-alt" name="alternativeText" value={file.alternativeText} maxlength={10000} aria-describedby="file-alt-hint" />
          <span id="file-alt-hint" class="hint">What the image shows, for people who cannot see it.</span>
        </div>
        <div class="field">
          <label for="file-caption">Caption</label>
          <input type="text" id="file-caption" name="caption" value={file.caption} maxlength={10000} />
        </div>
        <button type="submit" name="intent" value="save">Save texts</button>
      </form>
      <h2>Delete</h2>
      <p id="file-uses">{uses}</p>
      {usage.documents.length === 0 ? null : (
        <ul aria-label="Documents using this file">
          {usage.documents.map((used) => {
            const type = typeByUid(ui.services.types, used.uid)
            return type === undefined ? null : <li><a href={to(page, `/admin/content/${routeName(type)}/${used.documentId}`)}>{`${displayNameOf(type)} ${used.documentId}`}</a></li>
          })}
        </ul>
      )}
      <form method="post" action={to(page, `/admin/media/${file.documentId}`)} data-confirm={`Delete ${file.name}? ${uses}`}>
        <Csrf token={page.csrf} />
        <button type="submit" name="intent" value="delete" class="danger" aria-describedby="file-uses">Delete this file</button>
      </form>
    </Page>,
    status as 200,
  )
}

/** The media library's pages and form posts. */
export function registerMediaLibrary(ui: Ui): void {
  const validId = (id: string) => /^[a-z0-9]{24}$/.test(id)
  ui.page('/admin/media', (c, page) => gridPage(ui, c, page))
  ui.action('/admin/media', async (c, page, form) => {
    const files = form.files('files')
    if (files.length === 0) return gridPage(ui, c, page, 'Choose at least one file to upload.')
    const uploaded = await uploadFiles(ui.api, files)
    return 'message' in uploaded ? gridPage(ui, c, page, uploaded.message) : seeOther(c, `/admin/media${queryOf({ notice: 'uploaded' })}`)
  })
  ui.page('/admin/media/:id', (c, page) => filePage(ui, c, page, validId(c.req.param('id') ?? '') ? (c.req.param('id') as string) : 'none'))
  ui.action('/admin/media/:id', async (c, page, form) => {
    const id = c.req.param('id') ?? ''
    if (!validId(id)) return filePage(ui, c, page, 'none')
    if (form.text('intent') === 'delete') {
      const answer = await ui.api.call('DELETE', `/api/upload/files/${id}`)
      return answer.status === 200 ? seeOther(c, `/admin/media${queryOf({ notice: 'deleted' })}`) : filePage(ui, c, page, id, messageOf(answer), answer.status)
    }
    const body = new FormData()
    body.append('fileInfo', JSON.stringify({ alternativeText: form.text('alternativeText') ?? '', caption: form.text('caption') ?? '' }))
    const answer = await ui.api.call('POST', `/api/upload?${new URLSearchParams({ id })}`, body)
    return answer.status === 200 ? seeOther(c, `/admin/media/${id}${queryOf({ notice: 'saved' })}`) : filePage(ui, c, page, id, messageOf(answer), answer.status)
  })
}

/** The media library of a process that takes uploads into `media`: its pages, and the upload API they call. */
export function mediaLibrary(media: Media): PageSet {
  return { apps: (services) => [createUploadApp(services, media, true)], pages: registerMediaLibrary }
}
