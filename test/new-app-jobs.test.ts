/**
 * vela/jobs as a new user gets it, from the packed package: a job under src/jobs enqueued by a
 * route inside `repo.transaction` (and one that throws after the enqueue: rolled back, no run),
 * `vela migrations generate` writing the engine's tables' migration, `tsc --noEmit`, the app's own
 * vitest running the job with `drainJobs()`, `vite build`, then the BUILT server from a copy of
 * dist/ alone: on a fresh PostgreSQL database (after `vela migrate`) and on PGlite it runs the job,
 * `/metrics` carries the job series, and a web process (`VELA_JOBS=off`) enqueues what a worker
 * process (`VELA_JOBS=work`, no HTTP) runs.
 */
import type { ChildProcess } from 'node:child_process'
import { spawn } from 'node:child_process'
import { mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { userEnv } from '../vite-plugin/test/user-process.ts'
import type { Started } from './support/new-app.ts'
import { copyDist, npx, startAndProbe } from './support/new-app.ts'
import { newApp } from './support/new-app-cache.ts'
import { freshPostgresDatabase, serviceAvailable } from './support/services.ts'
import { until } from './support/until.ts'

const hasPostgres = await serviceAvailable('postgres')
const cleanup: Array<() => unknown> = []
afterAll(async () => {
  for (const fn of cleanup.reverse()) await fn()
})

const FILES: Record<string, string> = {
  'src/jobs/mark_note.ts': `import { defineJob } from 'vela/jobs'
import { repo } from '../repo.ts'

/** Marks a note as seen by a job. */
export default defineJob({
  retries: 1,
  async handler(args: { id: number }) {
    const res = await repo.query("UPDATE notes SET body = 'marked by a job' WHERE id = $1", [args.id])
    if (!res.ok) throw res.error
  },
})
`,
  'src/controllers/marked_controller.ts': `import { json, status } from 'vela'
import type { VelaRequest } from 'vela'
import { cast, errorsToJson, isChangeset } from 'vela/dbl'
import markNote from '../jobs/mark_note.ts'
import { repo } from '../repo.ts'
import { Note } from '../schemas/note.ts'

/** POST /api/marked \`{ title, fail? }\`: the note and its job in one transaction; \`fail\` throws after the enqueue. */
export async function create(req: VelaRequest) {
  const params = req.params as { title?: string; fail?: boolean }
  const res = await repo.transaction(async () => {
    const note = await repo.insert(cast(Note, null, { title: params.title }, ['title']).validateRequired(['title']))
    if (!note.ok) return note
    await markNote.enqueue({ id: note.value.id })
    if (params.fail) throw new Error('thrown after the enqueue')
    return note
  })
  if (res.ok) return json(res.value, { status: 201 })
  if (isChangeset(res.error)) return status(422, { errors: errorsToJson(res.error) })
  return status(409, { error: String(res.error) })
}
`,
  'src/routes/marked.ts': `import { defineRoutes, requestPlugin } from 'vela'
import * as marked from '../controllers/marked_controller.ts'

export default defineRoutes({
  prefix: '/api',
  security: false,
  plugins: [requestPlugin({ json: true })],
  routes: [['POST /marked', marked.create]],
})
`,
  'src/app.ts': `import { defineApp, securityHeaders } from 'vela'
import { migrate } from 'vela/dbl'
import { setupTelemetry } from 'vela/telemetry'
import type { Telemetry } from 'vela/telemetry'
import { migrations } from 'virtual:vela/migrations'
import { repo } from './repo.ts'

let telemetry: Telemetry | undefined
export default defineApp({
  bootstrapApplication: 'notes_app',
  onResponse: [securityHeaders()],
  jobs: { pollInterval: 500 },
  async start() {
    if (process.env.METRICS === '1') {
      telemetry = await setupTelemetry({ serviceName: 'notes-app', prometheus: { port: 0, host: '127.0.0.1' } })
      console.log(\`metrics at \${telemetry.prometheusUrl}\`)
    }
    await repo.start()
    await migrate(repo, migrations)
  },
  async stop() {
    await repo.stop()
    await telemetry?.shutdown()
  },
})
`,
  'test/marked.test.ts': `import { createTestApp, drainJobs, enqueuedJobs } from 'vela/testing'
import { afterAll, expect, it } from 'vitest'

const t = await createTestApp()
afterAll(() => t.close())

const bodies = async () => {
  const { notes } = (await (await t.inject('/api/notes')).json()) as { notes: { title: string; body: string | null }[] }
  return Object.fromEntries(notes.map((n) => [n.title, n.body]))
}

it('a request enqueues the job in its transaction; drainJobs runs it', async () => {
  const res = await t.inject({ method: 'POST', url: '/api/marked', body: { title: 'first' } })
  expect(res.status).toBe(201)
  const { id } = (await res.json()) as { id: number }
  expect((await enqueuedJobs('mark_note')).map((r) => r.args)).toEqual([{ id }])
  expect(await bodies()).toEqual({ first: null })
  expect(await drainJobs()).toEqual({ completed: 1, failed: 0 })
  expect(await bodies()).toEqual({ first: 'marked by a job' })
})

it('a throw after the enqueue rolls back the note and its job', async () => {
  const res = await t.inject({ method: 'POST', url: '/api/marked', body: { title: 'second', fail: true } })
  expect(res.status).toBe(500)
  expect(await enqueuedJobs()).toEqual([])
  expect(await bodies()).toEqual({ first: 'marked by a job' })
})
`,
}

interface Note {
  id: number
  title: string
  body: string | null
}

const notes = async (url: string) => ((await (await fetch(`${url}/api/notes`)).json()) as { notes: Note[] }).notes
const post = (url: string, body: unknown) =>
  fetch(`${url}/api/marked`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  })
