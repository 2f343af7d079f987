// The upload API's function: files in the bucket MEDIA_BUCKET, served at MEDIA_URL (the media
// distribution's origin). The only function holding the S3 client and sharp.
import { handle } from 'hono/aws-lambda'
import { createUploadApp } from '../lib/media/upload-app.js'
import { S3Blobs } from '../lib/media/s3-blobs.js'
import { lambdaServices, required } from './runtime.js'

const blobs = new S3Blobs({ bucket: required('MEDIA_BUCKET'), publicUrl: required('MEDIA_URL'), clientConfig: { region: required('AWS_REGION') } })
const services = await lambdaServices(blobs)
export const handler = handle(createUploadApp(services, { blobs, config: services.config.upload }))
