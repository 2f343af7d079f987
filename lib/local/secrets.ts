// The secrets of a local run, kept with its data (`<data dir>/secrets.json`, mode 0600) so a
// restart keeps the same admin token and API tokens: the admin token, and the HMAC key API access
// keys are stored under, a secret of its own (never derived from the admin token). ADMIN_TOKEN or
// TOKEN_HASH_SECRET, when set, replace the kept value (that is how either is rotated).
import { randomBytes } from 'node:crypto'
import { chmod, mkdir, readFile, rename, writeFile } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import * as v from 'valibot'
import { legacyTokenHashKey } from '../access.js'

/** Shortest admin token accepted: it guards every admin route. */
export const MIN_ADMIN_TOKEN_LENGTH = 20
/** Shortest token hash key accepted (each of its whitespace-separated keys). */
export const MIN_HASH_KEY_LENGTH = 32

const KeptSecretsSchema = v.object({
  adminToken: v.pipe(v.string(), v.minLength(MIN_ADMIN_TOKEN_LENGTH)),
  tokenHashSecret: v.pipe(v.string(), v.minLength(MIN_HASH_KEY_LENGTH)),
})

export type LocalSecrets = v.InferOutput<typeof KeptSecretsSchema>

/** Where each secret came from, for the start-up banner. */
export type SecretSource = 'environment' | 'kept' | 'new'

export interface ResolvedSecrets {
  readonly secrets: LocalSecrets
  readonly adminTokenSource: SecretSource
  /** The file they are kept in; undefined for an in-memory run. */
  readonly file: string | undefined
}

/** A fresh random secret: 32 bytes, base64url (43 characters). */
export const randomSecret = (): string => randomBytes(32).toString('base64url')

/** The secrets file of a data directory. */
export const secretsFileOf = (dataDir: string): string => join(dataDir, 'secrets.json')

/** The secrets kept in `file`, undefined when there is none; throws naming the file when it is unreadable. */
async function readKept(file: string): Promise<LocalSecrets | undefined> {
  let text: string
  try {
    text = await readFile(file, 'utf8')
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    if (code === 'ENOENT') return undefined
    if (code === 'ENOTDIR') throw new Error(`DATA_DIR='${dirname(file)}' cannot be written (ENOTDIR): set DATA_DIR to a writable directory, or run with --in-memory`)
    throw new Error(`cannot read ${file} (${code ?? (error as Error).message}): fix its permissions, or delete it to start with new secrets`)
  }
  let parsed: unknown
  try {
    parsed = JSON.parse(text)
  } catch {
    parsed = undefined
  }
  const result = v.safeParse(KeptSecretsSchema, parsed)
  if (!result.success) {
    throw new Error(`${file} is not a valid secrets file (it needs adminToken of ${MIN_ADMIN_TOKEN_LENGTH}+ and tokenHashSecret of ${MIN_HASH_KEY_LENGTH}+ characters): fix it, or delete it to start with new secrets (API tokens made before then stop working)`)
  }
  // A kept file from before (or copied with other modes) is tightened; one this user cannot change stays as its owner set it.
  await chmod(file, 0o600).catch(() => undefined)
  return result.output
}

/**
 * The secrets of a run: `given` values first (from the environment), then those kept in
 * `dataDir`, then new random ones (`existingTable`: DYNAMODB_ENDPOINT names a table that may
 * predate kept secrets). With a `dataDir` the result is written back, so the next start
 * finds it; without one (in memory) nothing is read or written.
 */
export async function resolveLocalSecrets(dataDir: string | undefined, given: Partial<LocalSecrets>, options: { existingTable?: boolean } = {}): Promise<ResolvedSecrets> {
  const file = dataDir === undefined ? undefined : secretsFileOf(dataDir)
  const kept = file === undefined ? undefined : await readKept(file)
  // A table run before keys of their own (DYNAMODB_ENDPOINT, ADMIN_TOKEN, nothing kept yet) holds
  // tokens hashed under a key derived from that admin token: kept as a previous key, it verifies
  // them from now on whatever the admin token becomes; new tokens use the new key.
  const legacy = kept === undefined && options.existingTable === true && given.adminToken !== undefined ? ` ${legacyTokenHashKey(given.adminToken)}` : ''
  const secrets: LocalSecrets = {
    // Hex, not base64url: a token starting with '-' would read as an option in `--token "$ADMIN_TOKEN"`.
    adminToken: given.adminToken ?? kept?.adminToken ?? randomBytes(24).toString('hex'),
    tokenHashSecret: given.tokenHashSecret ?? kept?.tokenHashSecret ?? `${randomSecret()}${legacy}`,
  }
  const adminTokenSource: SecretSource = given.adminToken !== undefined ? 'environment' : kept !== undefined ? 'kept' : 'new'
  if (file !== undefined && dataDir !== undefined && (kept === undefined || kept.adminToken !== secrets.adminToken || kept.tokenHashSecret !== secrets.tokenHashSecret)) {
    try {
      // A DATA_DIR the project creates is this user's only (lib/local/private-files.ts).
      await mkdir(dataDir, { recursive: true, mode: 0o700 })
      // Written aside then renamed: a crash mid-write never leaves a torn file that blocks the next start.
      await writeFile(`${file}.new`, `${JSON.stringify(secrets, null, 2)}\n`, { mode: 0o600 })
      await chmod(`${file}.new`, 0o600) // a leftover of a crash keeps its mode otherwise
      await rename(`${file}.new`, file)
    } catch (error) {
      throw new Error(`DATA_DIR='${dataDir}' cannot be written (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}): set DATA_DIR to a writable directory, or run with --in-memory`)
    }
  }
  return { secrets, adminTokenSource, file }
}
