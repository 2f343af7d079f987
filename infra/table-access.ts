// What each kind of function may do with the table: exactly the DynamoDB actions its code path
// sends (transactions need the action of each item they write), on the table and the indexes it
// queries, nothing else. Read from lib/storage: documents.ts, lists.ts, settings.ts.
import { Effect, PolicyStatement } from 'aws-cdk-lib/aws-iam'
import { TABLE } from '../lib/table.js'

export interface TableAccess {
  /** Actions on the base table. */
  readonly actions: readonly string[]
  /** Indexes the function queries; Query is allowed on these alone. */
  readonly indexes: readonly string[]
}

/** A content type's function: documents, lists, counts, and reading tokens, roles and locales. */
export const CONTENT_ACCESS: TableAccess = {
  actions: [
    'dynamodb:GetItem', // versions, counts, locale registry, public role, token by hash
    'dynamodb:BatchGetItem', // a sorted page's documents, counts across locales
    'dynamodb:Query', // all versions of one document (base table)
    'dynamodb:PutItem', // new versions and document heads (in transactions)
    'dynamodb:UpdateItem', // id sequence, updates, count items
    'dynamodb:DeleteItem', // deleted versions and heads (in transactions)
  ],
  indexes: TABLE.indexes.map((index) => index.name),
}

/** `GET /api/i18n/locales`: the locale registry and the caller's token or the public role. */
export const LOCALES_ACCESS: TableAccess = {
  actions: ['dynamodb:GetItem'],
  indexes: [],
}

/** The administration API: locale registry, public role, API tokens. */
export const ADMIN_ACCESS: TableAccess = {
  actions: [
    'dynamodb:GetItem', // registry, public role
    'dynamodb:Query', // token list (base table)
    'dynamodb:PutItem', // registry, public role, new tokens
    'dynamodb:UpdateItem', // token id sequence
    'dynamodb:DeleteItem', // revoked tokens
    'dynamodb:ConditionCheckItem', // a removed locale must hold no versions (in the registry transaction)
  ],
  indexes: [],
}

/** The IAM statements granting `access` on the table `tableArn`. */
export function tableStatements(tableArn: string, access: TableAccess): PolicyStatement[] {
  const statements = [new PolicyStatement({ effect: Effect.ALLOW, actions: [...access.actions], resources: [tableArn] })]
  if (access.indexes.length > 0) {
    statements.push(new PolicyStatement({
      effect: Effect.ALLOW,
      actions: ['dynamodb:Query'],
      resources: access.indexes.map((name) => `${tableArn}/index/${name}`),
    }))
  }
  return statements
}
