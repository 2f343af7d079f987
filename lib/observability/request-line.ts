// The line of a request answered below 5xx, made as text: the keys, order and values AWS Lambda
// Powertools' Logger prints for `logger.info('request', fields)` with the EMF block of its Metrics
// merged in. Through the Logger and Metrics the request log took about 45 µs a request, measured
// on in-process requests (each call copies, deep-merges and filters every attribute, serializes
// through a replacer, and Metrics rebuilds the same definitions): a tenth of the handler's
// overhead on a 1 ms DynamoDB read. Made here, about 7 µs. The metric definitions are made here
// too (Metrics, for one constant, was 10 KB of every bundle); test/unit/request-line.test.ts holds
// the line, definitions included, against the Logger's and Metrics' own.

/** The Lambda invocation's keys of a line (Powertools' names), from the context the Logger was given. */
export interface LambdaKeys {
  readonly cold_start: boolean
  readonly function_arn?: string
  readonly function_memory_size?: string | number
  readonly function_name?: string
  readonly function_request_id?: string
  readonly tenant_id?: string
}

/** What the request line says of the request, after the standard keys. */
export interface RequestFields {
  readonly request_id?: string
  readonly method: string
  readonly route?: string
  readonly status: number
  readonly durationMs: number
  readonly dynamodb: { readonly calls: number; readonly rcu: number; readonly wcu: number; readonly failures?: readonly string[] }
  readonly error?: Record<string, unknown>
}

/** The EMF definitions of the request metrics: namespace, the `service` dimension, names and units. */
export type MetricDefinitions = readonly unknown[]

/** The request's metrics in EMF: the values are keys of the line, the definitions under `_aws`. */
export interface MetricFields {
  readonly _aws: { readonly Timestamp: number; readonly CloudWatchMetrics: MetricDefinitions }
  readonly Requests: number
  readonly ServerErrors: number
  readonly Latency: number
  readonly ConsumedRCU: number
  readonly ConsumedWCU: number
}

/** The request metrics and their units, as Powertools' MetricUnit names them. */
const METRICS: readonly [keyof MetricFields, 'Count' | 'Milliseconds'][] = [
  ['Requests', 'Count'], ['ServerErrors', 'Count'], ['Latency', 'Milliseconds'],
  ['ConsumedRCU', 'Count'], ['ConsumedWCU', 'Count'],
]

/** The request metrics' EMF definitions, as Powertools' Metrics writes them (made once per log): `service` is their one dimension. */
export function metricDefinitions(namespace: string, serviceName: string): MetricDefinitions {
  return Object.freeze([{ Namespace: namespace, Dimensions: [['service']], Metrics: METRICS.map(([Name, Unit]) => ({ Name, Unit })) }])
}

/** The metrics of one request; `now` is the EMF timestamp (epoch milliseconds). */
export function requestMetrics(definitions: MetricDefinitions, fields: RequestFields, now: number): MetricFields {
  return {
    _aws: { Timestamp: now, CloudWatchMetrics: definitions },
    Requests: 1,
    ServerErrors: fields.status >= 500 ? 1 : 0,
    Latency: fields.durationMs,
    ConsumedRCU: fields.dynamodb.rcu,
    ConsumedWCU: fields.dynamodb.wcu,
  }
}

/** `,"key":value` in JSON, or nothing for undefined, null and '' (Powertools leaves those keys out). */
function pair(key: string, value: string | number | boolean | readonly string[] | undefined | null): string {
  return value === undefined || value === null || value === '' ? '' : `,"${key}":${JSON.stringify(value)}`
}

/** A line maker for one log: what every line repeats is serialized once. */
export type RequestLineMaker = (fields: RequestFields, at: Date, lambda: LambdaKeys | undefined, xrayTraceId: string | undefined) => string

/**
 * Makes the INFO line of a request answered below 5xx (a 5xx line, with its error, is the Logger's): Powertools' standard keys (level, message,
 * timestamp, service, the Lambda context's, sampling_rate, xray_trace_id, tenant_id, in its
 * formatter's order), the request's fields, then its metrics, without a newline.
 */
export function requestLineMaker(serviceName: string, samplingRate: number, definitions: MetricDefinitions): RequestLineMaker {
  const service = `","service":${JSON.stringify(serviceName)}`
  const sampling = pair('sampling_rate', samplingRate)
  const cloudWatchMetrics = `,"CloudWatchMetrics":${JSON.stringify(definitions)}},"Requests":1,"ServerErrors":0`
  return (fields, at, lambda, xrayTraceId) => {
    const { calls, rcu, wcu, failures } = fields.dynamodb
    const context = lambda === undefined ? '' : pair('cold_start', lambda.cold_start) + pair('function_arn', lambda.function_arn) +
      pair('function_memory_size', lambda.function_memory_size) + pair('function_name', lambda.function_name) + pair('function_request_id', lambda.function_request_id)
    return `{"level":"INFO","message":"request","timestamp":"${at.toISOString()}${service}${context}${sampling}` +
      `${pair('xray_trace_id', xrayTraceId)}${pair('tenant_id', lambda?.tenant_id)}` +
      `${pair('request_id', fields.request_id)}${pair('method', fields.method)}${pair('route', fields.route)},"status":${json(fields.status)},"durationMs":${json(fields.durationMs)}` +
      `,"dynamodb":{"calls":${json(calls)},"rcu":${json(rcu)},"wcu":${json(wcu)}${failures === undefined ? '' : `,"failures":${JSON.stringify(failures)}`}}` +
      `,"_aws":{"Timestamp":${json(at.getTime())}${cloudWatchMetrics},"Latency":${json(fields.durationMs)},"ConsumedRCU":${json(rcu)},"ConsumedWCU":${json(wcu)}}`
  }
}

/** A number as JSON writes it (null when not finite). */
function json(value: number): string {
  return Number.isFinite(value) ? String(value) : 'null'
}