/** POSTs a note that enqueues the marking job; expects a 201 and gives the note's id. */
async function created(url: string, title: string): Promise<number> {
  const res = await post(url, { title })
  expect(res.status).toBe(201)
  return ((await res.json()) as Note).id
}
/** Waits until the job has marked note `id` (read through the server at `url`). */
const marked = (what: string, url: string, id: number) =>
  until(what, async () => (await notes(url)).some((n) => n.id === id && n.body === 'marked by a job'), 60_000)
const metricsUrl = (out: string) => /metrics at (\S+)/.exec(out)?.[1]
const metrics = async (server: Started) => {
  await until('the metrics line', () => metricsUrl(server.output()) !== undefined)
  return (await fetch(metricsUrl(server.output())!)).text()
}

/** Lines of a server's output that say something went wrong, but the 500 the `fail` request asks for. */
const unexpected = (out: string) =>
  out.split('\n').filter((l) => /error|warn/i.test(l) && !l.includes('Error: thrown after the enqueue'))

/** A built process that serves no HTTP (`VELA_JOBS=work`): its output, and a stop by SIGTERM resolving its exit code. */
function spawnWorker(cwd: string, env: NodeJS.ProcessEnv) {
  let out = ''
  const proc: ChildProcess = spawn(process.execPath, ['server/index.mjs'], { cwd, env: userEnv(env) })
  proc.stdout!.on('data', (d) => (out += d))
  proc.stderr!.on('data', (d) => (out += d))
  const exited = new Promise<number | null>((resolve) => proc.once('exit', (code) => resolve(code)))
  const stop = async () => {
    if (proc.exitCode === null && proc.signalCode === null) proc.kill('SIGTERM')
    return exited
  }
  cleanup.push(stop)
  return { output: () => out, exited, stop }
}

let app: string
let dist: string

