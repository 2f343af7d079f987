// The media library's blob store of a Lambda function that takes uploads (the upload and admin
// media functions): the bucket MEDIA_BUCKET, its objects served at MEDIA_URL (the media
// distribution's origin). MEDIA_S3_ENDPOINT points it at an S3-compatible server instead of S3
// (path-style, as such servers and the tests' serve buckets).
import { S3Blobs } from '../lib/media/s3-blobs.js'
import { optional, required } from './runtime.js'

export function mediaBlobs(): S3Blobs {
  const endpoint = optional('MEDIA_S3_ENDPOINT')
  const clientConfig = { region: required('AWS_REGION'), ...(endpoint === undefined ? {} : { endpoint, forcePathStyle: true }) }
  return new S3Blobs({ bucket: required('MEDIA_BUCKET'), publicUrl: required('MEDIA_URL'), clientConfig })
}
