// Where a JVM spends its CPU, for `npm run bench:dynamodb-local -- --profile`: Java Flight
// Recorder's execution samples of DynamoDB Local, taken with the JDK's `jcmd` and read with its
// `jfr` (both on the PATH; a JRE alone lacks them). The JVM must be started with a stack depth
// that holds whole stacks (startDynamoLocal's javaOptions).
import { execFileSync } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

/** A frame of DynamoDB Local's SQLite layer, where it reads what it stored. */
const SQLITE_LAYER = /^software\.amazon\.dynamodb\.services\.local\.shared\.access\.sqlite\.SQLiteDBAccess/
/** Jackson reading JSON into an object (DynamoDB Local's mapper is an ObjectMapper). */
const JSON_READ = /\.(?:ObjectMapper|DynamoDbObjectMapper)\.readValue$/

/**
 * The share of `samples` (each a stack, innermost frame first, as `class.method`) spent reading
 * the table's stored description: DynamoDB Local keeps it as JSON in SQLite (`dm.TableInfo`, every
 * index's key schema and projection) and parses it again in its SQLite layer for every item a
 * call reads or writes. Items themselves are not read through that mapper.
 */
export function descriptionShare(samples: readonly (readonly string[])[]): number {
  const reading = samples.filter((frames) => frames.some((frame, i) => JSON_READ.test(frame) && SQLITE_LAYER.test(frames[i + 1] ?? '')))
  return samples.length === 0 ? 0 : reading.length / samples.length
}

/** The stacks of `jfr print --events jdk.ExecutionSample` output, innermost frame first. */
export function parseSamples(printed: string): string[][] {
  return printed.split(/^jdk\.ExecutionSample \{/m).slice(1)
    .map((event) => [...event.matchAll(/^ {4}([\w$.<>]+)\(.*\)(?: +line:.*)?$/gm)].map((match) => match[1] as string))
    .filter((frames) => frames.length > 0)
}

export class JavaProfiler {
  private recording = 0

  constructor(private readonly pid: number) {}

  /** Starts a recording (JFR's `profile` settings: a sample every 10 ms of each running thread). */
  start(): void {
    this.recording += 1
    execFileSync('jcmd', [String(this.pid), 'JFR.start', `name=bench${this.recording}`, 'settings=profile'], { stdio: 'ignore' })
  }

  /** Stops the recording and says what share of its samples read the table description, and of how many. */
  stop(): string {
    const folder = mkdtempSync(join(tmpdir(), 'java-profile-'))
    try {
      const file = join(folder, 'recording.jfr')
      execFileSync('jcmd', [String(this.pid), 'JFR.stop', `name=bench${this.recording}`, `filename=${file}`], { stdio: 'ignore' })
      const printed = execFileSync('jfr', ['print', '--events', 'jdk.ExecutionSample', '--stack-depth', '2048', file], { encoding: 'utf8', maxBuffer: 1 << 30 })
      const samples = parseSamples(printed)
      return `${(descriptionShare(samples) * 100).toFixed(0)}% of ${samples.length}`
    } finally {
      rmSync(folder, { recursive: true, force: true })
    }
  }
}
