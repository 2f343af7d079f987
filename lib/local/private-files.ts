// Local data is this user's only (issue 33, point 5): DynamoDB Local's file holds token hashes,
// password hashes, private attributes and drafts; secrets.json the admin token. Folders the project
// creates are 0700 and the files in them 0600. A DATA_DIR that already exists keeps its mode (it
// may be a folder the user shares on purpose); what the project keeps in it is tightened instead.
import { chmod, mkdir, readdir } from 'node:fs/promises'
import { join } from 'node:path'

/**
 * Creates `folder` and its missing parents as 0700, and tightens an existing one to 0700 and the
 * files directly in it to 0600 (a data folder from before this rule, or copied with other modes).
 */
export async function privateFolder(folder: string): Promise<void> {
  await mkdir(folder, { recursive: true, mode: 0o700 })
  await chmod(folder, 0o700)
  for (const entry of await readdir(folder, { withFileTypes: true })) {
    if (entry.isFile()) await chmod(join(folder, entry.name), 0o600)
  }
}

/**
 * Runs `start`, which spawns a child process, under umask 077: the child inherits it, so every file
 * and folder it creates (DynamoDB Local's database and journal) is this user's only. This process's
 * umask is restored at once (spawning is synchronous).
 */
export function withPrivateUmask<T>(start: () => T): T {
  const before = process.umask(0o077)
  try {
    return start()
  } finally {
    process.umask(before)
  }
}
