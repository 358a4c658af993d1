/**
 * vela/telemetry as a new user gets it: the packed package installed into a new app with no other
 * package (its OpenTelemetry SDK comes with it), the app's start hook calling `setupTelemetry()`,
 * `vite build`, and the built server exporting its request spans to a local OTLP receiver over
 * http/protobuf and http/json, configured by the standard variables alone. Also: an app that does
 * not import vela/telemetry bundles none of the SDK, and `vela({ instrumentation: true })` leaves
 * OpenTelemetry and the drivers to `node_modules`.
 */
import { readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { copyDist, npx, startAndProbe } from './support/new-app.ts'
import { newApp } from './support/new-app-cache.ts'
import type { Collector } from './support/otlp.ts'
import { attrs, startCollector } from './support/otlp.ts'
import { until } from './support/until.ts'

const cleanup: Array<() => unknown> = []
afterAll(async () => {
  for (const fn of cleanup.reverse()) await fn()
})

let app: string
let collector: Collector
let plainBundle: string

const APP_WITH_TELEMETRY = `import { defineApp, securityHeaders } from 'vela'
import { migrate } from 'vela/dbl'
import { setupTelemetry, telemetryStreamHandler } from 'vela/telemetry'
import type { Telemetry } from 'vela/telemetry'
import { migrations } from 'virtual:vela/migrations'
import { repo } from './repo.ts'

let telemetry: Telemetry | undefined
export default defineApp({
  bootstrapApplication: 'notes_app',
  server: { streamHandlers: [telemetryStreamHandler, 'default'] },
  onResponse: [securityHeaders()],
  async start() {
    telemetry = await setupTelemetry({ serviceName: 'notes-app' })
    await repo.start()
    await migrate(repo, migrations)
  },
  async stop() {
    await repo.stop()
    await telemetry?.shutdown()
  },
})
`

describe('vela/telemetry in a new app from the packed package', { timeout: 600_000 }, () => {
  beforeAll(async () => {
    const made = await newApp('vela-newapp-otel-')
    cleanup.push(() => made.remove())
    app = made.app
    // The starter as generated: its server bundle (built once for both new-app suites), to compare.
    plainBundle = readFileSync(join(made.plainDist, 'server/index.mjs'), 'utf8')
    writeFileSync(join(app, 'src/app.ts'), APP_WITH_TELEMETRY)
    collector = await startCollector()
    cleanup.push(() => collector.close())
  }, 900_000)

  test('npm install of the tarball alone brings the SDK; the app type-checks', async () => {
    const pkg = JSON.parse(readFileSync(join(app, 'package.json'), 'utf8'))
    expect(Object.keys(pkg.dependencies ?? {}).filter((n) => n.startsWith('@opentelemetry/'))).toEqual([])
    expect(
      JSON.parse(readFileSync(join(app, 'node_modules/@opentelemetry/sdk-node/package.json'), 'utf8')).version,
    ).toMatch(/^0\./)
    await npx(app, 'tsc', ['--noEmit'])
  })

  test('an app that does not import vela/telemetry bundles none of the SDK', () => {
    expect(plainBundle).not.toMatch(/NodeSDK|BatchSpanProcessor|OTLPTraceExporter/)
  })

  describe('vite build, then the built server from a copy of dist/ alone', () => {
    let dist: string
    beforeAll(async () => {
      await npx(app, 'vite', ['build'])
      dist = copyDist(app)
      cleanup.push(() => rmSync(dist, { recursive: true, force: true }))
    }, 600_000)

    for (const protocol of ['http/protobuf', 'http/json']) {
      test(`spans reach an OTLP receiver over ${protocol}`, async () => {
        collector.received.length = 0
        const env = {
          OTEL_EXPORTER_OTLP_ENDPOINT: collector.endpoint,
          OTEL_EXPORTER_OTLP_PROTOCOL: protocol,
          OTEL_BSP_SCHEDULE_DELAY: '50',
        }
        const { value: server } = await startAndProbe(dist, process.execPath, ['server/index.mjs'], env, '/heartbeat')
        try {
          expect((await fetch(`${server.url}/api/notes`)).status).toBe(200)
          await until(
            'a span of GET /api/notes at the receiver',
            () => collector.spans().some((s) => attrs(s.attributes)['url.path'] === '/api/notes'),
            30_000,
          )
        } finally {
          await server.stop()
        }
        const contentType = collector.received.find((r) => r.path === '/v1/traces')?.contentType
        expect(contentType).toMatch(protocol === 'http/json' ? /^application\/json/ : /^application\/x-protobuf/)
        const span = collector.spans().find((s) => attrs(s.attributes)['url.path'] === '/api/notes')!
        expect(attrs(span.attributes)).toMatchObject({ 'http.request.method': 'GET', 'http.response.status_code': 200 })
        expect(server.output()).not.toMatch(/Error|warn/i)
      })
    }
  })

  test('vela({ instrumentation: true }): OpenTelemetry and pg stay external, the server runs from the app folder', async () => {
    const config = join(app, 'vite.config.ts')
    writeFileSync(config, readFileSync(config, 'utf8').replace('vela()', 'vela({ instrumentation: true })'))
    await npx(app, 'vite', ['build'])
    const bundle = readFileSync(join(app, 'dist/server/index.mjs'), 'utf8')
    expect(bundle).toMatch(/from "@opentelemetry\/sdk-node"/)
    expect(bundle).toMatch(/from "pg"/)
    expect(bundle).not.toMatch(/class NodeSDK/)
    collector.received.length = 0
    const env = {
      OTEL_EXPORTER_OTLP_ENDPOINT: collector.endpoint,
      OTEL_BSP_SCHEDULE_DELAY: '50',
    }
    const { value: server } = await startAndProbe(app, process.execPath, ['dist/server/index.mjs'], env, '/heartbeat')
    try {
      expect((await fetch(`${server.url}/api/notes`)).status).toBe(200)
      await until(
        'a span of GET /api/notes at the receiver',
        () => collector.spans().some((s) => attrs(s.attributes)['url.path'] === '/api/notes'),
        30_000,
      )
    } finally {
      await server.stop()
    }
  })
})
