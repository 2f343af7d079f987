// `npm run load` (bench/load.ts) as a short run: its checks of the table against the acknowledged
// writes must hold on the current storage (drafts beside published versions included), so the
// figures docs/performance.md reports from it stay reproducible. It starts its own DynamoDB Local.
import { spawn } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { expect, it } from 'vitest'

const ROOT = fileURLToPath(new URL('../..', import.meta.url))

// Bounded by a count of requests, not by time: on a busy machine (CI ran 12 req/s) 4 s made 48
// requests and no DELETE, as the mix only deletes once five documents exist. 300 requests make
// about 30 deletes; 60 s is only a cap.
it('runs 300 requests of the load and passes every check of the acknowledged writes', async () => {
  const child = spawn(process.execPath, ['--import', 'tsx', 'bench/load.ts'], { cwd: ROOT, env: { ...process.env, LOAD_DURATION_S: '60', LOAD_MAX_REQUESTS: '300', LOAD_CONNECTIONS: '8' }, stdio: ['ignore', 'pipe', 'pipe'] })
  let output = ''
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()))
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()))
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve))
  const report = output.split('\n').filter((line) => line.startsWith('[load]') || line.startsWith('  - ')).join('\n')
  expect(report).toContain('all checks passed')
  expect(code, report).toBe(0)
  // Writes of every kind were made and checked, not an empty run.
  for (const kind of ['POST', 'PUT (update)', 'PUT (new localization)', 'PUT hot (non-localized)', 'DELETE']) expect(report).toMatch(new RegExp(`${kind.replace(/[()]/g, '\\$&')} +200|${kind.replace(/[()]/g, '\\$&')} +204`))
}, 120_000)
