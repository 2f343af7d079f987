// The media library's storage in AWS (content-model.md §19): a private bucket (encrypted, public
// access blocked, TLS only) served by its own CloudFront distribution through origin access control,
// with immutable caching (object keys are content hashes) and headers that keep active files (SVG,
// HTML) from running in any origin. A distribution of its own rather than a behaviour of the API's
// CDN (cdn.ts): the upload function must know the files' domain (its `url`s), and the API's
// distribution depends on the API, whose methods depend on that function, a cycle CloudFormation refuses.
import { Duration, RemovalPolicy } from 'aws-cdk-lib'
import {
  AllowedMethods, CachePolicy, Distribution, HeadersFrameOption, PriceClass, ResponseHeadersPolicy, ViewerProtocolPolicy,
} from 'aws-cdk-lib/aws-cloudfront'
import { S3BucketOrigin } from 'aws-cdk-lib/aws-cloudfront-origins'
import { PolicyStatement, type IRole } from 'aws-cdk-lib/aws-iam'
import { BlockPublicAccess, Bucket, BucketEncryption, HttpMethods, ObjectOwnership } from 'aws-cdk-lib/aws-s3'
import type { Construct } from 'constructs'
import { INCOMING_PREFIX, UPLOADS_PREFIX } from '../lib/media/blobs.js'

export interface MediaStorage {
  readonly bucket: Bucket
  readonly distribution: Distribution
  /** The `url` base of stored files: `https://<distribution domain>`. */
  readonly publicUrl: string
}

/** The bucket and its distribution. */
export function createMediaStorage(scope: Construct): MediaStorage {
  const bucket = new Bucket(scope, 'MediaBucket', {
    blockPublicAccess: BlockPublicAccess.BLOCK_ALL,
    encryption: BucketEncryption.S3_MANAGED,
    enforceSSL: true,
    objectOwnership: ObjectOwnership.BUCKET_OWNER_ENFORCED,
    // Kept when the stack goes, on every stage: uploaded files are the users' (and a bucket with
    // objects in it cannot be deleted by CloudFormation anyway); empty it and delete it by hand.
    removalPolicy: RemovalPolicy.RETAIN,
    // Presigned uploads come straight from browsers: PUT only, to the presigned URL.
    cors: [{ allowedMethods: [HttpMethods.PUT], allowedOrigins: ['*'], allowedHeaders: ['Content-Type'], maxAge: 600 }],
    // A presigned upload never completed is removed after a day.
    lifecycleRules: [{ prefix: INCOMING_PREFIX, expiration: Duration.days(1) }],
  })
  const headers = new ResponseHeadersPolicy(scope, 'MediaHeaders', {
    comment: 'Stored files: no sniffing, and a sandbox so SVG or HTML never runs as a page',
    securityHeadersBehavior: {
      contentTypeOptions: { override: true },
      frameOptions: { frameOption: HeadersFrameOption.DENY, override: true },
      contentSecurityPolicy: { contentSecurityPolicy: "sandbox; default-src 'none'; img-src 'self' data:; media-src 'self'; style-src 'unsafe-inline'", override: true },
      strictTransportSecurity: { accessControlMaxAge: Duration.days(365), includeSubdomains: true, override: true },
    },
  })
  const distribution = new Distribution(scope, 'MediaCdn', {
    comment: 'Media library files',
    priceClass: PriceClass.PRICE_CLASS_100,
    defaultBehavior: {
      // Origin access control: only this distribution reads the bucket (a bucket policy scoped to it).
      origin: S3BucketOrigin.withOriginAccessControl(bucket),
      viewerProtocolPolicy: ViewerProtocolPolicy.HTTPS_ONLY,
      allowedMethods: AllowedMethods.ALLOW_GET_HEAD,
      // Keys are content hashes: cache as long as CloudFront allows (objects carry `immutable` too).
      cachePolicy: CachePolicy.CACHING_OPTIMIZED,
      responseHeadersPolicy: headers,
    },
  })
  return { bucket, distribution, publicUrl: `https://${distribution.distributionDomainName}` }
}

/**
 * The upload function's rights on the bucket, and no other function's: write, read and delete
 * stored files and presigned uploads (it checks and moves them), nothing else (no listing, no ACLs).
 */
export function grantUploads(bucket: Bucket, role: IRole): void {
  const objects = [bucket.arnForObjects(`${UPLOADS_PREFIX}*`), bucket.arnForObjects(`${INCOMING_PREFIX}*`)]
  role.addToPrincipalPolicy(new PolicyStatement({ actions: ['s3:PutObject', 's3:GetObject', 's3:DeleteObject'], resources: objects }))
}
