// Shared start-up of every Lambda function: configuration from the environment (validated once,
// failing fast), the admin secret from Secrets Manager (once per cold start), one DynamoDB client.
import { GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager'
import { deriveTokenHashSecret } from '../lib/access.js'
import { configFromEnv } from '../lib/config.js'
import { createServices, type Services } from '../lib/services.js'
import { createDocumentClient } from '../lib/storage/client.js'

function required(name: string): string {
  const value = process.env[name]
  if (value === undefined || value === '') throw new Error(`Missing environment variable ${name}`)
  return value
}

async function adminSecret(): Promise<string> {
  if (process.env.ADMIN_SECRET_ARN === undefined || process.env.ADMIN_SECRET_ARN === '') return required('ADMIN_TOKEN')
  const client = new SecretsManagerClient({ region: required('AWS_REGION') })
  const { SecretString } = await client.send(new GetSecretValueCommand({ SecretId: process.env.ADMIN_SECRET_ARN }))
  client.destroy()
  if (SecretString === undefined || SecretString === '') throw new Error('The admin secret is empty')
  return SecretString
}

/** The services of this function instance; rejects (and the cold start fails) on bad config. */
export async function lambdaServices(): Promise<Services> {
  const config = configFromEnv(process.env)
  const adminToken = await adminSecret()
  const db = createDocumentClient({ region: required('AWS_REGION'), endpoint: process.env.DYNAMODB_ENDPOINT || undefined })
  return createServices(db, config, { adminToken, tokenHashSecret: process.env.TOKEN_HASH_SECRET || deriveTokenHashSecret(adminToken) })
}
