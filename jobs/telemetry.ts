/**
 * Jobs in traces and metrics, through the OpenTelemetry API (no-ops until an SDK is registered;
 * `vela/telemetry` registers one and serves the app's instruments on `/metrics`).
 *
 * - **Trace context.** `enqueue` stores the active context (W3C `traceparent`, through the
 *   registered propagator) in the run's data; the run's span (`job <name>`, kind consumer) is a
 *   child of it, so a request's trace shows the jobs it enqueued, however much later they ran.
 *   A scheduled run starts a trace of its own.
 * - **Metrics** (meter `vela.jobs`; on `/metrics` as `vela_jobs_*`): `vela.jobs.enqueued`,
 *   `vela.jobs.runs` (with `outcome` `completed` / `failed`), `vela.jobs.run.duration` (s), each
 *   with the `job` and `queue` labels, and `vela.jobs.queued` (runs waiting, per queue and state,
 *   read from the database when scraped).
 */
import type { Attributes, Counter, Histogram, ObservableGauge, ObservableResult } from '@opentelemetry/api'
import { context, metrics, propagation, ROOT_CONTEXT, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api'
import type { PgBoss } from 'pg-boss'
import { JOBS_SCHEMA } from './tables.ts'

interface TracedData {
  readonly job: string
  readonly trace?: Record<string, string>
}

export interface JobTelemetry {
  /** `{ trace }` for a run's data when a context is active, else nothing. */
  carrier(): { trace?: Record<string, string> }
  enqueued(job: string, queue: string): void
  /** Runs `fn` as the run `id` of `data.job` from `queue`, in its span, counting and timing it. */
  run<T>(data: TracedData, id: string, queue: string, fn: () => T | Promise<T>): Promise<T>
  close(): void
}

export function jobTelemetry(engine: PgBoss, queues: readonly string[]): JobTelemetry {
  const meter = metrics.getMeter('vela.jobs')
  const tracer = trace.getTracer('vela.jobs')
  const enqueued: Counter = meter.createCounter('vela.jobs.enqueued', { description: 'Jobs enqueued' })
  const runs: Counter = meter.createCounter('vela.jobs.runs', { description: 'Job runs, by outcome' })
  const duration: Histogram = meter.createHistogram('vela.jobs.run.duration', {
    description: 'How long job runs took',
    unit: 's',
  })
  const queued: ObservableGauge = meter.createObservableGauge('vela.jobs.queued', {
    description: 'Runs waiting in the queue (created: ready or scheduled; retry: waiting for a retry)',
  })
  const observe = async (result: ObservableResult) => {
    const { rows } = await engine
      .getDb()
      .executeSql(
        `SELECT name, state::text AS state, count(*)::int AS n FROM ${JOBS_SCHEMA}.job WHERE name = ANY($1) AND state < 'active' GROUP BY name, state`,
        [queues],
      )
    const seen = new Set<string>()
    for (const r of rows as { name: string; state: string; n: number }[]) {
      result.observe(Number(r.n), { queue: r.name, state: r.state })
      seen.add(`${r.name} ${r.state}`)
    }
    // Zero for an empty queue, rather than a series that vanishes.
    for (const q of queues) if (!seen.has(`${q} created`)) result.observe(0, { queue: q, state: 'created' })
  }
  queued.addCallback(observe)
  return {
    carrier() {
      const carrier: Record<string, string> = {}
      propagation.inject(context.active(), carrier)
      return Object.keys(carrier).length ? { trace: carrier } : {}
    },
    enqueued(job, queue) {
      enqueued.add(1, { job, queue })
    },
    async run(data, id, queue, fn) {
      const attrs: Attributes = { job: data.job, queue }
      const parent = data.trace ? propagation.extract(ROOT_CONTEXT, data.trace) : ROOT_CONTEXT
      const span = tracer.startSpan(
        `job ${data.job}`,
        { kind: SpanKind.CONSUMER, attributes: { 'vela.job': data.job, 'vela.job.id': id, 'vela.job.queue': queue } },
        parent,
      )
      const started = performance.now()
      try {
        const value = await context.with(trace.setSpan(parent, span), fn)
        runs.add(1, { ...attrs, outcome: 'completed' })
        return value
      } catch (err) {
        span.recordException(err as Error)
        span.setStatus({ code: SpanStatusCode.ERROR, message: (err as Error)?.message })
        runs.add(1, { ...attrs, outcome: 'failed' })
        throw err
      } finally {
        duration.record((performance.now() - started) / 1000, attrs)
        span.end()
      }
    },
    close() {
      queued.removeCallback(observe)
    },
  }
}