describe('background jobs in a new app from the packed package', { timeout: 600_000 }, () => {
  beforeAll(async () => {
    const made = await newApp('vela-newapp-jobs-')
    cleanup.push(() => made.remove())
    app = made.app
    for (const [file, text] of Object.entries(FILES)) {
      mkdirSync(join(app, file, '..'), { recursive: true })
      writeFileSync(join(app, file), text)
    }
    const generated = await npx(app, 'vela', ['migrations', 'generate'])
    expect(generated).toMatch(/src\/migrations\/m\d{14}_create_jobs\.ts/)
    expect(readdirSync(join(app, 'src/migrations')).filter((f) => f.endsWith('_create_jobs.ts'))).toHaveLength(1)
  }, 900_000)

  test('the app type-checks (tsc --noEmit)', async () => {
    await npx(app, 'tsc', ['--noEmit'])
  })

  test("the app's own vitest sees the enqueued run and runs it with drainJobs()", async () => {
    const out = await npx(app, 'vitest', ['run'])
    expect(out).toMatch(/marked\.test\.ts \(2 tests\)/)
    expect(out).toMatch(/Tests\s+9 passed \(9\)/)
  })

  describe('vite build, then the built server from a copy of dist/ alone', () => {
    beforeAll(async () => {
      await npx(app, 'vite', ['build'])
      dist = copyDist(app)
      cleanup.push(() => rmSync(dist, { recursive: true, force: true }))
    }, 600_000)

    test('on PGlite: the job runs in the server process; a rollback leaves no run', async () => {
      const data = join(dist, '.data')
      rmSync(data, { recursive: true, force: true })
      const { value: server } = await startAndProbe(dist, process.execPath, ['server/index.mjs'], {}, '/heartbeat')
      cleanup.push(() => server.stop())
      try {
        await marked('the job marked the note', server.url, await created(server.url, 'embedded'))
        expect((await post(server.url, { title: 'rolled back', fail: true })).status).toBe(500)
        expect((await notes(server.url)).map((n) => n.title)).toEqual(['embedded'])
      } finally {
        await server.stop()
      }
      expect(unexpected(server.output())).toEqual([])
    })

    test('VELA_JOBS other than work or off: one line naming it, exit 1', async () => {
      const worker = spawnWorker(dist, { VELA_JOBS: 'yes' })
      expect(await worker.exited).toBe(1)
      expect(worker.output().trim()).toBe(
        'vela: VELA_JOBS must be "work" (run jobs, serve no HTTP), "off" (serve, run no jobs) or unset, not "yes"',
      )
    })

    describe.skipIf(!hasPostgres)('on a fresh PostgreSQL database', () => {
      let env: NodeJS.ProcessEnv = {}
      let client: pg.Client
      let made: Promise<void> | undefined
      /** The database both tests share, made by the first (one hook of this kind per file, for biome). */
      const database = () =>
        (made ??= (async () => {
          const db = await freshPostgresDatabase('vela_newapp_jobs')
          cleanup.push(() => db.drop())
          env = { DATABASE_URL: db.url, METRICS: '1' }
          client = new pg.Client({ connectionString: db.url })
          await client.connect()
          cleanup.push(() => client.end())
        })())
      const runs = async () =>
        (
          await client.query<{ state: string; data: { job: string; args: unknown } }>(
            'SELECT state::text AS state, data FROM vela_jobs.job ORDER BY created_on',
          )
        ).rows

      test('`vela migrate` installs the tables; the built server runs the job and /metrics counts it', async () => {
        await database()
        const migrated = await npx(app, 'vela', ['migrate'], { DATABASE_URL: env.DATABASE_URL })
        expect(migrated).toMatch(/migrated \d{14} create_jobs/)
        expect(await runs()).toEqual([])
        const { value: server } = await startAndProbe(dist, process.execPath, ['server/index.mjs'], env, '/heartbeat')
        cleanup.push(() => server.stop())
        try {
          const id = await created(server.url, 'on postgres')
          await marked('the job marked the note', server.url, id)
          expect((await post(server.url, { title: 'rolled back', fail: true })).status).toBe(500)
          expect(await runs()).toEqual([
            { state: 'completed', data: expect.objectContaining({ job: 'mark_note', args: { id } }) },
          ])
          const text = await metrics(server)
          // The counter counts runs whose enqueue committed: not the one rolled back.
          expect(text).toMatch(/^vela_jobs_enqueued_total\{[^}]*job="mark_note"[^}]*\} 1$/m)
          expect(text).toMatch(/^vela_jobs_runs_total\{[^}]*outcome="completed"[^}]*\} 1$/m)
          expect(text).toMatch(/^vela_jobs_run_duration_seconds_count\{[^}]*job="mark_note"[^}]*\} 1$/m)
          expect(text).toMatch(/^vela_jobs_queued\{[^}]*queue="default"[^}]*\} 0$/m)
        } finally {
          await server.stop()
        }
      })

      test('a web process (VELA_JOBS=off) enqueues; a worker process (VELA_JOBS=work) runs it, serving no HTTP', async () => {
        await database()
        const { value: web } = await startAndProbe(
          dist,
          process.execPath,
          ['server/index.mjs'],
          { ...env, VELA_JOBS: 'off' },
          '/heartbeat',
        )
        cleanup.push(() => web.stop())
        const id = await created(web.url, 'for the worker')
        const worker = spawnWorker(dist, { ...env, VELA_JOBS: 'work', PORT: '0' })
        await marked('the worker marked the note', web.url, id)
        // The jobs start at the end of the start hook, before the process says so.
        await until('the worker says it runs its jobs', () => worker.output().includes('running its jobs'))
        expect(worker.output()).toContain(
          'vela: notes_app (prod) running its jobs (VELA_JOBS=work, no HTTP); SIGTERM stops',
        )
        expect(worker.output()).not.toMatch(/listening on/)
        // Each process counts what it did: the web one enqueued, the worker ran.
        const webMetrics = await metrics(web)
        expect(webMetrics).toMatch(/^vela_jobs_enqueued_total\{[^}]*job="mark_note"[^}]*\} 1$/m)
        expect(webMetrics).not.toMatch(/^vela_jobs_runs_total/m)
        await until('the metrics line', () => metricsUrl(worker.output()) !== undefined)
        const workerMetrics = await (await fetch(metricsUrl(worker.output())!)).text()
        expect(workerMetrics).toMatch(/^vela_jobs_runs_total\{[^}]*job="mark_note"[^}]*outcome="completed"[^}]*\} 1$/m)
        expect(await worker.stop()).toBe(0)
        await web.stop()
        expect(unexpected(`${web.output()}${worker.output()}`)).toEqual([])
      })
    })
  })
})
