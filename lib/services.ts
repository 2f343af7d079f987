// Everything a request handler needs, built once per process from a document client, the
// configuration and the secrets, and passed to the app factories.
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb'
import { AccessService } from './access.js'
import { AdminSessions } from './admin-sessions.js'
import type { Config } from './config.js'
import type { ContentType } from './content-types.js'
import { LocaleService } from './locales.js'
import type { BlobStore, Media } from './media/blobs.js'
import { AdminSessionStore } from './storage/admin-sessions.js'
import { DocumentStore } from './storage/documents.js'
import { LinkIndex } from './storage/links.js'
import { ListMarks } from './storage/lists/marks.js'
import { ListReader } from './storage/lists/reader.js'
import { KeptVersions } from './storage/lists/kept.js'
import { PageCache } from './delivery/page-cache.js'
import { RenderedDocuments } from './delivery/rendered.js'
import { Reindexer } from './storage/reindex.js'
import { SettingsStore } from './storage/settings.js'
import { SignInAttemptStore } from './storage/sign-in-attempts.js'
import { WebhookStore } from './storage/webhooks.js'
import type { Resolver } from './webhooks/addresses.js'
import { WebhookService } from './webhooks/service.js'

export interface Secrets {
  /**
   * Bearer token of the administration API; undefined in a process that serves no admin route,
   * where no presented token matches it.
   */
  readonly adminToken: string | undefined
  /** Server-side key of the HMAC that API access keys are stored under. */
  readonly tokenHashSecret: string
}

export interface Services {
  readonly config: Config
  /** Every content type the deployment serves, from its schema files (lib/schema/). */
  readonly types: readonly ContentType[]
  readonly documents: DocumentStore
  readonly lists: ListReader
  /** Documents kept for list answers (populated targets, documents read by key), valid under their lists' revisions (storage/lists/kept.ts). */
  readonly kept: KeptVersions
  /** The JSON of documents shown from their versions alone, kept beside them for list answers (delivery/rendered.ts). */
  readonly rendered: RenderedDocuments
  /** List answers of every type, each valid under its lists' revisions (delivery/page-cache.ts). */
  readonly pages: PageCache
  /** The index of links by target (content-model.md §16). */
  readonly links: LinkIndex
  readonly locales: LocaleService
  readonly access: AccessService
  readonly reindex: Reindexer
  /** Webhook settings, their delivery log, and single attempts (integration.md §20). */
  readonly webhooks: WebhookService
  /** The admin web interface's live sessions, and its sign-in attempts (the throttle's counters). */
  readonly adminSessions: AdminSessions
  readonly signInAttempts: SignInAttemptStore
  readonly adminToken: string | undefined
  /** The media library's blob store and limits; undefined in a process that takes no uploads (a content function). */
  readonly media: Media | undefined
  /**
   * Fills the locale, public-role and (unless `indexState` is false: a function that lists no
   * documents) index-state caches, their items read in one call: a Lambda function's init, so that
   * its first request makes only its own reads. Never rejects: a failure is left for a request to
   * meet and report.
   */
  warm(options?: { indexState?: boolean }): Promise<void>
}

/** Wires the stores and services of one process serving `types`. */
export function createServices(db: DynamoDBDocumentClient, config: Config, secrets: Secrets, types: readonly ContentType[], blobs?: BlobStore, resolver?: Resolver): Services {
  const settings = new SettingsStore(db, config.tableName)
  const locales = new LocaleService(settings, types, config.cacheTtlMs)
  const documents = new DocumentStore(db, config.tableName, locales)
  const kept = new KeptVersions(config.rest.populate.cacheBytes)
  const access = new AccessService(settings, types, secrets.tokenHashSecret, config.cacheTtlMs)
  return {
    config,
    types,
    documents,
    reindex: new Reindexer(db, config.tableName, documents, locales, types),
    lists: new ListReader(db, config.tableName, new ListMarks(config.rest.listMarks), kept),
    kept,
    rendered: new RenderedDocuments(config.rest.populate.cacheBytes, (version) => kept.isKept(version)),
    pages: new PageCache(config.rest.pageCache, config.rest.pageCacheBytes),
    links: new LinkIndex(db, config.tableName),
    locales,
    access,
    webhooks: new WebhookService(new WebhookStore(db, config.tableName), config.webhooks, resolver),
    adminSessions: new AdminSessions(new AdminSessionStore(db, config.tableName)),
    signInAttempts: new SignInAttemptStore(db, config.tableName),
    adminToken: secrets.adminToken,
    media: blobs === undefined ? undefined : { blobs, config: config.upload },
    async warm(options = {}) {
      const reads = () => Promise.allSettled([locales.list(), access.identify(undefined), ...(options.indexState === false ? [] : [locales.indexTrusted()])])
      await settings.withPrimed(reads, options)
    },
  }
}
