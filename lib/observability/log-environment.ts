// What Powertools' Logger reads from the environment, as it reads it (json-logger.ts writes the
// lines): variables trimmed, POWERTOOLS_DEV's truth values, the X-Ray trace id of the invocation,
// and timestamps in UTC or in the local time of TZ with its offset.

/** An environment variable as Powertools reads it: trimmed, '' when unset. */
export function env(name: string): string {
  return process.env[name]?.trim() ?? ''
}

/** POWERTOOLS_DEV set to a true value (1, y, yes, t, true, on): indented lines on the global console. */
export function isDevMode(): boolean {
  return ['1', 'y', 'yes', 't', 'true', 'on'].includes(env('POWERTOOLS_DEV').toLowerCase())
}

/** The invocation's X-Ray trace id (its Root): from the Lambda runtime's invoke store, else _X_AMZN_TRACE_ID. */
export function xrayTraceId(): string | undefined {
  const store = (globalThis as { awslambda?: { InvokeStore?: { getXRayTraceId(): string | undefined } } }).awslambda?.InvokeStore
  const trace = store?.getXRayTraceId() ?? env('_X_AMZN_TRACE_ID')
  if (trace === '') return undefined
  if (!trace.includes('=')) return trace
  let root: string | undefined
  for (const field of trace.split(';')) {
    const [key, value] = field.split('=')
    if (key === 'Root') root = value
  }
  return root
}

/** True when timestamps are UTC ISO strings, the only ones the request line's template writes. */
export function utcTimestamps(): boolean {
  const tz = env('TZ')
  return tz === '' || tz.includes('UTC')
}

let zoneWarned = false

/** `date` in the local time of `zone` with its offset, as Powertools writes it (UTC, with a warning once, for an unknown zone). */
function zonedTimestamp(date: Date, zone: string): string {
  let resolved = zone
  try {
    new Intl.DateTimeFormat('en', { timeZone: zone })
  } catch {
    if (!zoneWarned) console.warn(`Invalid or unresolvable time zone: "${zone}" - falling back to UTC.`)
    zoneWarned = true
    resolved = 'UTC'
  }
  const two = '2-digit'
  const format = new Intl.DateTimeFormat('en', { hourCycle: 'h23', year: 'numeric', month: two, day: two, hour: two, minute: two, second: two, timeZone: resolved })
  const part = Object.fromEntries(format.formatToParts(date).map(({ type, value }) => [type, value]))
  const offset = resolved === zone ? -date.getTimezoneOffset() : 0
  const hours = Math.abs(Math.floor(offset / 60)).toString().padStart(2, '0')
  const minutes = Math.abs(offset % 60).toString().padStart(2, '0')
  const milliseconds = date.getMilliseconds().toString().padStart(3, '0')
  return `${part.year}-${part.month}-${part.day}T${part.hour}:${part.minute}:${part.second}.${milliseconds}${offset >= 0 ? '+' : '-'}${hours}:${minutes}`
}

/** A line's timestamp: UTC ISO, or the local time of TZ when it names another zone. */
export function timestampOf(date: Date): string {
  return utcTimestamps() ? date.toISOString() : zonedTimestamp(date, env('TZ'))
}
