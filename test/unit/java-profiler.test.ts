// The cost benchmark's profile reading (bench/java-profiler.ts): stacks out of `jfr print` text,
// and which of them are DynamoDB Local re-reading a table's stored description.
import { describe, expect, it } from 'vitest'
import { descriptionShare, parseSamples } from '../../bench/java-profiler.js'

const SQLITE = 'software.amazon.dynamodb.services.local.shared.access.sqlite'

/** One event as `jfr print --events jdk.ExecutionSample` prints it, frames innermost first. */
function event(frames: readonly string[]): string {
  const lines = frames.map((frame, i) => `    ${frame}(${i % 2 === 0 ? 'String, int' : ''})${i === 1 ? '' : ` line: ${10 + i}`}`)
  return ['jdk.ExecutionSample {', '  startTime = 02:17:48.264', '  sampledThread = "main" (javaThreadId = 1)', '  state = "STATE_RUNNABLE"', '  stackTrace = [', ...lines, '    ...', '  ]', '}', ''].join('\n')
}

describe('parseSamples', () => {
  it('reads every event\'s frames in order, native frames (no line number) included', () => {
    const first = ['com.fasterxml.jackson.core.json.UTF8StreamJsonParser.nextToken', 'java.lang.Object.hashCode', `${SQLITE}.SQLiteDBAccess$25.doWork`]
    const second = ['java.util.HashMap.put', 'software.amazon.dynamodb.services.local.server.LocalDynamoDBServerHandler.handle']
    expect(parseSamples(`${event(first)}\n${event(second)}`)).toEqual([first, second])
  })

  it('finds nothing in text without samples', () => {
    expect(parseSamples('')).toEqual([])
    expect(parseSamples('jdk.CPULoad {\n  jvmUser = 1.2%\n}\n')).toEqual([])
  })
})

describe('descriptionShare', () => {
  const parse = ['com.fasterxml.jackson.core.json.UTF8StreamJsonParser.nextFieldName', 'com.fasterxml.jackson.databind.ObjectMapper._readMapAndClose']
  const described = [...parse, 'com.fasterxml.jackson.databind.ObjectMapper.readValue', `${SQLITE}.SQLiteDBAccessJob.getTableSchemaInfo2`, `${SQLITE}.SQLiteDBAccess$17.doWork`]
  const tableInfo = [...parse, 'software.amazon.dynamodb.services.local.shared.mapper.DynamoDbObjectMapper.readValue', `${SQLITE}.SQLiteDBAccess$25.doWork`]
  // A JSON read of the request itself, and SQLite work that reads no JSON.
  const request = [...parse, 'com.fasterxml.jackson.databind.ObjectMapper.readValue', 'software.amazon.dynamodb.services.local.server.LocalDynamoDBServerHandler.handle', `${SQLITE}.SQLiteDBAccess$17.doWork`]
  const sqlite = ['com.almworks.sqlite4java.SQLiteStatement.step', `${SQLITE}.SQLiteDBAccess$17.doWork`]

  it('counts the samples where the SQLite layer has Jackson read JSON', () => {
    expect(descriptionShare([described, tableInfo, request, sqlite])).toBe(0.5)
    expect(descriptionShare([described])).toBe(1)
    expect(descriptionShare([request, sqlite])).toBe(0)
  })

  it('is 0 without samples', () => {
    expect(descriptionShare([])).toBe(0)
  })
})
