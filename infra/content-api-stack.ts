// The whole deployment of one stage: the table, the admin token and token hash key secrets, one
// function per content type (one per schema file of the content types folder, each bundled with
// that folder) plus the locales and admin functions, the REST API routing each path to
// its function (access and execution logs, stage and /admin throttles), and per stage settings: a
// per-IP rate limit (WAF), a CDN for public reads and a budget.
import type { BuildOptions } from 'esbuild'
import { existsSync, mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { CfnOutput, Duration, RemovalPolicy, Stack, Stage as CdkStage, type StackProps } from 'aws-cdk-lib'
import { LambdaIntegration, type IResource, type RestApi } from 'aws-cdk-lib/aws-apigateway'
import { PolicyStatement, Role, ServicePrincipal, type IRole } from 'aws-cdk-lib/aws-iam'
import { Architecture, Runtime } from 'aws-cdk-lib/aws-lambda'
import { NodejsFunction, OutputFormat, type BundlingOptions, type NodejsFunctionProps } from 'aws-cdk-lib/aws-lambda-nodejs'
import { LogGroup } from 'aws-cdk-lib/aws-logs'
import { Secret, type ISecret } from 'aws-cdk-lib/aws-secretsmanager'
import type { Construct } from 'constructs'
import { configFromEnv } from '../lib/config.js'
import { routeName, type ContentType } from '../lib/content-types.js'
import { ASSETS_DIR } from '../lib/admin-ui/assets.js'
import { openApiFiles } from '../lib/openapi/document.js'
import { OPENAPI_DIR } from '../lib/openapi/paths.js'
import { componentsDirOf, DEFAULT_CONTENT_TYPES_DIR, loadContentTypes } from '../lib/schema/load.js'
import { acceptFindings } from './accepted-findings.js'
import { createBudget } from './budget.js'
import { createCdn } from './cdn.js'
import { createContentTable } from './content-table.js'
import { createMediaStorage, grantUploads } from './media.js'
import { createRateLimitAcl } from './rate-limit.js'
import { ADMIN_UPLOAD_PAGES, createRestApi } from './rest-api.js'
import { restEnvironment, type Stage, type StageSettings } from './stage-config.js'
import { ADMIN_ACCESS, CONTENT_ACCESS, LOCALES_ACCESS, tableStatements, WEBHOOK_ACCESS, type TableAccess } from './table-access.js'
import { createWebhookDelivery } from './webhooks.js'
import { REGISTRY_FILE } from '../functions/runtime.js'

const ROOT = fileURLToPath(new URL('..', import.meta.url))

/** Lets the ESM bundle load the CommonJS dependencies that call `require` (the AWS SDK's). */
export const CREATE_REQUIRE_BANNER = "import { createRequire } from 'module'; const require = createRequire(import.meta.url);"

/**
 * Modules replaced in the bundles, and what stands in for each: the SDK's default credential chain
 * (Lambda always hands the role's credentials over in the environment: a third of the bundle),
 * qs's generic `side-channel` (about 34 KB), the SDK's event streams, which no operation we
 * call has (about 13 KB), the LRU cache of its endpoint discovery (about 7 KB) and its checksum
 * module, of which it uses the native SHA-256 only (about 4 KB), and the invocation store its
 * recursion detection asks for the Lambda runtime's own (about 2 KB). Each shim says why it is enough.
 */
const SHIMS = {
  '@aws-sdk/credential-provider-node': 'functions/lambda-credentials.ts',
  'side-channel': 'functions/side-channel.cjs',
  '@smithy/core/event-streams': 'functions/no-event-streams.ts',
  'mnemonist/lru-cache': 'functions/lru-cache.ts',
  '@smithy/core/checksum': 'functions/sha256.ts',
  '@aws/lambda-invoke-store': 'functions/invoke-store.ts',
} as const

/** How every function is bundled (local esbuild, no Docker); exported for the bundle test. */
export const BUNDLING = {
  // functions/*.ts use top-level await, which only an ES module bundle allows.
  format: OutputFormat.ESM,
  target: 'node22',
  mainFields: ['module', 'main'],
  banner: CREATE_REQUIRE_BANNER,
  minify: true,
  sourceMap: true,
  // Source maps name files and lines; the sources themselves would double the bundle.
  sourcesContent: false,
  // Bundle the AWS SDK too: the version the tests ran, not whatever the runtime ships.
  externalModules: [],
  // See SHIMS. esbuild resolves an alias from its working directory, the project root.
  esbuildArgs: Object.fromEntries(Object.entries(SHIMS).map(([name, shim]) => [`--alias:${name}`, `./${shim}`])),
} as const satisfies BundlingOptions

/**
 * The SDK modules an entry's other clients cannot do without, left unshimmed in its bundle: S3
 * computes CRC32 checksums and declares event streams, SQS checks its messages' MD5. Shimmed, their
 * bundles did not build (esbuild: no matching export), and `cdk synth` failed.
 */
export const KEPT_SDK_MODULES: Readonly<Record<string, readonly (keyof typeof SHIMS)[]>> = {
  'functions/upload.ts': ['@smithy/core/checksum', '@smithy/core/event-streams'],
  'functions/admin-media.ts': ['@smithy/core/checksum', '@smithy/core/event-streams'],
  'functions/webhook-stream.ts': ['@smithy/core/checksum'],
  'functions/webhook-delivery.ts': ['@smithy/core/checksum'],
}

/** The alias arguments of `entry`'s bundle: every shim but the SDK modules it keeps. */
export function esbuildArgsOf(entry: string): Record<string, string> {
  const kept: readonly string[] = KEPT_SDK_MODULES[entry] ?? []
  return Object.fromEntries(Object.entries(BUNDLING.esbuildArgs).filter(([flag]) => !kept.includes(flag.replace(/^--alias:/, ''))))
}

/** The same bundling as plain esbuild options, for the tests and the benchmark to build identical bundles. */
export const ESBUILD_OPTIONS: BuildOptions = {
  bundle: true,
  platform: 'node',
  format: BUNDLING.format,
  target: BUNDLING.target,
  mainFields: [...BUNDLING.mainFields],
  banner: { js: BUNDLING.banner },
  minify: BUNDLING.minify,
  sourcemap: BUNDLING.sourceMap,
  sourcesContent: BUNDLING.sourcesContent,
  external: [...BUNDLING.externalModules],
  alias: Object.fromEntries(Object.entries(SHIMS).map(([name, shim]) => [name, `${ROOT}${shim}`])),
}

/** What one function sets apart from the shared settings. */
interface OwnSettings {
  readonly environment?: Record<string, string>
  readonly settings?: Partial<NodejsFunctionProps>
  readonly bundling?: Partial<BundlingOptions>
}

/** The upload function resizes images with sharp: more memory (and so CPU), and time for a few MB. */
const UPLOAD_SETTINGS: Partial<NodejsFunctionProps> = { memorySize: 1536, timeout: Duration.seconds(28) }

/**
 * sharp is a native module: installed into the bundle rather than bundled (the CDK documentation's
 * `nodeModules` for native modules), with its prebuilt binary for Lambda's Linux on ARM whatever
 * machine bundles (npm's os/cpu/libc settings pick the optional package), no Docker needed.
 */
export const UPLOAD_BUNDLING: Partial<BundlingOptions> = {
  nodeModules: ['sharp'],
  environment: { npm_config_os: 'linux', npm_config_cpu: 'arm64', npm_config_libc: 'glibc' },
}

export interface ContentApiStackProps extends StackProps {
  readonly stage: Stage
  /** The folder of schema.json files (context key `contentTypesDir`); the project's examples by default. */
  readonly contentTypesDir?: string
  /** The components folder (context key `componentsDir`); `<contentTypesDir>/../components` by default (content-model.md §18). */
  readonly componentsDir?: string
  /** Base types of custom fields by uid (context key `customFields`), given to each function as CUSTOM_FIELDS. */
  readonly customFields?: Readonly<Record<string, string>>
}

/**
 * Folders an entry's bundle holds beside index.mjs besides the content-type registry, as [source, target]:
 * the admin web interface's static files, which lib/admin-ui/assets.ts reads from `assets/` beside
 * the module that bundles it.
 */
export const BUNDLED_FILES: Readonly<Record<string, readonly (readonly [string, string])[]>> = {
  'functions/admin.ts': [['lib/admin-ui/assets', ASSETS_DIR]],
  'functions/admin-media.ts': [['lib/admin-ui/assets', ASSETS_DIR]],
}

/** The entries that serve an OpenAPI document: each bundle holds both, as `openapi/` (lib/openapi/bundled.ts). */
export const OPENAPI_ENTRIES: readonly string[] = ['functions/locales.ts', 'functions/admin.ts', 'functions/admin-media.ts']

/**
 * Writes the OpenAPI documents of `types` under the REST settings the functions get (their only
 * input besides the types) into `dir`/openapi, and returns that folder: built once at synth, so that
 * no bundle holds the builder (lib/openapi/, about 39 KB) and no cold start or first request builds them.
 */
export function writeOpenApiDocuments(dir: string, types: readonly ContentType[], rest: StageSettings['rest']): string {
  const folder = join(dir, OPENAPI_DIR)
  mkdirSync(folder, { recursive: true })
  for (const [file, text] of Object.entries(openApiFiles(types, configFromEnv(restEnvironment(rest))))) writeFileSync(join(folder, file), text)
  return folder
}

/**
 * Writes the content types the synth read and checked (schema files, components, custom fields)
 * as JSON into `dir`/types.json, and returns the file: every bundle holds it, and
 * functions/runtime.ts reads it at a cold start instead of checking the schema files again.
 */
export function writeTypesRegistry(dir: string, types: readonly ContentType[]): string {
  mkdirSync(dir, { recursive: true })
  const file = join(dir, REGISTRY_FILE)
  writeFileSync(file, JSON.stringify(types))
  return file
}

export class ContentApiStack extends Stack {
  /** The functions by entry file; content functions as `functions/content.ts#<singular name>`. */
  readonly functions = new Map<string, NodejsFunction>()
  /** The content types served, from the schema files: a bad file stops the synth with its one-line SchemaError. */
  readonly types: readonly ContentType[]
  readonly api: RestApi
  /** Where the synth wrote the OpenAPI documents the locales and admin functions serve (copied into their bundles). */
  readonly openApiDir: string
  /** Where the synth wrote the content-type registry every function reads (copied into each bundle as types.json). */
  readonly typesRegistry: string

  constructor(scope: Construct, id: string, props: ContentApiStackProps) {
    super(scope, id, props)
    const { name: stage, settings } = props.stage
    const typesDir = props.contentTypesDir ?? DEFAULT_CONTENT_TYPES_DIR
    const componentsDir = props.componentsDir ?? componentsDirOf(typesDir)
    this.types = loadContentTypes(typesDir, { componentsDir, customFields: props.customFields })
    const removalPolicy = settings.protect ? RemovalPolicy.RETAIN : RemovalPolicy.DESTROY
    const table = createContentTable(this, settings.protect, settings.table)
    // Files made at synth for the bundles, in the cloud assembly's folder (cdk.out), one folder per stack.
    const generated = join(CdkStage.of(this)?.outdir ?? ROOT, `generated-${this.node.addr}`)
    this.openApiDir = writeOpenApiDocuments(generated, this.types, settings.rest)
    this.typesRegistry = writeTypesRegistry(generated, this.types)
    const { adminSecret, tokenHashKey } = createSecrets(this, stage, removalPolicy)
    // Each function's secrets by the environment variable its runtime reads the ARN from.
    const tokenSecrets = { TOKEN_HASH_SECRET_ARN: tokenHashKey }
    const adminSecrets = { ...tokenSecrets, ADMIN_SECRET_ARN: adminSecret }
    const context: FunctionContext = { stack: this, tableArn: table.tableArn, settings, removalPolicy, shared: sharedProps(table.tableName, settings, props.customFields) }
    const fn = (id: string, entry: string, access: TableAccess, secrets: Record<string, ISecret>, content?: ContentType, own?: OwnSettings) =>
      createFunction(context, { id, entry, access, secrets, content, own })

    const api = (this.api = createRestApi(this, stage, settings, removalPolicy))
    const apiRoot = api.root.addResource('api')
    for (const type of this.types) {
      const resource = apiRoot.addResource(routeName(type))
      routeTo(fn(`${pascal(type.singularName)}Function`, 'functions/content.ts', CONTENT_ACCESS, tokenSecrets, type), resource, ...(type.kind === 'collection' ? ['{documentId}'] : []))
    }
    const locales = fn('LocalesFunction', 'functions/locales.ts', LOCALES_ACCESS, tokenSecrets)
    routeTo(locales, apiRoot.addResource('i18n').addResource('locales'))
    routeTo(locales, apiRoot.addResource('openapi.json'))
    // The media library (content-model.md §19): only the upload API's function and the admin pages
    // that upload may write the bucket.
    const media = createMediaStorage(this)
    const uploads: OwnSettings = { environment: { MEDIA_BUCKET: media.bucket.bucketName, MEDIA_URL: media.publicUrl }, settings: UPLOAD_SETTINGS, bundling: UPLOAD_BUNDLING }
    // The only functions that may read the admin token. `/admin` itself is the admin web interface's
    // first page; `/admin/...` the API and the pages.
    const adminRoot = api.root.addResource('admin')
    routeTo(fn('AdminFunction', 'functions/admin.ts', ADMIN_ACCESS, adminSecrets), adminRoot, '{proxy+}')
    // The pages that upload (the media library, and the documents' pages with their media pickers):
    // the same admin site with the S3 client and sharp, which the admin function's bundle leaves out.
    const adminMedia = fn('AdminMediaFunction', 'functions/admin-media.ts', ADMIN_ACCESS, adminSecrets, undefined, uploads)
    grantUploads(media.bucket, adminMedia.role as IRole)
    for (const pages of ADMIN_UPLOAD_PAGES) routeTo(adminMedia, adminRoot.addResource(pages.replace('/admin/', '')), '{proxy+}')
    const upload = fn('UploadFunction', 'functions/upload.ts', CONTENT_ACCESS, tokenSecrets, undefined, uploads)
    grantUploads(media.bucket, upload.role as IRole)
    routeTo(upload, apiRoot.addResource('upload'), '{proxy+}')
    createWebhookDelivery(this, table, removalPolicy, (id, entry, functionProps) => fn(id, entry, WEBHOOK_ACCESS, {}, undefined, { settings: functionProps }))

    if (settings.waf.rateLimit > 0) createRateLimitAcl(this, api.deploymentStage, settings.waf.rateLimit)
    if (settings.cdn) {
      const cdn = createCdn(this, api)
      new CfnOutput(this, 'CdnUrl', { value: `https://${cdn.distributionDomainName}/`, description: 'CloudFront in front of the API: same paths as ApiUrl' })
    }
    if (settings.budget.monthlyUsd > 0) createBudget(this, stage, settings.budget.monthlyUsd, settings.budget.email)
    acceptFindings(this, api, this.functions.values(), settings)

    new CfnOutput(this, 'ApiUrl', { value: api.url, description: 'Base URL: append api/<plural>, api/i18n/locales or admin/...' })
    new CfnOutput(this, 'AdminSecretArn', { value: adminSecret.secretArn, description: 'Secrets Manager secret holding the admin token' })
    new CfnOutput(this, 'TokenHashKeySecretArn', { value: tokenHashKey.secretArn, description: 'Secrets Manager secret holding the API token hash key' })
    new CfnOutput(this, 'TableName', { value: table.tableName })
    new CfnOutput(this, 'MediaUrl', { value: media.publicUrl, description: 'Where uploaded files are served (CloudFront in front of the private media bucket)' })
  }
}

/**
 * The stack's two secrets, generated by CloudFormation inside Secrets Manager: no value appears in
 * the template. No fixed names: a deleted secret's name stays taken during its recovery window.
 */
function createSecrets(stack: Stack, stage: string, removalPolicy: RemovalPolicy): { adminSecret: ISecret; tokenHashKey: ISecret } {
  const adminSecret = new Secret(stack, 'AdminTokenSecret', {
    description: `Admin token of the content API (${stage})`,
    generateSecretString: { passwordLength: 48, excludePunctuation: true, includeSpace: false },
    removalPolicy,
  })
  // A key of its own, not derived from the admin token: every function that identifies API tokens
  // reads it without the admin token, and rotating the admin token leaves API tokens valid.
  const tokenHashKey = new Secret(stack, 'TokenHashKeySecret', {
    description: `HMAC key API access keys are stored under (${stage}); replacing it invalidates every API token`,
    generateSecretString: { passwordLength: 64, excludePunctuation: true, includeSpace: false },
    removalPolicy,
  })
  return { adminSecret, tokenHashKey }
}

/** The settings every function shares: runtime, architecture, memory, timeout, the table and the REST settings. */
function sharedProps(tableName: string, settings: StageSettings, customFields: ContentApiStackProps['customFields']): NodejsFunctionProps {
  return {
    runtime: Runtime.NODEJS_22_X,
    // Graviton: about 20% cheaper per GB-second than x86 for the same work.
    architecture: Architecture.ARM_64,
    // Lambda CPU grows with memory; 512 MB keeps cold starts (SDK init, secret read) short.
    memorySize: 512,
    // Well under API Gateway's 29 s, so a stuck call ends as the function's error, not a gateway timeout.
    timeout: Duration.seconds(10),
    projectRoot: ROOT,
    depsLockFilePath: `${ROOT}package-lock.json`,
    environment: {
      TABLE_NAME: tableName,
      ...restEnvironment(settings.rest),
      ...(customFields === undefined ? {} : { CUSTOM_FIELDS: JSON.stringify(customFields) }),
      // No NODE_OPTIONS=--enable-source-maps: bench/cold-start.ts measured it at 9 to 31 ms more import
      // per cold start (8-22% of it). Traces stay minified; the .map beside each bundle maps them back.
    },
    bundling: BUNDLING,
  }
}

/** What every function of a stack is made with. */
interface FunctionContext {
  readonly stack: ContentApiStack
  readonly tableArn: string
  readonly settings: StageSettings
  readonly removalPolicy: RemovalPolicy
  readonly shared: NodejsFunctionProps
}

/** One function: its entry, table access, the secrets it reads, the content type it serves, its own settings. */
interface FunctionSpec {
  readonly id: string
  readonly entry: string
  readonly access: TableAccess
  readonly secrets: Record<string, ISecret>
  readonly content?: ContentType
  readonly own?: OwnSettings
}

/** One function, its log group and a role holding exactly its table actions and secrets, registered in the stack's `functions`. */
function createFunction(context: FunctionContext, spec: FunctionSpec): NodejsFunction {
  const { stack, settings, removalPolicy, shared } = context
  const { id, entry, content, own = {} } = spec
  const path = `${ROOT}${entry}`
  if (!existsSync(path)) throw new Error(`Missing function entry ${entry}`)
  const logGroup = new LogGroup(stack, `${id}Logs`, { retention: settings.logRetentionDays, removalPolicy })
  const role = new Role(stack, `${id}Role`, { assumedBy: new ServicePrincipal('lambda.amazonaws.com') })
  logGroup.grantWrite(role)
  for (const statement of tableStatements(context.tableArn, spec.access)) role.addToPolicy(statement)
  const environment: Record<string, string> = { ...shared.environment, ...(content === undefined ? {} : { CONTENT_TYPE: content.uid }), ...own.environment }
  for (const [variable, secret] of Object.entries(spec.secrets)) {
    environment[variable] = secret.secretArn
    // GetSecretValue alone (grantRead would add DescribeSecret, which the runtime never calls).
    role.addToPolicy(new PolicyStatement({ actions: ['secretsmanager:GetSecretValue'], resources: [secret.secretArn] }))
  }
  // Every function reads the content types from the registry the stack wrote: each bundle holds a copy.
  // The admin functions also serve the web interface's stylesheet and script, read from files
  // beside them; they and the locales function serve the OpenAPI documents the stack wrote.
  const files = [
    ...(BUNDLED_FILES[entry] ?? []).map(([source, into]) => [`${ROOT}${source}`, into] as const),
    ...(OPENAPI_ENTRIES.includes(entry) ? [[stack.openApiDir, OPENAPI_DIR] as const] : []),
  ]
  const bundling: BundlingOptions = { ...BUNDLING, esbuildArgs: esbuildArgsOf(entry), ...own.bundling, commandHooks: copyInto(stack.typesRegistry, files) }
  const fn = new NodejsFunction(stack, id, { ...shared, ...own.settings, entry: path, handler: 'handler', logGroup, role, environment, bundling })
  stack.functions.set(content === undefined ? entry : `${entry}#${content.singularName}`, fn)
  return fn
}

/**
 * Routes every method of `resource`, and of its `child` resource if named, to `fn`; the function
 * answers 405 itself. No console test-invoke permissions: only the deployed stage may invoke it.
 */
function routeTo(fn: NodejsFunction, resource: IResource, child?: string): void {
  const integration = new LambdaIntegration(fn, { allowTestInvoke: false })
  resource.addMethod('ANY', integration)
  if (child !== undefined) resource.addResource(child).addMethod('ANY', integration)
}

/**
 * Bundling hooks that copy the content-type registry into each bundle (as types.json), so the
 * function serves the types the synth checked, and `files` (absolute source, folder in the bundle).
 */
function copyInto(typesRegistry: string, files: readonly (readonly [string, string])[]): NonNullable<BundlingOptions['commandHooks']> {
  return {
    beforeBundling: () => [],
    beforeInstall: () => [],
    afterBundling: (_inputDir: string, outputDir: string) => [
      `cp "${typesRegistry}" "${outputDir}/${REGISTRY_FILE}"`,
      ...files.map(([source, target]) => `cp -R "${source}" "${outputDir}/${target}"`),
    ],
  }
}

function pascal(name: string): string {
  return name.replace(/(^|[-_])([a-z])/g, (_, __, letter: string) => letter.toUpperCase())
}
