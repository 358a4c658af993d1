/**
 * Telemetry bench: the cost of vela/telemetry on GET /api/products/:id — the runtime bench's Vela
 * app (bench/servers/vela.ts) with the telemetry stream handler, plugin and SDK (spans built and
 * batched, metrics recorded) and without. Interleaved rounds of fresh processes, medians, as in bench/runtime.ts.
 *
 *   BENCH_ROUNDS (default 5), BENCH_SECONDS per route (default 3), BENCH_CONNECTIONS (default 50)
 */
import { fileURLToPath } from 'node:url'
import { hasWrk, measureRounds, median } from './load.ts'

const rounds = Number(process.env.BENCH_ROUNDS ?? 5)
const seconds = Number(process.env.BENCH_SECONDS ?? 3)
const connections = Number(process.env.BENCH_CONNECTIONS ?? 50)
const servers = ['without', 'with'] as const
const target = { name: 'GET /api/products/:id', method: 'GET' as const, path: '/api/products/42', expectStatus: 200 }

export async function benchTelemetry(): Promise<void> {
  console.log(`telemetry: ${rounds} rounds × ${seconds}s, ${connections} connections, ${hasWrk ? 'wrk -t1' : 'autocannon'}`)
  const results = await measureRounds({
    servers,
    targets: [target],
    rounds,
    seconds,
    connections,
    fileOf: () => fileURLToPath(new URL('./servers/vela.ts', import.meta.url)),
    envOf: (server) => ({ BENCH_TELEMETRY: server === 'with' ? 'on' : 'off' }),
  })
  const rps = Object.fromEntries(servers.map((s) => [s, median(results.rps[target.name]![s]!)]))
  const cpu = Object.fromEntries(servers.map((s) => [s, median(results.cpu[target.name]![s]!)]))
  console.table([
    {
      route: target.name,
      'without req/s': Math.round(rps.without!),
      'with req/s': Math.round(rps.with!),
      'with/without': +(rps.with! / rps.without!).toFixed(3),
      'CPU µs/req without': +cpu.without!.toFixed(2),
      'CPU µs/req with': +cpu.with!.toFixed(2),
    },
  ])
}

if (import.meta.url === `file://${process.argv[1]}`) await benchTelemetry()
