/**
 * `npm run bench [-- suite …]`: runs the benchmark suites one after another, each in its own
 * process so one suite's servers and heap never disturb the next. Suites: runtime (Vela vs bare h3,
 * Fastify and node:http), web (views and static files), dbl (repository vs bare pg / PGlite),
 * telemetry (the cost of tracing, Vela against Fastify with OpenTelemetry's HTTP instrumentation),
 * path (one request's cost in-process, no sockets: the steady figure to compare versions with),
 * newapp (a new user's waits: install, dev start, edit, build, built-server start), cli (the `vela`
 * commands' CPU and memory on the playground, cold, against `node -e ''` and `vite --version`). On request
 * only (`npm run bench -- soak`, or `npm run soak`): soak (the built playground on PostgreSQL
 * under load for SOAK_SECONDS, then a SIGTERM under load); scale (`npm run bench -- scale`: the
 * built playground as 1 process and 2 workers, and as 1 and 3 instances behind nginx, requests/s
 * and CPU µs per request; needs PostgreSQL, Redis and nginx); types (`npm run bench -- types`: tsc's
 * time on an app of 300 routes with and without the typed client's generated types and calls);
 * dashboard (`npm run bench -- dashboard`: the dev server with the development dashboard recording and
 * without it); jobs (`npm run bench -- jobs`: vela/jobs against pg-boss used directly, enqueue and run
 * throughput and enqueue-to-start latency, on PostgreSQL).
 * Knobs: BENCH_ROUNDS, BENCH_SECONDS, BENCH_CONNECTIONS, SOAK_* (see each suite).
 */
import { spawnSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import { fileURLToPath } from 'node:url'

const defaults = ['runtime', 'web', 'dbl', 'telemetry', 'path', 'newapp', 'cli']
const all = [...defaults, 'soak', 'scale', 'types', 'dashboard', 'jobs']
const chosen = process.argv.slice(2).length ? process.argv.slice(2) : defaults
let failed = false
for (const suite of chosen) {
  const file = fileURLToPath(new URL(`./${suite}.ts`, import.meta.url))
  if (!all.includes(suite) || !existsSync(file)) {
    console.error(
      `bench: unknown suite ${JSON.stringify(suite)}; suites: ${all.filter((s) => existsSync(fileURLToPath(new URL(`./${s}.ts`, import.meta.url)))).join(', ')}`,
    )
    failed = true
    continue
  }
  console.log(`\n== ${suite} ==`)
  const r = spawnSync(process.execPath, ['--import', 'tsx', file], { stdio: 'inherit' })
  if (r.status !== 0) failed = true
}
process.exitCode = failed ? 1 : 0
