// A real S3-compatible server for the media tests (the npm package s3rver, in this process, on a
// free loopback port, its objects in a temporary folder), and the blob store on it: the S3 code
// runs against it as against S3, not against a mock of the SDK.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { CreateBucketCommand, type S3Client } from '@aws-sdk/client-s3'
import S3rver from 's3rver'
import { S3Blobs, s3Client } from '../../lib/media/s3-blobs.js'

export interface TestS3 {
  readonly endpoint: string
  readonly bucket: string
  readonly client: S3Client
  readonly blobs: S3Blobs
  stop(): Promise<void>
}

/** Starts s3rver with one bucket; `publicUrl` of the blob store is the bucket's own URL, so `url`s can be fetched. */
export async function startTestS3(bucket = 'media-test'): Promise<TestS3> {
  const directory = mkdtempSync(join(tmpdir(), 's3rver-'))
  const server = new S3rver({ port: 0, address: '127.0.0.1', silent: true, directory })
  const { port } = (await server.run()) as { port: number }
  const endpoint = `http://127.0.0.1:${port}`
  const client = s3Client({ region: 'us-east-1', endpoint, forcePathStyle: true, credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' } })
  await client.send(new CreateBucketCommand({ Bucket: bucket }))
  const blobs = new S3Blobs({ bucket, publicUrl: `${endpoint}/${bucket}`, client })
  return {
    endpoint, bucket, client, blobs,
    async stop() {
      client.destroy()
      await server.close()
      rmSync(directory, { recursive: true, force: true })
    },
  }
}
