// The image choice of the blocks editor: a modal dialog listing the media library's images
// (`/admin/editor/images`, the page route beside the editors), one button each. Its answer is the
// image object Strapi's blocks keep (the file's fields Strapi's editor picks), or undefined.

/** The fields of a file an image block keeps, as Strapi's blocks editor picks them. */
export const IMAGE_FIELDS = ['name', 'alternativeText', 'url', 'caption', 'width', 'height', 'formats', 'hash', 'ext', 'mime', 'size', 'previewUrl', 'provider', 'provider_metadata', 'createdAt', 'updatedAt'] as const

/** The image object of an image block, from a file of the media library. */
export function imageOf(file: Record<string, unknown>): Record<string, unknown> {
  const image: Record<string, unknown> = Object.fromEntries(IMAGE_FIELDS.map((key) => [key, file[key]]))
  return { ...image, alternativeText: image.alternativeText || image.name }
}

/** Opens the dialog beside `near`; resolves with the chosen image, or undefined when closed. */
export function chooseImage(near: HTMLElement): Promise<Record<string, unknown> | undefined> {
  const dialog = document.createElement('dialog')
  dialog.className = 'image-choice'
  dialog.setAttribute('aria-labelledby', 'image-choice-title')
  const title = document.createElement('h2')
  title.id = 'image-choice-title'
  title.textContent = 'Choose an image'
  const status = document.createElement('p')
  status.setAttribute('role', 'status')
  status.textContent = 'Loading the media library…'
  const list = document.createElement('ul')
  list.className = 'image-choices'
  const close = document.createElement('button')
  close.type = 'button'
  close.className = 'secondary'
  close.textContent = 'Cancel'
  dialog.append(title, status, list, close)
  near.append(dialog)
  return new Promise((resolve) => {
    let chosen: Record<string, unknown> | undefined
    close.addEventListener('click', () => dialog.close())
    dialog.addEventListener('close', () => { dialog.remove(); resolve(chosen) })
    dialog.showModal()
    // The route beside this page's, under whatever prefix (an API Gateway stage) the admin has.
    const path = location.pathname
    void fetch(`${path.slice(0, path.lastIndexOf('/admin/'))}/admin/editor/images`, { credentials: 'same-origin' })
      .then(async (response) => (response.ok ? (await response.json() as { data: Record<string, unknown>[] }).data : Promise.reject(new Error(`The server answered ${response.status}`))))
      .then((files) => {
        status.textContent = files.length === 0 ? 'The media library holds no images yet: upload one first.' : `${files.length} images.`
        for (const file of files) {
          const item = document.createElement('li')
          const button = document.createElement('button')
          button.type = 'button'
          const preview = document.createElement('img')
          preview.src = String((file.formats as Record<string, { url?: string }> | null)?.thumbnail?.url ?? file.url)
          preview.alt = ''
          button.append(preview, document.createTextNode(` ${String(file.name)}`))
          button.addEventListener('click', () => { chosen = imageOf(file); dialog.close() })
          item.append(button)
          list.append(item)
        }
        ;(list.querySelector('button') ?? close).focus()
      })
      .catch((error: unknown) => { status.textContent = `The media library could not be read: ${error instanceof Error ? error.message : String(error)}` })
  })
}
