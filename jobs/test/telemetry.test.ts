// Jobs in traces and on /metrics: a request that enqueues a job, the job run by a worker of the
// same process, on embedded PGlite. The run's span is a child of the request's span (the trace
// context travels in the run's data); the jobs' counters, histogram and queue gauge are scraped
// from the app's Prometheus endpoint.
import { InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { migrate } from '../../dbl/migrations/migrator.ts'
import { defineRepo } from '../../dbl/repo.ts'
import { createApp } from '../../server/app/create-app.ts'
import { json } from '../../server/replies.ts'
import { inject } from '../../server/testing/inject.ts'
import type { Telemetry } from '../../telemetry/setup.ts'
import { setupTelemetry } from '../../telemetry/setup.ts'
import { telemetryStreamHandler } from '../../telemetry/stream-handler.ts'
import { until } from '../../test/support/until.ts'
import type { Job } from '../define.ts'
import { defineJob } from '../define.ts'
import type { JobsRuntime } from '../runtime.ts'
import { startJobs } from '../runtime.ts'
import { jobTables } from '../tables.ts'

const exporter = new InMemorySpanExporter()
let telemetry: Telemetry
const repo = defineRepo({ url: 'memory:' })
let runtime: JobsRuntime
const ping = defineJob({
  handler: async (args: { fail?: boolean }) => {
    if (args.fail) throw new Error('asked to fail')
  },
  retries: 0,
})

beforeAll(async () => {
  telemetry = await setupTelemetry({
    spanProcessors: [new SimpleSpanProcessor({ exporter })],
    prometheus: { port: 0, host: '127.0.0.1' },
  })
  await repo.start()
  await migrate(repo, [{ version: 1, name: 'create_jobs', up: jobTables.up, down: jobTables.down }])
  runtime = await startJobs({ repo, jobs: { ping: ping as Job<never> }, work: true, config: { pollInterval: 500 } })
})
afterAll(async () => {
  await runtime.stop()
  await repo.stop()
  await telemetry.shutdown()
})

const app = createApp({
  bootstrapApplication: 'jobs_telemetry',
  server: { streamHandlers: [telemetryStreamHandler, 'default'] },
  routes: {
    api: {
      prefix: '',
      security: false,
      routes: [['POST /ping', async () => json(await ping.enqueue({}), { status: 202 })]],
    },
  },
})

it("a run's span is a child of the request that enqueued it", async () => {
  const res = await inject(app, { method: 'POST', url: '/ping' })
  expect(res.status).toBe(202)
  const { id } = (await res.json()) as { id: string }
  await until('the run completed', async () => (await runtime.list())[0]?.state === 'completed')
  await until('its span ended', () => exporter.getFinishedSpans().some((s) => s.name === 'job ping'))
  const spans = exporter.getFinishedSpans()
  const request = spans.find((s) => s.name.startsWith('POST'))!
  const run = spans.find((s) => s.name === 'job ping')!
  expect(run.spanContext().traceId).toBe(request.spanContext().traceId)
  expect(run.parentSpanContext?.spanId).toBe(request.spanContext().spanId)
  expect(run.attributes).toMatchObject({ 'vela.job': 'ping', 'vela.job.id': id, 'vela.job.queue': 'default' })
})

it('counts enqueued, completed and failed runs, their durations and the queue on /metrics', async () => {
  await ping.enqueue({ fail: true })
  await ping.enqueue({}, { runAt: 3_600_000 })
  await until('the failing run failed', async () => (await runtime.list({ states: ['failed'] })).length === 1)
  const text = await (await fetch(telemetry.prometheusUrl!)).text()
  const value = (series: string) => Number(new RegExp(`^${series} (\\S+)$`, 'm').exec(text)?.[1])
  expect(value('vela_jobs_enqueued_total\\{job="ping",queue="default"\\}')).toBe(3)
  expect(value('vela_jobs_runs_total\\{job="ping",queue="default",outcome="completed"\\}')).toBe(1)
  expect(value('vela_jobs_runs_total\\{job="ping",queue="default",outcome="failed"\\}')).toBe(1)
  expect(value('vela_jobs_run_duration_seconds_count\\{job="ping",queue="default"\\}')).toBe(2)
  // The run waiting an hour.
  expect(value('vela_jobs_queued\\{queue="default",state="created"\\}')).toBe(1)
})
