// Cold starts: each Lambda entry point bundled exactly as the CDK stack bundles it (its exported
// BUNDLING settings), and the bare handler bundled the same way; the bundled size, and import plus
// first request timed in fresh `node` processes pointed at DynamoDB Local, with the environment the
// stack gives its functions (several times each, interleaved, the median reported), and the import
// once more with NODE_OPTIONS=--enable-source-maps, to show what loading the source maps would cost.
import { execFile } from 'node:child_process'
import { cp, mkdtemp, rm, stat, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { build, type BuildOptions } from 'esbuild'
import { BUNDLED_FILES, ESBUILD_OPTIONS } from '../infra/content-api-stack.js'
import { REGISTRY_FILE } from '../functions/runtime.js'
import { DEFAULT_CONTENT_TYPES_DIR, loadContentTypes } from '../lib/schema/load.js'
import { percentile } from './measure.js'

const run = promisify(execFile)
const ROOT = fileURLToPath(new URL('..', import.meta.url))

/** The stack's NodejsFunction bundling, as the esbuild options it stands for. */
export const STACK_BUNDLING: BuildOptions = ESBUILD_OPTIONS

/** Source-mapped stack traces: measured here, left off by the stack for what it costs at import. */
export const SOURCE_MAPS_NODE_OPTIONS = '--enable-source-maps'

/** The same settings with esbuild's own main-field order for Node (CommonJS builds first), for the size comparison only. */
export const MAIN_FIRST_BUNDLING: BuildOptions = { ...STACK_BUNDLING, mainFields: undefined }

export interface ColdTarget {
  readonly name: string
  readonly entry: string
  /** The first request: a GET of `path` as an API Gateway REST API (payload 1.0) proxy event. */
  readonly path: string
  readonly resource: string
  readonly headers?: Record<string, string>
  /** Environment of this function only (a content function's CONTENT_TYPE). */
  readonly env?: Record<string, string>
}

export interface ColdResult {
  readonly name: string
  /** Size of the bundled JavaScript, and of its source map (deployed beside it, loaded only with --enable-source-maps). */
  readonly bytes: number
  readonly mapBytes: number
  /** Size of the same entry bundled with CommonJS builds first (esbuild's default for Node). */
  readonly mainFirstBytes: number
  readonly runs: number
  /** Medians over the runs, in ms. */
  readonly importMs: number
  readonly firstRequestMs: number
  readonly totalMs: number
  /** Median import with NODE_OPTIONS=--enable-source-maps, and what that adds to importMs. */
  readonly importMsWithSourceMaps: number
  readonly sourceMapCostMs: number
}

function restEvent(target: ColdTarget): string {
  const headers: Record<string, string> = { Host: 'bench.local', Accept: 'application/json', ...target.headers }
  return JSON.stringify({
    resource: target.resource, path: target.path, httpMethod: 'GET', headers,
    multiValueHeaders: Object.fromEntries(Object.entries(headers).map(([name, value]) => [name, [value]])),
    queryStringParameters: null, multiValueQueryStringParameters: null, pathParameters: null, stageVariables: null, body: null, isBase64Encoded: false,
    requestContext: {
      accountId: '000000000000', apiId: 'bench', domainName: 'bench.local', domainPrefix: 'bench', httpMethod: 'GET', path: `/bench${target.path}`,
      protocol: 'HTTP/1.1', requestId: 'bench', requestTimeEpoch: Date.now(), resourceId: 'bench', resourcePath: target.resource, stage: 'bench',
      identity: { sourceIp: '127.0.0.1', userAgent: 'bench' },
    },
  })
}

async function bundle(target: ColdTarget, options: BuildOptions, file: string): Promise<number> {
  await build({ ...options, entryPoints: [join(ROOT, target.entry)], outfile: file, logLevel: 'error' })
  return (await stat(file)).size
}

/** Bundles each target, then cold-starts each bundle `runs` times round-robin; `env` is all the child sees besides PATH and NODE_OPTIONS. */
export async function measureColdStarts(targets: readonly ColdTarget[], env: Record<string, string>, runs: number): Promise<ColdResult[]> {
  const dir = await mkdtemp(join(tmpdir(), 'bench-bundles-'))
  try {
    const bundles = []
    for (const target of targets) {
      // As NodejsFunction names it: index.mjs, one directory per function.
      const file = join(dir, target.name, 'index.mjs')
      const bytes = await bundle(target, STACK_BUNDLING, file)
      const mapBytes = STACK_BUNDLING.sourcemap === true ? (await stat(`${file}.map`)).size : 0
      const mainFirstBytes = await bundle(target, MAIN_FIRST_BUNDLING, join(dir, 'main-first', target.name, 'index.mjs'))
      // As the stack's bundling hook does: the content-type registry beside the bundle, which every
      // function reads, and the entry's other files (the admin interface's stylesheet and script).
      await writeFile(join(dir, target.name, REGISTRY_FILE), JSON.stringify(loadContentTypes(DEFAULT_CONTENT_TYPES_DIR)))
      for (const [source, into] of BUNDLED_FILES[target.entry] ?? []) await cp(join(ROOT, source), join(dir, target.name, into), { recursive: true })
      bundles.push({ target, file, bytes, mapBytes, mainFirstBytes, timings: [] as { importMs: number; firstRequestMs: number }[], mappedImports: [] as number[] })
    }
    const child = join(ROOT, 'bench', 'cold-start-child.mjs')
    // As the stack runs them: no NODE_OPTIONS (an empty value, so the parent's options do not leak in).
    const childEnv = { PATH: process.env.PATH ?? '', NODE_OPTIONS: '', ...env }
    const mappedEnv = { ...childEnv, NODE_OPTIONS: SOURCE_MAPS_NODE_OPTIONS }
    const coldStart = async (b: { target: ColdTarget; file: string }, childEnvironment: Record<string, string>) => {
      const { stdout } = await run(process.execPath, [child, b.file, restEvent(b.target)], { env: childEnvironment, cwd: dir })
      // The function's own request log line comes first; the child's measurement is the last line.
      const result = JSON.parse(stdout.trim().split('\n').at(-1) ?? '') as { importMs: number; firstRequestMs: number; statusCode: number }
      if (result.statusCode !== 200) throw new Error(`cold start of ${b.target.name} answered ${result.statusCode}`)
      return result
    }
    for (let round = 0; round < runs; round++) {
      for (const b of bundles) {
        b.timings.push(await coldStart(b, { ...childEnv, ...b.target.env }))
        b.mappedImports.push((await coldStart(b, { ...mappedEnv, ...b.target.env })).importMs)
      }
    }
    const median = (values: number[]) => Number(percentile([...values].sort((a, b) => a - b), 50).toFixed(1))
    return bundles.map(({ target, bytes, mapBytes, mainFirstBytes, timings, mappedImports }) => ({
      name: target.name,
      bytes,
      mapBytes,
      mainFirstBytes,
      runs: timings.length,
      importMs: median(timings.map((t) => t.importMs)),
      firstRequestMs: median(timings.map((t) => t.firstRequestMs)),
      totalMs: median(timings.map((t) => t.importMs + t.firstRequestMs)),
      importMsWithSourceMaps: median(mappedImports),
      sourceMapCostMs: Number((median(mappedImports) - median(timings.map((t) => t.importMs))).toFixed(1)),
    }))
  } finally {
    await rm(dir, { recursive: true, force: true })
  }
}
