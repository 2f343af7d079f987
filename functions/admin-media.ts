// The admin web interface's pages that take uploads, on AWS: the media library and the documents'
// pages (their media pickers upload with the save), served by their own function, routed by the
// stack under `/admin/media` and `/admin/content`. It holds the S3 client and sharp, which the admin
// function's bundle leaves out (its size and cold start: docs/performance.md); the pages are the
// same code as the local server's.
import { EDITOR_PAGES } from '../lib/admin-ui/editors.js'
import { mediaLibrary } from '../lib/admin-ui/media-library.js'
import { createAdminSite } from '../lib/admin-ui/site.js'
import { bundledOpenApi } from '../lib/openapi/bundled.js'
import { handle } from './api-gateway.js'
import { mediaBlobs } from './media-blobs.js'
import { lambdaServices } from './runtime.js'

const blobs = mediaBlobs()
const services = await lambdaServices(blobs)
const media = { blobs, config: services.config.upload }
export const handler = handle(createAdminSite(services, bundledOpenApi(), false, { editors: EDITOR_PAGES, library: mediaLibrary(media) }))
