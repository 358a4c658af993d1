/**
 * The playground's own cost (`BENCH_TELEMETRY=playground npm run bench -- telemetry`): the
 * playground built as users build it (`vela release`), on PostgreSQL, with telemetry as shipped
 * (the stream handler, the HTTP metrics on `/metrics`, no span exporter without a collector),
 * against bare node:http + `pg` answering the same two routes (bench/telemetry/bare-pg.ts):
 * GET /heartbeat and GET /api/products/:id. Interleaved rounds of fresh processes; CPU µs per
 * request (the server process's, from /proc) and requests/s, medians.
 *
 *   BENCH_ROUNDS (5), BENCH_SECONDS per route (3), BENCH_CONNECTIONS (50)
 *
 * With `BENCH_COUNT=instructions`, each server's instructions per request are counted under
 * callgrind instead (bench/count-sockets.ts; BENCH_WARMUP, BENCH_N): the steady measure on a
 * busy machine, where the timed ratios swing by a fifth. The playground runs without its job
 * worker there (`VELA_JOBS=off`), whose polling would be counted as the requests' work.
 * `BENCH_PLAYGROUND_WITHOUT=telemetry,telemetry+headers` counts copies of the playground without
 * those defaults too (WITHOUT below: telemetry, headers, requestid, cors, json), so each one's
 * cost per request is the difference. `BENCH_SERVERS` counts some of the servers only.
 */
