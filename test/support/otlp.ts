/**
 * A collector stand-in for tests: an HTTP server on an ephemeral port recording every OTLP export
 * (http/protobuf or http/json, told apart by content type), and the decoding of those bodies:
 * protobuf with protobufjs against the OTLP message definitions (the subset the assertions read:
 * opentelemetry-proto's collector/trace/v1, collector/metrics/v1, trace/v1, metrics/v1,
 * common/v1); JSON into the same shape (ids from hex, integers from strings).
 */
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import protobuf from 'protobufjs'

const { root } = protobuf.parse(`
  syntax = "proto3";
  message ExportTraceServiceRequest { repeated ResourceSpans resource_spans = 1; }
  message ResourceSpans { Resource resource = 1; repeated ScopeSpans scope_spans = 2; }
  message ScopeSpans { InstrumentationScope scope = 1; repeated Span spans = 2; }
  message Span {
    bytes trace_id = 1; bytes span_id = 2; bytes parent_span_id = 4; string name = 5; int32 kind = 6;
    fixed64 start_time_unix_nano = 7; fixed64 end_time_unix_nano = 8; repeated KeyValue attributes = 9; Status status = 15;
  }
  message Status { string message = 2; int32 code = 3; }
  message ExportMetricsServiceRequest { repeated ResourceMetrics resource_metrics = 1; }
  message ResourceMetrics { Resource resource = 1; repeated ScopeMetrics scope_metrics = 2; }
  message ScopeMetrics { InstrumentationScope scope = 1; repeated Metric metrics = 2; }
  message Metric { string name = 1; string description = 2; string unit = 3; }
  message Resource { repeated KeyValue attributes = 1; }
  message InstrumentationScope { string name = 1; string version = 2; }
  message KeyValue { string key = 1; AnyValue value = 2; }
  message AnyValue { oneof value { string string_value = 1; bool bool_value = 2; int64 int_value = 3; double double_value = 4; } }
`)

export interface KeyValue {
  key: string
  value: { stringValue?: string; intValue?: number; boolValue?: boolean }
}
export interface DecodedSpan {
  traceId: Uint8Array
  spanId: Uint8Array
  parentSpanId?: Uint8Array
  name: string
  kind: number
  attributes: KeyValue[]
  status?: { code?: number }
}
export interface DecodedTraces {
  resourceSpans: {
    resource: { attributes: KeyValue[] }
    scopeSpans: { scope: { name: string }; spans: DecodedSpan[] }[]
  }[]
}
export interface DecodedMetrics {
  resourceMetrics: { scopeMetrics: { scope: { name: string }; metrics: { name: string; unit?: string }[] }[] }[]
}

export function decode<T>(type: 'ExportTraceServiceRequest' | 'ExportMetricsServiceRequest', body: Buffer): T {
  const t = root.lookupType(type)
  return t.toObject(t.decode(body), { longs: Number }) as T
}

/** An OTLP/JSON trace export in the shape `decode` gives: ids as bytes, integer values as numbers. */
export function decodeJsonTraces(body: Buffer): DecodedTraces {
  const bytes = (id: unknown) => (typeof id === 'string' && id ? Buffer.from(id, 'hex') : undefined)
  const values = (list: KeyValue[] = []) =>
    list.map((kv) => ({
      key: kv.key,
      value: kv.value.intValue !== undefined ? { intValue: Number(kv.value.intValue) } : kv.value,
    }))
  const parsed = JSON.parse(body.toString('utf8')) as DecodedTraces
  for (const rs of parsed.resourceSpans) {
    rs.resource.attributes = values(rs.resource.attributes)
    for (const ss of rs.scopeSpans) {
      ss.spans = ss.spans.map((span) => ({
        ...span,
        traceId: bytes(span.traceId)!,
        spanId: bytes(span.spanId)!,
        parentSpanId: bytes(span.parentSpanId),
        attributes: values(span.attributes),
      }))
    }
  }
  return parsed
}

/** A span's attributes as a plain object. */
export const attrs = (list: KeyValue[] = []) =>
  Object.fromEntries(list.map((kv) => [kv.key, kv.value.stringValue ?? kv.value.intValue ?? kv.value.boolValue]))
export const hex = (b: Uint8Array | undefined) => Buffer.from(b ?? []).toString('hex')

export const SPAN_KIND_SERVER = 2
export const SPAN_KIND_CLIENT = 3

export interface Received {
  path: string
  contentType: string | undefined
  body: Buffer
}

export interface Collector {
  /** `http://127.0.0.1:<port>`: the OTLP endpoint (exports go to `/v1/traces`, `/v1/metrics`). */
  readonly endpoint: string
  /** Every export so far, in arrival order. */
  readonly received: Received[]
  /** Every span of every trace export so far. */
  spans(): DecodedSpan[]
  close(): Promise<void>
}

/** Starts the stand-in; it answers each export with an empty (successful) response. */
export async function startCollector(): Promise<Collector> {
  const received: Received[] = []
  const server = createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => {
      received.push({ path: req.url ?? '', contentType: req.headers['content-type'], body: Buffer.concat(chunks) })
      res.writeHead(200, { 'content-type': 'application/x-protobuf' }).end()
    })
  })
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
  return {
    endpoint: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    received,
    spans: () =>
      received
        .filter((r) => r.path === '/v1/traces')
        .map((r) =>
          r.contentType?.startsWith('application/json')
            ? decodeJsonTraces(r.body)
            : decode<DecodedTraces>('ExportTraceServiceRequest', r.body),
        )
        .flatMap((d) => d.resourceSpans.flatMap((rs) => rs.scopeSpans.flatMap((s) => s.spans))),
    close: () => new Promise<void>((r) => server.close(() => r())),
  }
}
