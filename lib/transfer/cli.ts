// `npm run import` / `npm run export`'s command line and the table they work on: the local table
// (the one `npm start` keeps in DATA_DIR, or DYNAMODB_ENDPOINT's) by default, or a deployed stage's
// (`--stage <name>`: the TableName output of its stack ContentApi-<name>, with the caller's AWS
// credentials and AWS_REGION).
import { parseArgs } from 'node:util'
import { CloudFormationClient, DescribeStacksCommand } from '@aws-sdk/client-cloudformation'
import { configFromEnv } from '../config.js'
import { dynamoEndpointProblem, startDynamoLocal } from '../local/dynamodb-local.js'
import { LocalBlobs } from '../local/uploads.js'
import { readLocalSettings } from '../local/settings.js'
import { DEFAULT_CONTENT_TYPES_DIR, loadContentTypes } from '../schema/load.js'
import { createServices, type Services } from '../services.js'
import { createDocumentClient } from '../storage/client.js'
import { ensureTable } from '../storage/schema.js'

export const TRANSFER_USAGE = `Usage: npm run import -- <archive> [--stage NAME] [--concurrency N]
       npm run export -- <archive> [--stage NAME]

  import   reads an archive of \`strapi export --no-encrypt\` (.tar.gz or .tar): compares its
           schemas with the project's content types (any difference: listed, nothing written,
           exit 1), then writes its locales and documents (idempotent: rerun it after a failure)
  export   writes the table's locales and documents as such an archive (.tar.gz unless the
           name ends in .tar), which \`strapi import\` loads
  --stage  the table of the deployed stack ContentApi-NAME (AWS credentials and AWS_REGION of
           the caller); without it, the local table of npm start (DATA_DIR, or DYNAMODB_ENDPOINT)`

export class TransferUsageError extends Error {}

export interface TransferArgs {
  readonly archive: string
  readonly stage: string | undefined
  readonly concurrency: number | undefined
}

/** The arguments after `import` or `export`. */
export function parseTransferArgs(argv: readonly string[]): TransferArgs {
  let parsed
  try {
    parsed = parseArgs({ args: [...argv], allowPositionals: true, options: { stage: { type: 'string' }, concurrency: { type: 'string' } } })
  } catch (error) {
    throw new TransferUsageError(error instanceof Error ? error.message : String(error))
  }
  const [archive, ...rest] = parsed.positionals
  if (archive === undefined) throw new TransferUsageError('No archive given')
  if (rest.length > 0) throw new TransferUsageError(`Unexpected argument ${rest.join(' ')}`)
  const raw = parsed.values.concurrency
  if (raw !== undefined && !/^[1-9]\d{0,3}$/.test(raw)) throw new TransferUsageError(`--concurrency '${raw}' is not a number from 1 to 9999`)
  return { archive, stage: parsed.values.stage, concurrency: raw === undefined ? undefined : Number(raw) }
}

/** A stage's table name, from its stack's TableName output. */
async function stageTable(stage: string, region: string): Promise<string> {
  const stackName = `ContentApi-${stage}`
  const { Stacks } = await new CloudFormationClient({ region }).send(new DescribeStacksCommand({ StackName: stackName }))
  const table = Stacks?.[0]?.Outputs?.find((output) => output.OutputKey === 'TableName')?.OutputValue
  if (table === undefined) throw new Error(`The stack ${stackName} (region ${region}) has no TableName output: deploy the stage first (npm run deploy)`)
  return table
}

/** The services of the table `args` names, and how to let it go (stops the DynamoDB Local started here). */
export async function openTable(args: TransferArgs, env: Readonly<Record<string, string | undefined>>, cwd: string): Promise<{ services: Services; typesDir: string; where: string; close: () => Promise<void> }> {
  const settings = readLocalSettings([], env, cwd)
  const typesDir = env.CONTENT_TYPES_DIR === undefined || env.CONTENT_TYPES_DIR === '' ? DEFAULT_CONTENT_TYPES_DIR : env.CONTENT_TYPES_DIR
  const types = loadContentTypes(typesDir)
  // The importer reads no token and serves no route: the access service's keys are never used.
  const secrets = { adminToken: undefined, tokenHashSecret: 'transfer-cli-uses-no-api-token-hashes' }
  if (args.stage !== undefined) {
    const tableName = await stageTable(args.stage, settings.region)
    const db = createDocumentClient({ region: settings.region, endpoint: undefined })
    return { services: createServices(db, { ...configFromEnv(env), tableName }, secrets, types), typesDir, where: `table ${tableName} of stage ${args.stage}`, close: async () => undefined }
  }
  const local = settings.endpoint === undefined ? await startDynamoLocal({ dbPath: settings.dataDir === undefined ? undefined : `${settings.dataDir}/dynamodb` }) : undefined
  const endpoint = settings.endpoint ?? (local?.endpoint as string)
  const config = configFromEnv(env)
  const db = createDocumentClient({ region: settings.region, endpoint })
  try {
    const problem = await dynamoEndpointProblem(endpoint)
    if (problem !== undefined) throw new Error(problem)
    await ensureTable(db, config.tableName)
  } catch (error) {
    // The DynamoDB Local started here would keep the process alive (a bad TABLE_NAME hung the CLI).
    await local?.stop()
    throw error
  }
  const where = `local table ${config.tableName} (${local === undefined ? `DynamoDB at ${endpoint}` : `DynamoDB Local, data in ${settings.dataDir ?? 'memory'}`})`
  // The files of `npm start` are under DATA_DIR (lib/local/uploads.ts); without one there are none to read or write.
  const blobs = settings.dataDir === undefined ? undefined : new LocalBlobs(settings.dataDir)
  return { services: createServices(db, config, secrets, types, blobs), typesDir, where, close: async () => void (await local?.stop()) }
}