import { execFileSync, spawn } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { cpSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { freshPostgresDatabase, serviceAvailable } from '../../test/support/services.ts'
import { countOverSockets } from '../count-sockets.ts'
import type { LoadTarget, ServerProcess } from '../load.ts'
import { bundleServer, check, cpuMicrosOf, freePort, median, picked, runLoad } from '../load.ts'

const rounds = Number(process.env.BENCH_ROUNDS ?? 5)
const seconds = Number(process.env.BENCH_SECONDS ?? 3)
const connections = Number(process.env.BENCH_CONNECTIONS ?? 50)
const repoRoot = fileURLToPath(new URL('../..', import.meta.url))

/**
 * The defaults of the playground a counted copy can go without, each as edits of its files
 * (`[file, from, to]`, paths under playground/; a missing text throws: the app changed and the
 * edit with it). Names joined by `+` combine (`telemetry+headers`): each default's cost on top of
 * the others is the difference from the copy without the others alone.
 */
const WITHOUT: Record<string, Array<[string, string, string]>> = {
  // The telemetry stream handler (a span and the HTTP metrics per request) and the SDK.
  telemetry: [
    ['src/app.ts', "streamHandlers: [telemetryStreamHandler, 'default']", "streamHandlers: ['default']"],
    ['src/app.ts', 'telemetry = await setupTelemetry({', 'telemetry = undefined as unknown as Telemetry\n    void ({'],
    ['src/app.ts', 'if (telemetry.prometheusUrl)', 'if (telemetry?.prometheusUrl)'],
  ],
  // The browser security headers on every reply.
  headers: [['src/app.ts', 'onResponse: [securityHeaders()],', '']],
  // The request id (generated, sent back in x-request-id).
  requestid: [['src/app.ts', 'server: {', 'server: { requestId: false,']],
  // The API group's CORS plugin.
  cors: [['src/plugins/pipelines.ts', "corsPlugin({ allowOrigins: '*' }), requestPlugin", 'requestPlugin']],
  // The API group's JSON body decoding and the 422 for a write without a body that relies on it.
  json: [['src/plugins/pipelines.ts', 'requestPlugin({ json: true }), bodyRequired()]', ']']],
}

/** The edits of a variant name, `+` combining several. */
function editsOf(variant: string): Array<[string, string, string]> {
  return variant.split('+').flatMap((name) => {
    const edits = WITHOUT[name]
    if (!edits) throw new Error(`BENCH_PLAYGROUND_WITHOUT: no ${name} (${Object.keys(WITHOUT).join(', ')})`)
    return edits
  })
}

/** Copies the playground to `<work>/<name>` with `edits` and releases it. */
function releaseCopy(work: string, name: string, edits: Array<[string, string, string]>): string {
  const app = join(work, name)
  cpSync(join(repoRoot, 'playground'), app, {
    recursive: true,
    filter: (src) => !/[/\\](\.data|dist|node_modules)$/.test(src),
  })
  for (const [path, from, to] of edits) {
    const file = join(app, path)
    const text = readFileSync(file, 'utf8')
    if (!text.includes(from)) throw new Error(`playground bench: ${path} no longer has ${JSON.stringify(from)}`)
    writeFileSync(file, text.replace(from, to))
  }
  execFileSync(process.execPath, [join(repoRoot, 'vite-plugin/bin.mjs'), 'release', '--root', app], { stdio: 'pipe' })
  return app
}

/** Starts `node <file>` in `cwd` and waits until it answers GET /heartbeat. */
async function start(file: string, cwd: string, env: Record<string, string>): Promise<ServerProcess> {
  const port = await freePort()
  const child = spawn(process.execPath, [file], {
    cwd,
    env: { ...process.env, ...env, PORT: String(port) },
    stdio: ['ignore', 'ignore', 'inherit'],
  })
  for (const until = Date.now() + 60_000; ; await new Promise((r) => setTimeout(r, 100))) {
    if (child.exitCode !== null) throw new Error(`${file} exited with ${child.exitCode}`)
    if (Date.now() > until) throw new Error(`${file} did not answer within 60 s`)
    const ok = await fetch(`http://127.0.0.1:${port}/heartbeat`).then(
      (r) => r.ok,
      () => false,
    )
    if (ok) break
  }
  return {
    port,
    cpuMicros: () => cpuMicrosOf(child.pid!),
    stop: () =>
      new Promise((resolve) =>
        child.exitCode !== null ? resolve() : (child.once('exit', () => resolve()), child.kill('SIGKILL')),
      ),
  }
}

export async function benchTelemetryPlayground(): Promise<void> {
  if (!(await serviceAvailable('postgres')))
    throw new Error('the playground bench needs PostgreSQL (VELA_TEST_POSTGRES_URL or 127.0.0.1:5432)')
  execFileSync(process.execPath, [join(repoRoot, 'scripts/build-package.mjs')], { stdio: 'inherit' })
  const work = join(repoRoot, '.scratch', `bench-playground-${randomBytes(4).toString('hex')}`)
  const app = join(work, 'playground')
  mkdirSync(work, { recursive: true })
  cpSync(join(repoRoot, 'playground'), app, {
    recursive: true,
    filter: (src) => !/[/\\](\.data|dist|node_modules)$/.test(src),
  })
  const db = await freshPostgresDatabase('vela_bench_playground')
  try {
    execFileSync(process.execPath, [join(repoRoot, 'vite-plugin/bin.mjs'), 'release', '--root', app], { stdio: 'pipe' })
    const bare = await bundleServer(fileURLToPath(new URL('./bare-pg.ts', import.meta.url)))
    const env = {
      DATABASE_URL: db.url,
      VELA_SESSION_SECRET: randomBytes(32).toString('base64url'),
      NODE_ENV: 'production',
    }
    // A product to read: the first start migrates the database.
    const first = await start('dist/server/index.mjs', app, { ...env, METRICS_PORT: String(await freePort()) })
    const created = await fetch(`http://127.0.0.1:${first.port}/api/products`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Bench', price: 100 }),
    })
    const { id } = (await created.json()) as { id: number }
    await first.stop()
    const targets: LoadTarget[] = [
      { name: 'GET /heartbeat', method: 'GET', path: '/heartbeat', expectStatus: 200 },
      { name: 'GET /api/products/:id', method: 'GET', path: `/api/products/${id}`, expectStatus: 200 },
    ]
    if (process.env.BENCH_COUNT === 'instructions') {
      const metricsPort = String(await freePort())
      const apps: Record<string, string> = { playground: app }
      for (const variant of (process.env.BENCH_PLAYGROUND_WITHOUT ?? '').split(',').filter(Boolean)) {
        apps[`playground without ${variant}`] = releaseCopy(work, `without-${variant}`, editsOf(variant))
      }
      const counts = await countOverSockets({
        // BENCH_SERVERS (a comma list of the names below) counts some of them only.
        servers: picked(['node:http + pg', ...Object.keys(apps)], 'BENCH_SERVERS'),
        targets,
        fileOf: (server) => (apps[server] ? join(apps[server], 'dist/server/index.mjs') : bare),
        cwdOf: (server) => apps[server] ?? repoRoot,
        // No job worker: its polling between two requests would be counted as theirs.
        envOf: (server) => (apps[server] ? { ...env, METRICS_PORT: metricsPort, VELA_JOBS: 'off' } : env),
      })
      console.table(
        targets.flatMap((t) => {
          const base = counts[t.name]!['node:http + pg']
          return Object.entries(counts[t.name]!).map(([server, count]) => ({
            route: t.name,
            server,
            'instructions/req': Math.round(count),
            'node:http + pg': base === undefined ? '' : Math.round(base),
            'bare / server': base === undefined ? '' : +(base / count).toFixed(3),
          }))
        }),
      )
      return
    }
    const servers = {
      playground: async () => start('dist/server/index.mjs', app, { ...env, METRICS_PORT: String(await freePort()) }),
      'node:http + pg': () => start(bare, repoRoot, env),
    }
    const cpu: Record<string, Record<string, number[]>> = {}
    const rps: Record<string, Record<string, number[]>> = {}
    console.log(
      `telemetry, the built playground on PostgreSQL against node:http + pg: ${rounds} rounds × ${seconds}s, ${connections} connections`,
    )
    for (let r = 0; r < rounds; r++) {
      for (const [name, begin] of Object.entries(servers)) {
        const proc = await begin()
        try {
          for (const t of targets) {
            await check(proc.port, t)
            await runLoad(proc.port, t, 2, connections)
            const before = proc.cpuMicros()
            const res = await runLoad(proc.port, t, seconds, connections)
            if (res.errors > 0) throw new Error(`${name} ${t.name}: ${res.errors} responses with an unexpected status`)
            ;((cpu[t.name] ??= {})[name] ??= []).push((proc.cpuMicros() - before) / res.requests)
            ;((rps[t.name] ??= {})[name] ??= []).push(res.rps)
          }
        } finally {
          await proc.stop()
        }
      }
      console.log(`  round ${r + 1}/${rounds} done`)
    }
    console.table(
      targets.map((t) => {
        const c = (s: string) => median(cpu[t.name]![s]!)
        const q = (s: string) => median(rps[t.name]![s]!)
        return {
          route: t.name,
          'playground CPU µs/req': +c('playground').toFixed(1),
          'node:http + pg CPU µs/req': +c('node:http + pg').toFixed(1),
          'CPU ratio': +(c('playground') / c('node:http + pg')).toFixed(2),
          'playground req/s': Math.round(q('playground')),
          'node:http + pg req/s': Math.round(q('node:http + pg')),
          'req/s ratio': +(q('playground') / q('node:http + pg')).toFixed(3),
        }
      }),
    )
  } finally {
    await db.drop()
    rmSync(work, { recursive: true, force: true })
  }
}
