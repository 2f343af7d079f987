// The upload API's function: files in the media bucket (functions/media-blobs.ts). It and the
// admin media function are the only ones holding the S3 client and sharp.
import { createUploadApp } from '../lib/media/upload-app.js'
import { handle } from './api-gateway.js'
import { mediaBlobs } from './media-blobs.js'
import { lambdaServices } from './runtime.js'

const blobs = mediaBlobs()
const services = await lambdaServices(blobs)
export const handler = handle(createUploadApp(services, { blobs, config: services.config.upload }))
