/**
 * Query telemetry and tracing. The runner is chosen once, when the repo is defined: with `log`
 * off the path to the driver is the driver call plus one check for a registered OpenTelemetry
 * SDK. No clock is read unless someone listens.
 *
 * A query span follows its request's sampling decision: under a span that records nothing (a
 * request `vela/telemetry` did not sample) the query makes no span at all; outside any request
 * (a job, a migration) the SDK's sampler decides; with no SDK registered there are none.
 */
import type { Tracer, TracerProvider } from '@opentelemetry/api'
import { ProxyTracerProvider, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api'
import type { Connection, QueryResult } from '../adapters/adapter.ts'
import { recordedQuery } from './query-recorder.ts'

/** The event a `log` function receives for every query: exactly these keys. */
export interface QueryEvent {
  readonly query: string
  readonly params: readonly unknown[]
  readonly result: 'ok' | 'error'
  readonly numRows: number
  readonly durationUs: number
  readonly repo: string
}

/** `true`: one `console.info` line per query; a function: receives each event; `false`/absent: nothing. */
export type LogOption = boolean | ((event: QueryEvent) => void)

/** `label` names the span (`SELECT products`); raw queries use `db.query`. */
export type Runner = (conn: Connection, sql: string, params: unknown[], label?: string) => Promise<QueryResult>

// What an unset global tracer provider delegates to; anything else means an SDK is registered.
const noopProvider = new ProxyTracerProvider().getDelegate()

// The tracer of the provider registered last: looked up again only when another is registered
// (tests, SDK restarts), not per query.
let tracerOf: { readonly provider: TracerProvider; readonly tracer: Tracer } | undefined

/** The tracer a query's span is made with; undefined when no SDK is registered or under an unsampled request. */
function queryTracer(): Tracer | undefined {
  const global = trace.getTracerProvider()
  const provider = global instanceof ProxyTracerProvider ? global.getDelegate() : global
  if (provider === noopProvider) return undefined
  const active = trace.getActiveSpan()
  if (active !== undefined && !active.isRecording()) return undefined
  if (tracerOf?.provider !== provider) tracerOf = { provider, tracer: provider.getTracer('vela.dbl') }
  return tracerOf.tracer
}

/** Runs the query, inside a span when `queryTracer` gives a tracer. */
function query(conn: Connection, sql: string, params: unknown[], label: string | undefined): Promise<QueryResult> {
  const tracer = queryTracer()
  return tracer ? traced(tracer, conn, sql, params, label) : conn.query(sql, params)
}

function traced(
  tracer: Tracer,
  conn: Connection,
  sql: string,
  params: unknown[],
  label: string | undefined,
): Promise<QueryResult> {
  // startActiveSpan is not needed: a query has no children, and the parent comes from the active context.
  const span = tracer.startSpan(label ?? 'db.query', {
    kind: SpanKind.CLIENT,
    attributes: { 'db.system': 'postgresql', 'db.statement': sql },
  })
  // `then` rather than `async`/`await`: one promise instead of three (see adapters/pg.ts).
  return conn.query(sql, params).then(
    (res) => {
      span.setAttribute('db.response.returned_rows', res.rowCount)
      span.end()
      return res
    },
    (error: unknown) => {
      span.recordException(error as Error)
      span.setStatus({ code: SpanStatusCode.ERROR, message: (error as Error).message })
      span.end()
      throw error
    },
  )
}

function logLine(e: QueryEvent): void {
  console.info(
    `[${e.repo}] ${e.result === 'ok' ? 'OK' : 'ERROR'} ${e.durationUs}µs ${e.numRows} row(s): ${e.query} ${JSON.stringify(e.params)}`,
  )
}

export function createRunner(repo: string, log: LogOption | undefined): Runner {
  const emit = log === true ? logLine : typeof log === 'function' ? log : undefined
  if (!emit) {
    return (conn, sql, params, label) => recordedQuery(sql, params, label, () => query(conn, sql, params, label))
  }
  return async (conn, sql, params, label) => {
    const start = performance.now()
    let result: 'ok' | 'error' = 'error'
    let numRows = 0
    try {
      const res = await recordedQuery(sql, params, label, () => query(conn, sql, params, label))
      result = 'ok'
      numRows = res.rowCount
      return res
    } finally {
      const durationUs = Math.round((performance.now() - start) * 1000)
      // A failing log handler must not turn a successful query into a failure.
      try {
        emit({ query: sql, params, result, numRows, durationUs, repo })
      } catch {}
    }
  }
}
