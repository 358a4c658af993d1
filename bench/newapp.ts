/**
 * `npm run bench -- newapp`: what a new user waits for, from the packed package (the same steps as
 * test/new-app.test.ts, test/support/new-app.ts): tarball size and files, installing it into an app
 * made by `vela new`, `vite` start to first response, a controller edit to the response that shows
 * it, `vite build`, the size of `dist/`, and the built server's start to first response on embedded
 * PGlite (fresh and existing data) and on PostgreSQL (when it answers on 127.0.0.1:5432).
 * BENCH_ROUNDS (default 3) repeats the timed steps that can be repeated; medians are printed.
 */
import { execFileSync } from 'node:child_process'
import { readFileSync, rmSync, writeFileSync } from 'node:fs'
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import {
  copyDist,
  folderBytes,
  installTarball,
  npx,
  packVela,
  startAndProbe,
  timed,
  until,
  velaNew,
} from '../test/support/new-app.ts'
import { freshPostgresDatabase, serviceAvailable } from '../test/support/services.ts'

const rounds = Number(process.env.BENCH_ROUNDS) || 3
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!
const rows: Array<[string, string]> = []
const report = (what: string, value: string) => {
  rows.push([what, value])
  console.log(`${what}: ${value}`)
}
const ms = (xs: number[]) => `${median(xs)} ms (${xs.join(', ')})`

execFileSync(process.execPath, [fileURLToPath(new URL('../scripts/build-package.mjs', import.meta.url))], {
  stdio: 'inherit',
})
const packed = await packVela()
report('tarball', `${(packed.bytes / 1024).toFixed(0)} KiB, ${packed.files} files`)

const parent = mkdtempSync(join(tmpdir(), 'vela-bench-newapp-'))
const dirs = [parent, join(packed.tarball, '..')]
try {
  const app = await velaNew(parent, 'bench-app', packed.tarball)
  report(
    'npm install of the tarball into the new app',
    `${(await timed(() => installTarball(app, packed.tarball))).ms} ms`,
  )

  const build: number[] = []
  for (let i = 0; i < rounds; i++) build.push((await timed(() => npx(app, 'vite', ['build']))).ms)
  report('vite build', ms(build))
  report('dist/ size', `${(folderBytes(join(app, 'dist')) / 1024 / 1024).toFixed(1)} MiB`)

  const dist = copyDist(app)
  dirs.push(dist)
  const firstResponse = async (env: NodeJS.ProcessEnv) => {
    const { ms: took, value: server } = await startAndProbe(
      dist,
      process.execPath,
      ['server/index.mjs'],
      env,
      '/api/notes',
    )
    await server.stop()
    return took
  }
  const fresh: number[] = []
  const existing: number[] = []
  for (let i = 0; i < rounds; i++) {
    rmSync(join(dist, '.data'), { recursive: true, force: true })
    fresh.push(await firstResponse({}))
    existing.push(await firstResponse({}))
  }
  report('built server start → first /api/notes, PGlite, new data folder (initdb + migration)', ms(fresh))
  report('built server start → first /api/notes, PGlite, existing data', ms(existing))
  if (await serviceAvailable('postgres')) {
    const pg: number[] = []
    const db = await freshPostgresDatabase('vela_bench_newapp')
    try {
      for (let i = 0; i < rounds; i++) pg.push(await firstResponse({ DATABASE_URL: db.url }))
    } finally {
      await db.drop()
    }
    report('built server start → first /api/notes, PostgreSQL', ms(pg))
  }

  const devStart: number[] = []
  const edit: number[] = []
  const controller = join(app, 'src/controllers/notes_controller.ts')
  const original = readFileSync(controller, 'utf8')
  const list = 'return json({ notes: await allNotes(req.query as Page) })'
  for (let i = 0; i < rounds; i++) {
    const { ms: took, value: dev } = await startAndProbe(app, join(app, 'node_modules/.bin/vite'), [], {}, '/api/notes')
    devStart.push(took)
    try {
      for (let j = 0; j < 3; j++) {
        const mark = `edit-${i}-${j}`
        const start = performance.now()
        writeFileSync(
          controller,
          original.replace(list, `return json({ notes: await allNotes(req.query as Page), mark: '${mark}' })`),
        )
        await until(`${dev.url}/api/notes`, (body) => body.includes(mark))
        edit.push(Math.round(performance.now() - start))
      }
    } finally {
      await dev.stop()
      writeFileSync(controller, original)
    }
  }
  report('vite (dev) start → first /api/notes', ms(devStart))
  report('controller edit → first response showing it (vite dev, PGlite)', ms(edit))
} finally {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true })
}

console.log('\n| step | figure |\n|---|---|')
for (const [what, value] of rows) console.log(`| ${what} | ${value} |`)
