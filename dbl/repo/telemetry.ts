/**
 * Query telemetry and tracing. The runner is chosen once, when the repo is defined: with `log`
 * off the path to the driver is the driver call plus one check for a registered OpenTelemetry
 * SDK. No clock is read unless someone listens.
 *
 * A query span follows its request's sampling decision: under a span that records nothing (a
 * request `vela/telemetry` did not sample) the query makes no span at all; outside any request
 * (a job, a migration) the SDK's sampler decides; with no SDK registered there are none.
 */
import type { Attributes, Tracer, TracerProvider } from '@opentelemetry/api'
import { ProxyTracerProvider, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api'
import type { Connection, QueryResult } from '../adapters/adapter.ts'
import { queryErrorReason, sqlState, type QueryErrorReason } from './query-error.ts'
import { queryName, recordedQuery } from './query-recorder.ts'

export type { QueryErrorReason } from './query-error.ts'

/**
 * The event a `log` function receives for every query: exactly these keys (`source` and `reason`
 * are present, possibly `undefined`, so every event has the same shape).
 */
export interface QueryEvent {
  readonly query: string
  readonly params: readonly unknown[]
  readonly result: 'ok' | 'error'
  readonly numRows: number
  readonly durationUs: number
  /** The repo's `name` (`defineRepo({ name })`); the span's `vela.repo`. */
  readonly repo: string
  /** The table the query is built from (`products`); `undefined` for raw SQL (`repo.query`). The span's `db.collection.name`. */
  readonly source: string | undefined
  /** Why the query failed (`{ type: '23505', message }`); `undefined` when `result` is `'ok'`. */
  readonly reason: QueryErrorReason | undefined
}

/** `true`: one `console.info` line per query; a function: receives each event; `false`/absent: nothing. */
export type LogOption = boolean | ((event: QueryEvent) => void)

/**
 * Runs one statement. `op` (`SELECT`) and `source` (the table, `products`) name the span (`SELECT
 * products`); raw SQL has neither and its span is `db.query`. Two constants rather than one label,
 * so nothing is concatenated unless a span or the dashboard asks for the name.
 */
export type Runner = (
  conn: Connection,
  sql: string,
  params: unknown[],
  op?: string,
  source?: string,
) => Promise<QueryResult>

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
function query(
  repo: string,
  conn: Connection,
  sql: string,
  params: unknown[],
  op: string | undefined,
  source: string | undefined,
): Promise<QueryResult> {
  const tracer = queryTracer()
  return tracer ? traced(tracer, repo, conn, sql, params, op, source) : conn.query(sql, params)
}

/**
 * The span's attributes: `db.system`, `db.statement` (the SQL), `vela.repo` (the repo's name), and
 * for a query built from a schema `db.operation.name` (`SELECT`) and `db.collection.name` (the
 * table). On success `db.response.returned_rows`; on failure `error.type` (the SQLSTATE, else the
 * error's code or name, as the event's `reason.type`), `db.response.status_code` (the SQLSTATE,
 * when the server raised it), an `exception` event and an ERROR status with the message.
 */
function traced(
  tracer: Tracer,
  repo: string,
  conn: Connection,
  sql: string,
  params: unknown[],
  op: string | undefined,
  source: string | undefined,
): Promise<QueryResult> {
  // Two literals rather than keys added later: each keeps one fixed shape.
  const attributes: Attributes =
    source === undefined
      ? { 'db.system': 'postgresql', 'db.statement': sql, 'vela.repo': repo }
      : {
          'db.system': 'postgresql',
          'db.statement': sql,
          'vela.repo': repo,
          'db.operation.name': op,
          'db.collection.name': source,
        }
  // startActiveSpan is not needed: a query has no children, and the parent comes from the active context.
  const span = tracer.startSpan(queryName(op, source), { kind: SpanKind.CLIENT, attributes })
  // `then` rather than `async`/`await`: one promise instead of three (see adapters/pg.ts).
  return conn.query(sql, params).then(
    (res) => {
      span.setAttribute('db.response.returned_rows', res.rowCount)
      span.end()
      return res
    },
    (error: unknown) => {
      span.setAttribute('error.type', queryErrorReason(error).type)
      const code = sqlState(error)
      if (code !== undefined) span.setAttribute('db.response.status_code', code)
      span.recordException(error as Error)
      span.setStatus({ code: SpanStatusCode.ERROR, message: (error as Error).message })
      span.end()
      throw error
    },
  )
}

function logLine(e: QueryEvent): void {
  console.info(
    `[${e.repo}] ${e.reason ? `ERROR ${e.reason.type}` : 'OK'} ${e.durationUs}µs ${e.numRows} row(s): ${e.query} ${JSON.stringify(e.params)}`,
  )
}

/** The runner of the repo named `repo`: with `log` off, no clock is read and no event is made. */
export function createRunner(repo: string, log: LogOption | undefined): Runner {
  const emit = log === true ? logLine : typeof log === 'function' ? log : undefined
  if (!emit) {
    return (conn, sql, params, op, source) =>
      recordedQuery(sql, params, op, source, () => query(repo, conn, sql, params, op, source))
  }
  return async (conn, sql, params, op, source) => {
    const start = performance.now()
    let result: 'ok' | 'error' = 'error'
    let numRows = 0
    let reason: QueryErrorReason | undefined
    try {
      const res = await recordedQuery(sql, params, op, source, () => query(repo, conn, sql, params, op, source))
      result = 'ok'
      numRows = res.rowCount
      return res
    } catch (error) {
      reason = queryErrorReason(error)
      throw error
    } finally {
      const durationUs = Math.round((performance.now() - start) * 1000)
      // A failing log handler must not turn a successful query into a failure.
      try {
        emit({ query: sql, params, result, numRows, durationUs, repo, source, reason })
      } catch {}
    }
  }
}
