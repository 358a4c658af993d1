/**
 * The playground, Vela's reference application: a notes app behind a login, a JSON
 * API for users, products and notes, a WebSocket echo, the API explorer, telemetry.
 *
 * Controllers are discovered by vela/vite (src/controllers/*.ts), routes too (src/routes/*.ts). On
 * start: telemetry (Prometheus on METRICS_PORT or 9464, 0 for any free port; OTLP traces only when
 * OTEL_EXPORTER_OTLP_ENDPOINT is set), the database (embedded PGlite, or PostgreSQL with
 * DATABASE_URL) migrated to the latest migration, and in development the demo account. With
 * REDIS_URL the login rate limit is counted in Redis (redis.ts), for several instances. The
 * background jobs of src/jobs/ (a nightly report) start after the start hook, discovered too.
 */
import { defineApp, securityHeaders } from 'vela'
import { migrate } from 'vela/dbl'
import { setupTelemetry, telemetryStreamHandler } from 'vela/telemetry'
import type { Telemetry } from 'vela/telemetry'
// src/migrations compiled in by vela/vite, so a built server (`vela release`) migrates too.
import { migrations } from 'virtual:vela/migrations'
import { ensureDemoAccount } from './auth/login.ts'
import { redis, topicsPubSub } from './redis.ts'
import { repo } from './repo.ts'
import apiRoutes from './routes/api.ts'
import notesRoutes from './routes/notes.ts'
import publicRoutes from './routes/public.ts'
import sessionRoutes from './routes/session.ts'

let telemetry: Telemetry | undefined

const otlpConfigured = () =>
  Boolean(process.env.OTEL_EXPORTER_OTLP_ENDPOINT || process.env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT)

export default defineApp({
  bootstrapApplication: 'playground',
  // A span and the HTTP metrics for every request, each span named after its route.
  // With REDIS_URL, WebSocket rooms reach clients on every instance (src/redis.ts).
  server: { streamHandlers: [telemetryStreamHandler, 'default'], websocket: { pubsub: topicsPubSub } },
  // Browser security headers on every reply, error pages and static files included: no framing,
  // no sniffing, a Content-Security-Policy the pages and the API explorer pass (no inline script
  // or style), HSTS over https.
  onResponse: [securityHeaders()],
  // Listed only for their order (public pages first, then the session and notes pages, the API last) in
  // `vela routes`, the audit and the explorer: discovery would add them anyway, alphabetically.
  routes: {
    'src/routes/public.ts': publicRoutes,
    'src/routes/session.ts': sessionRoutes,
    'src/routes/notes.ts': notesRoutes,
    'src/routes/api.ts': apiRoutes,
  },
  async start({ config }) {
    telemetry = await setupTelemetry({
      serviceName: 'playground',
      prometheus: { port: process.env.METRICS_PORT ? Number(process.env.METRICS_PORT) : 9464 },
      // Without a collector, no exporter at all: nothing sent, retried or logged.
      spanProcessors: otlpConfigured() ? undefined : [],
    })
    // Where to scrape (in a cluster, the primary alone serves it).
    if (telemetry.prometheusUrl) console.log(`playground: metrics on ${telemetry.prometheusUrl}`)
    await repo.start()
    // One line per migration this process applied: instances starting together share the work
    // (the migrator's lock), so each line appears in one instance's log only.
    await migrate(repo, migrations, { log: (line) => console.log(`playground: ${line}`) })
    if (config.environment === 'dev') {
      await ensureDemoAccount()
      console.log('playground: demo account admin / password (development only)')
    }
  },
  async stop() {
    await repo.stop()
    await redis?.quit()
    await telemetry?.shutdown()
    telemetry = undefined
  },
})
