// The optional CDN of a stage: CloudFront in front of the REST API. Anonymous GETs are cached as
// long as their Cache-Control allows (`public, s-maxage=...`, delivery.md §13); a request with
// `Authorization` is never answered from the cache: the header is part of the cache key, and the
// answers to such requests (`private, no-cache`) are never stored. Writes and `/admin/*` pass through.
import { Duration } from 'aws-cdk-lib'
import type { RestApi } from 'aws-cdk-lib/aws-apigateway'
import {
  AllowedMethods, CacheCookieBehavior, CachedMethods, CacheHeaderBehavior, CachePolicy, CacheQueryStringBehavior,
  Distribution, OriginRequestPolicy, PriceClass, ViewerProtocolPolicy,
} from 'aws-cdk-lib/aws-cloudfront'
import { RestApiOrigin } from 'aws-cdk-lib/aws-cloudfront-origins'
import type { Construct } from 'constructs'

/** The distribution in front of `api`'s deployment stage. */
export function createCdn(scope: Construct, api: RestApi): Distribution {
  const origin = new RestApiOrigin(api)
  const publicReads = new CachePolicy(scope, 'CdnCachePolicy', {
    comment: 'Anonymous reads as long as the API allows; Authorization in the key',
    // 0 unless the answer says otherwise: only `public, s-maxage` answers are stored, never `private` or `no-store`.
    minTtl: Duration.seconds(0),
    defaultTtl: Duration.seconds(0),
    maxTtl: Duration.days(1),
    // Forwarded, and in the key: a request with a token never shares an entry with an anonymous one.
    headerBehavior: CacheHeaderBehavior.allowList('Authorization'),
    queryStringBehavior: CacheQueryStringBehavior.all(),
    cookieBehavior: CacheCookieBehavior.none(),
    enableAcceptEncodingGzip: true,
    enableAcceptEncodingBrotli: true,
  })
  return new Distribution(scope, 'Cdn', {
    comment: `Content API ${api.deploymentStage.stageName}`,
    // North America and Europe edges: the cheapest class.
    priceClass: PriceClass.PRICE_CLASS_100,
    defaultBehavior: {
      origin,
      viewerProtocolPolicy: ViewerProtocolPolicy.HTTPS_ONLY,
      allowedMethods: AllowedMethods.ALLOW_ALL,
      cachedMethods: CachedMethods.CACHE_GET_HEAD,
      cachePolicy: publicReads,
      // Every other viewer header (If-None-Match, If-Match, Content-Type) reaches the API; Host is API Gateway's own.
      originRequestPolicy: OriginRequestPolicy.ALL_VIEWER_EXCEPT_HOST_HEADER,
    },
    additionalBehaviors: {
      '/admin/*': {
        origin,
        viewerProtocolPolicy: ViewerProtocolPolicy.HTTPS_ONLY,
        allowedMethods: AllowedMethods.ALLOW_ALL,
        cachePolicy: CachePolicy.CACHING_DISABLED,
        originRequestPolicy: OriginRequestPolicy.ALL_VIEWER_EXCEPT_HOST_HEADER,
      },
    },
  })
}
