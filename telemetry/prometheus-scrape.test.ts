// `/metrics` read by Prometheus's own tools (Debian's `prometheus` package): `promtool check
// metrics` lints the Prometheus text format, and a real Prometheus, with exemplar storage on,
// scrapes the endpoint (it asks for OpenMetrics) and answers a sampled request's trace id from its
// exemplar API. `promtool check metrics` reads only the Prometheus text format (it has no
// OpenMetrics parser), so Prometheus's scraper is what checks the OpenMetrics text.
// Without the tools the cases are skipped with a message; under CI=true they fail instead.
import { spawn } from 'node:child_process'
import type { ChildProcess } from 'node:child_process'
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { freePort } from '../bench/load.ts'
import { createApp } from '../server/app/create-app.ts'
import { json } from '../server/replies.ts'
import type { TestServer } from '../server/testing/index.ts'
import { startTestServer } from '../server/testing/index.ts'
import { strictLog } from '../test/support/logs.ts'
import { until } from '../test/support/until.ts'
import type { Telemetry } from './setup.ts'
import { setupTelemetry } from './setup.ts'
import { telemetryStreamHandler } from './stream-handler.ts'
import { finishedSpans } from './test-support.ts'

const missing = ['/usr/bin/promtool', '/usr/bin/prometheus'].filter((path) => !existsSync(path))
const skip = missing.length > 0 && process.env.CI !== 'true'
const why = `${missing.join(' and ')} not installed (apt-get install -y prometheus)`
if (skip) console.warn(`prometheus-scrape.test.ts: skipped: ${why}`)
const needsTools = () => {
  if (missing.length > 0) throw new Error(why)
}

const logs = strictLog()
const app = createApp(
  {
    bootstrapApplication: 'scraped',
    server: { port: 8123, streamHandlers: [telemetryStreamHandler, 'default'] },
    routes: {
      r: {
        prefix: '',
        security: false,
        routes: [['GET /items/:id', (req) => json({ id: req.bindings.id })]],
      },
    },
  },
  { env: {}, log: logs.log },
)

const exporter = new InMemorySpanExporter()
let telemetry: Telemetry
let server: TestServer
let traceId: string
beforeAll(async () => {
  telemetry = await setupTelemetry({
    spanProcessors: [new SimpleSpanProcessor({ exporter })],
    prometheus: { port: 0, host: '127.0.0.1' },
  })
  server = await startTestServer(app)
  await (await server.request('/items/1')).text()
  traceId = (await finishedSpans(exporter, 1))[0]!.spanContext().traceId
})
afterAll(async () => {
  await server?.close({ timeoutMs: 1000 })
  await telemetry?.shutdown()
})

/** Runs `command` with `input` on stdin: its exit code and what it printed. */
function run(command: string, args: string[], input: string): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: ['pipe', 'pipe', 'pipe'] })
    let output = ''
    child.stdout.on('data', (d: Buffer) => (output += d))
    child.stderr.on('data', (d: Buffer) => (output += d))
    child.on('error', reject)
    child.on('close', (code) => resolve({ code, output }))
    child.stdin.end(input)
  })
}

it.skipIf(skip)('promtool check metrics accepts the Prometheus text format', async () => {
  needsTools()
  const res = await fetch(telemetry.prometheusUrl!)
  expect(res.headers.get('content-type')).toBe('text/plain; version=0.0.4; charset=utf-8')
  const text = await res.text()
  expect(text).toContain('http_route="/items/:id"')
  expect(await run('/usr/bin/promtool', ['check', 'metrics'], text)).toEqual({ code: 0, output: '' })
})

it.skipIf(skip)(
  'Prometheus with exemplar storage scrapes the OpenMetrics text and finds the sampled request’s trace',
  { timeout: 60_000 },
  async () => {
    needsTools()
    const dir = mkdtempSync(join(tmpdir(), 'vela-prometheus-'))
    const target = new URL(telemetry.prometheusUrl!).host
    writeFileSync(
      join(dir, 'prometheus.yml'),
      `scrape_configs:\n  - job_name: vela\n    scrape_interval: 1s\n    static_configs:\n      - targets: ['${target}']\n`,
    )
    const port = await freePort()
    let log = ''
    const prometheus: ChildProcess = spawn('/usr/bin/prometheus', [
      `--config.file=${join(dir, 'prometheus.yml')}`,
      `--storage.tsdb.path=${join(dir, 'data')}`,
      `--web.listen-address=127.0.0.1:${port}`,
      '--enable-feature=exemplar-storage',
    ])
    prometheus.stderr!.on('data', (d: Buffer) => (log += d))
    const api = async (path: string) => {
      const res = await fetch(`http://127.0.0.1:${port}/api/v1/${path}`).catch(() => undefined)
      return res?.ok ? ((await res.json()) as { data: unknown }).data : undefined
    }
    try {
      // The scrape succeeded: the target is up, with our series in the database.
      const count = `query?query=${encodeURIComponent('http_server_request_duration_seconds_count{http_route="/items/:id"}')}`
      await until(
        `Prometheus scraped ${target}\n${log}`,
        async () => ((await api(count)) as { result?: unknown[] } | undefined)?.result?.length === 1,
        30_000,
      )
      const targets = (await api('targets')) as { activeTargets: { health: string; lastError: string }[] }
      expect(targets.activeTargets.map((t) => [t.health, t.lastError])).toEqual([['up', '']])
      // The exemplar: our trace id, on a bucket of the route's series.
      const now = Math.ceil(Date.now() / 1000) + 60
      const query = `query_exemplars?query=${encodeURIComponent('http_server_request_duration_seconds_bucket')}&start=${now - 3600}&end=${now}`
      type Found = {
        seriesLabels: Record<string, string>
        exemplars: { labels: Record<string, string>; value: string }[]
      }[]
      let found: Found = []
      await until(
        `the exemplar in Prometheus\n${log}`,
        async () => (found = ((await api(query)) as Found | undefined) ?? []).length > 0,
        30_000,
      )
      expect(found).toHaveLength(1)
      expect(found[0]!.seriesLabels).toMatchObject({
        __name__: 'http_server_request_duration_seconds_bucket',
        http_route: '/items/:id',
        job: 'vela',
      })
      expect(found[0]!.exemplars.map((e) => e.labels.trace_id)).toEqual([traceId])
    } finally {
      prometheus.kill()
      await new Promise((resolve) =>
        prometheus.exitCode === null ? prometheus.once('exit', resolve) : resolve(undefined),
      )
      rmSync(dir, { recursive: true, force: true })
    }
  },
)
