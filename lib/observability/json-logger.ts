// The request log's writer: JSON lines in AWS Lambda Powertools' Logger format, with its level
// rules, debug sampling and Lambda context, made here instead of by Powertools' Logger (about 20 KB
// of every bundle for the few lines the request log writes). What it keeps of the Logger: the keys
// and their order (level, message, timestamp, service, the Lambda context's, sampling_rate,
// xray_trace_id, tenant_id, then the line's own; empty ones left out), the level (Lambda's log
// level control first, POWERTOOLS_LOG_LEVEL's otherwise), a sampled share of requests at DEBUG,
// the cold start, timestamps in the TZ's local time (log-environment.ts), and the output (its own Console on stdout
// and stderr; the global console, indented, with POWERTOOLS_DEV). test/unit/json-logger.test.ts
// holds its lines against the Logger's.
import { Console } from 'node:console'
import { randomInt } from 'node:crypto'
import { env, isDevMode, timestampOf, xrayTraceId } from './log-environment.js'
import type { LambdaKeys } from './request-line.js'

/** Receives each log line (a JSON object, no newline) instead of stdout: tests capture them. */
export type LogWriter = (line: string) => void

/** The levels and their thresholds, as Powertools numbers them. */
export const LOG_LEVELS = { TRACE: 6, DEBUG: 8, INFO: 12, WARN: 16, ERROR: 20, CRITICAL: 24, SILENT: 28 } as const
export type LevelName = keyof typeof LOG_LEVELS

/** The Lambda context as hono/aws-lambda passes it (the keys a line reports). */
export interface LambdaContext {
  readonly awsRequestId: string
  readonly invokedFunctionArn?: string
  readonly memoryLimitInMB?: string | number
  readonly functionName?: string
  readonly tenantId?: string
}

export interface LoggerSettings {
  readonly serviceName: string
  readonly logLevel: LevelName
  /** Share of requests (0 to 1) logged at DEBUG whatever the level. */
  readonly debugSampleRate: number
}

const isLevel = (name: string): name is LevelName => Object.hasOwn(LOG_LEVELS, name)

/** How a line reaches the log: `write` when given, else a console (error and warn on stderr), indented in dev mode. */
function outputOf(write: LogWriter | undefined): (level: 'ERROR' | 'WARN' | 'INFO' | 'DEBUG', line: string) => void {
  if (write !== undefined) return (_level, line) => write(line)
  // Outside dev mode a Console of its own, not Lambda's console; without colours (a line is one
  // string, which no colour mode changes), it does not read the colour variables on every line.
  const output = isDevMode() ? console : new Console({ stdout: process.stdout, stderr: process.stderr, colorMode: false })
  return (level, line) => output[level.toLowerCase() as 'info'](line)
}

/** Writes lines at or above its level; keeps the Lambda context and cold start of the invocation. */
export class JsonLogger {
  /** The level lines must reach to be written: the initial one, or DEBUG for a sampled request. */
  level: number
  /** The Lambda context's keys of the current invocation, cold start included; undefined off Lambda. */
  context: LambdaKeys | undefined
  private readonly settings: LoggerSettings
  private readonly initial: number
  /** Lambda's advanced logging controls' level (AWS_LAMBDA_LOG_LEVEL), which no setting or sampling overrides. */
  private readonly lambdaLevel: LevelName | undefined
  private readonly output: ReturnType<typeof outputOf>
  private readonly indent: number
  private readonly warned = new Set<string>()
  private coldStart = env('AWS_LAMBDA_INITIALIZATION_TYPE') === 'on-demand'
  private sampledOnce = false

  constructor(write: LogWriter | undefined, settings: LoggerSettings) {
    this.settings = settings
    this.output = outputOf(write)
    this.indent = write === undefined && isDevMode() ? 4 : 0
    const lambda = env('AWS_LAMBDA_LOG_LEVEL').replace(/^FATAL$/, 'CRITICAL')
    this.lambdaLevel = isLevel(lambda) ? lambda : undefined
    this.initial = LOG_LEVELS[this.lambdaLevel ?? settings.logLevel]
    this.level = this.initial
    this.checkLambdaLevel(settings.logLevel)
    // The cold start's sampling decision; refreshSampling makes the next ones.
    if (this.sampled()) this.toDebug()
  }

  /** Warns (once) when `wanted` is more verbose than Lambda's log level, which then prevails. */
  private checkLambdaLevel(wanted: LevelName): void {
    if (this.lambdaLevel === undefined || LOG_LEVELS[this.lambdaLevel] <= LOG_LEVELS[wanted]) return
    const message = `Current log level (${wanted}) does not match AWS Lambda Advanced Logging Controls minimum log level (${this.lambdaLevel}). This can lead to data loss, consider adjusting them.`
    if (this.warned.has(message)) return
    this.warned.add(message)
    this.print('WARN', message, {})
  }

  /** Sets the Lambda context of the invocation (the first since an on-demand start is the cold start). */
  addContext(context: LambdaContext): void {
    const coldStart = this.coldStart
    this.coldStart = false
    this.context = {
      cold_start: coldStart, function_arn: context.invokedFunctionArn, function_memory_size: context.memoryLimitInMB,
      function_name: context.functionName, function_request_id: context.awsRequestId, tenant_id: context.tenantId,
    }
  }

  /** Decides afresh whether this request is logged at DEBUG (the first request keeps the cold start's decision). */
  refreshSampling(): void {
    if (!this.sampledOnce) {
      this.sampledOnce = true
      return
    }
    if (this.sampled()) this.toDebug()
    else if (this.lambdaLevel === undefined) this.level = this.initial
  }

  private sampled(): boolean {
    const rate = this.settings.debugSampleRate
    return rate > 0 && randomInt(0, 100) / 100 <= rate && this.level > LOG_LEVELS.TRACE
  }

  private toDebug(): void {
    if (this.lambdaLevel === undefined) this.level = LOG_LEVELS.DEBUG
    else this.checkLambdaLevel('DEBUG')
    this.print('DEBUG', 'Setting log level to DEBUG due to sampling rate', {})
  }

  /**
   * Writes a line at `level` when the logger's level lets it through: the standard keys in
   * Powertools' order, then `attributes` (a standard key among them keeps its place); keys whose
   * value is undefined, null or '' are left out.
   */
  print(level: 'ERROR' | 'WARN' | 'INFO' | 'DEBUG', message: string, attributes: Record<string, unknown>): void {
    if (LOG_LEVELS[level] < this.level) return
    const context = this.context
    const line: Record<string, unknown> = {
      level, message, timestamp: timestampOf(new Date()), service: this.settings.serviceName,
      cold_start: context?.cold_start, function_arn: context?.function_arn, function_memory_size: context?.function_memory_size,
      function_name: context?.function_name, function_request_id: context?.function_request_id,
      sampling_rate: this.settings.debugSampleRate, xray_trace_id: xrayTraceId(), tenant_id: context?.tenant_id, ...attributes,
    }
    for (const key of Object.keys(line)) if (line[key] === undefined || line[key] === null || line[key] === '') delete line[key]
    this.output(level, JSON.stringify(line, undefined, this.indent))
  }

  /** Writes a line made elsewhere (the request line's template) where this logger writes its own. */
  printMade(level: 'INFO', line: string): void {
    this.output(level, line)
  }
}
