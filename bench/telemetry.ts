/**
 * Telemetry bench: the cost of tracing on GET /api/products/:id, for Vela and for the Fastify
 * baseline, each with telemetry off and on, in one run (interleaved rounds of fresh processes,
 * medians, as in bench/runtime.ts).
 *
 * - Vela on (servers/vela-otel.ts): the runtime bench's app with vela/telemetry's stream handler
 *   and plugin: a span per request, renamed after the controller and action, plus the four HTTP
 *   metrics of spec 6.2 as Prometheus series.
 * - Fastify on (servers/fastify-otel.ts): OpenTelemetry's HTTP instrumentation (a span per
 *   request, the duration histogram on the OTel meter), the usual way to trace a Fastify app.
 * - Off: the runtime bench's servers as they are, without any telemetry module loaded.
 *
 * Both use the same SDK set-up (bench/servers/telemetry-setup.ts): every span sampled, batched,
 * then dropped instead of exported.
 *
 *   BENCH_ROUNDS (default 5), BENCH_SECONDS per route (default 3), BENCH_CONNECTIONS (default 50)
 */
import { fileURLToPath } from 'node:url'
import { hasWrk, measureRounds, median } from './load.ts'

const rounds = Number(process.env.BENCH_ROUNDS ?? 5)
const seconds = Number(process.env.BENCH_SECONDS ?? 3)
const connections = Number(process.env.BENCH_CONNECTIONS ?? 50)
const frameworks = ['vela', 'fastify'] as const
const servers = ['vela', 'vela+otel', 'fastify', 'fastify+otel'] as const
const target = { name: 'GET /api/products/:id', method: 'GET' as const, path: '/api/products/42', expectStatus: 200 }

export async function benchTelemetry(): Promise<void> {
  console.log(`telemetry: ${rounds} rounds × ${seconds}s, ${connections} connections, ${hasWrk ? 'wrk -t1' : 'autocannon'}`)
  const results = await measureRounds({
    servers,
    targets: [target],
    rounds,
    seconds,
    connections,
    fileOf: (server) => fileURLToPath(new URL(`./servers/${server.replace('+', '-')}.ts`, import.meta.url)),
  })
  const rps = (s: (typeof servers)[number]) => median(results.rps[target.name]![s]!)
  const cpu = (s: (typeof servers)[number]) => median(results.cpu[target.name]![s]!)
  console.table(
    frameworks.map((f) => ({
      framework: f,
      'off req/s': Math.round(rps(f)),
      'on req/s': Math.round(rps(`${f}+otel`)),
      'on/off': +(rps(`${f}+otel`) / rps(f)).toFixed(3),
      'CPU µs/req off': +cpu(f).toFixed(2),
      'CPU µs/req on': +cpu(`${f}+otel`).toFixed(2),
      'µs added': +(cpu(`${f}+otel`) - cpu(f)).toFixed(2),
    })),
  )
  console.log(
    `traced Vela / traced Fastify: ${(rps('vela+otel') / rps('fastify+otel')).toFixed(3)} (req/s), ` +
      `${(cpu('fastify+otel') / cpu('vela+otel')).toFixed(3)} (Fastify's CPU per request / Vela's)`,
  )
}

if (import.meta.url === `file://${process.argv[1]}`) await benchTelemetry()
