/**
 * Web bench: a rendered view (layout + partial + a 20-item loop, escaped) and a static file (7 KB
 * CSS), Vela against bare h3 — for the view, h3 calling liquidjs directly; for the file, h3's own
 * `serveStatic` over node:fs. Rounds are interleaved (each server once per round, each a fresh
 * process) and medians compared, as in bench/runtime.ts.
 *
 *   BENCH_ROUNDS (default 5), BENCH_SECONDS per route (default 3), BENCH_CONNECTIONS (default 50)
 */
import { fileURLToPath } from 'node:url'
import type { LoadTarget } from './load.ts'
import { hasWrk, measureRounds, median, startServer } from './load.ts'

const webEnv = { BENCH_WEB_DIR: fileURLToPath(new URL('./web-servers', import.meta.url)) }
const rounds = Number(process.env.BENCH_ROUNDS ?? 5)
const seconds = Number(process.env.BENCH_SECONDS ?? 3)
const connections = Number(process.env.BENCH_CONNECTIONS ?? 50)

const servers = ['h3', 'vela'] as const
const targets: LoadTarget[] = [
  { name: 'GET /notes (view)', method: 'GET', path: '/notes', expectStatus: 200 },
  { name: 'GET /assets/app.css (static)', method: 'GET', path: '/assets/app.css', expectStatus: 200 },
]

/** Both servers must send the same bytes, or the comparison measures different work. */
async function sameBodies(ports: Record<string, number>) {
  for (const t of targets) {
    const bodies = await Promise.all(
      servers.map(async (s) => (await fetch(`http://127.0.0.1:${ports[s]}${t.path}`)).text()),
    )
    if (bodies[0] !== bodies[1])
      throw new Error(`${t.name}: h3 and vela bodies differ (${bodies[0]!.length} vs ${bodies[1]!.length} chars)`)
  }
}

export async function benchWeb(): Promise<void> {
  console.log(
    `web: ${rounds} rounds × ${seconds}s per route, ${connections} connections, ${hasWrk ? 'wrk -t1' : 'autocannon'}`,
  )
  const fileOf = (server: string) => fileURLToPath(new URL(`./web-servers/${server}.ts`, import.meta.url))
  const procs = await Promise.all(servers.map((s) => startServer(fileOf(s), webEnv)))
  try {
    await sameBodies(Object.fromEntries(servers.map((s, i) => [s, procs[i]!.port])))
  } finally {
    await Promise.all(procs.map((p) => p.stop()))
  }
  const results = await measureRounds({ servers, targets, rounds, seconds, connections, fileOf, envOf: () => webEnv })
  console.table(
    targets.map((t) => {
      const m = Object.fromEntries(servers.map((s) => [s, median(results.rps[t.name]![s]!)]))
      return {
        route: t.name,
        'h3 req/s': Math.round(m.h3!),
        'vela req/s': Math.round(m.vela!),
        'vela/h3': +(m.vela! / m.h3!).toFixed(3),
      }
    }),
  )
}

if (import.meta.url === `file://${process.argv[1]}`) await benchWeb()
