// The media library's AWS resources (content-model.md §19): a private, encrypted bucket with public
// access blocked, served only through CloudFront with origin access control and sandboxing
// headers, written only by the upload function and the admin media function (least privilege),
// sharp installed for Lambda.
import { Match } from 'aws-cdk-lib/assertions'
import { describe, expect, it } from 'vitest'
import { UPLOAD_BUNDLING } from '../../infra/content-api-stack.js'
import { synth } from './synth.js'

const synthed = synth('dev')
const ofType = (type: string) => Object.entries(synthed.resources).filter(([, resource]) => resource.Type === type)

describe('media storage', () => {
  it('is a private bucket: encrypted, every public access blocked, TLS only, kept when the stack goes', () => {
    synthed.template.hasResource('AWS::S3::Bucket', {
      Properties: Match.objectLike({
        BucketEncryption: { ServerSideEncryptionConfiguration: [{ ServerSideEncryptionByDefault: { SSEAlgorithm: 'AES256' } }] },
        PublicAccessBlockConfiguration: { BlockPublicAcls: true, BlockPublicPolicy: true, IgnorePublicAcls: true, RestrictPublicBuckets: true },
        OwnershipControls: { Rules: [{ ObjectOwnership: 'BucketOwnerEnforced' }] },
      }),
      DeletionPolicy: 'Retain',
    })
    const policy = JSON.stringify(ofType('AWS::S3::BucketPolicy')[0]![1].Properties.PolicyDocument)
    expect(policy).toContain('"aws:SecureTransport":"false"')
    // Only CloudFront reads, and only for this distribution (origin access control).
    expect(policy).toContain('cloudfront.amazonaws.com')
    expect(policy).toContain('AWS:SourceArn')
  })

  it('is served by CloudFront with origin access control, caching and sandboxing headers', () => {
    expect(ofType('AWS::CloudFront::OriginAccessControl')).toHaveLength(1)
    const [, distribution] = ofType('AWS::CloudFront::Distribution').find(([id]) => id === synthed.childId('MediaCdn'))!
    const behavior = distribution.Properties.DistributionConfig.DefaultCacheBehavior
    expect(behavior.ViewerProtocolPolicy).toBe('https-only')
    expect(behavior.AllowedMethods).toEqual(['GET', 'HEAD'])
    expect(behavior.CachePolicyId).toBe('658327ea-f89d-4fab-a63d-7e88639e58f6') // Managed-CachingOptimized
    synthed.template.hasResourceProperties('AWS::CloudFront::ResponseHeadersPolicy', {
      ResponseHeadersPolicyConfig: Match.objectLike({
        SecurityHeadersConfig: Match.objectLike({
          ContentTypeOptions: { Override: true },
          ContentSecurityPolicy: { ContentSecurityPolicy: Match.stringLikeRegexp('^sandbox;'), Override: true },
        }),
      }),
    })
  })

  it('lets only the upload function and the admin media function touch objects: put, get, delete under uploads/ and incoming/', () => {
    const grants = ofType('AWS::IAM::Policy').filter(([, policy]) => JSON.stringify(policy.Properties.PolicyDocument).includes('s3:'))
    expect(grants.map(([, policy]) => policy.Properties.Roles).sort()).toEqual([[{ Ref: synthed.childId('AdminMediaFunctionRole') }], [{ Ref: synthed.childId('UploadFunctionRole') }]])
    for (const [, policy] of grants) {
      const s3 = policy.Properties.PolicyDocument.Statement.filter((statement: { Action: string[] }) => JSON.stringify(statement.Action).includes('s3:'))
      expect(s3).toHaveLength(1)
      expect(s3[0].Action).toEqual(['s3:PutObject', 's3:GetObject', 's3:DeleteObject'])
      expect(JSON.stringify(s3[0].Resource)).toMatch(/\/uploads\/\*.*\/incoming\/\*/)
    }
  })

  it('takes multipart bodies as binary at the gateway, and installs sharp for Lambda on ARM (a native module)', () => {
    expect(ofType('AWS::ApiGateway::RestApi')[0]![1].Properties.BinaryMediaTypes).toEqual(['multipart/form-data'])
    expect(UPLOAD_BUNDLING).toEqual({ nodeModules: ['sharp'], environment: { npm_config_os: 'linux', npm_config_cpu: 'arm64', npm_config_libc: 'glibc' } })
  })
})
