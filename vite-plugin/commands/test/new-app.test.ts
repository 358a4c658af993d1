// The app `vela new` writes, run inside this repo: its `vela` is this package through a
// node_modules/vela link to the repo (vite, vitest and typescript are found in the repo's
// node_modules above .scratch/). The lead's end-to-end test does the same from the packed tarball.
// Vite loads the app's vite.config.ts with `--configLoader runner` here: from source, `vela/vite` is
// TypeScript, which Vite's default loader hands to node.
import { execFile, spawn } from 'node:child_process'
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, symlinkSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { afterAll, beforeAll, expect, it } from 'vitest'
import * as testing from '../../../server/testing/index.ts'
import { startBuilt } from '../../test/built-app.ts'
import { BIN, runCli } from './run-cli.ts'

const REPO = fileURLToPath(new URL('../../../', import.meta.url))
const run = promisify(execFile)
/** What the app's processes must not inherit from this test's vitest (the plugin skips booting the app under vitest). */
const outsideVitest: NodeJS.ProcessEnv = Object.fromEntries(
  Object.keys(process.env).filter((k) => k.startsWith('VITEST') || k === 'NODE_ENV' || k === 'TEST').map((k) => [k, undefined]),
)
const env = { ...process.env, ...outsideVitest, PORT: '', VELA_ENV: '' }

let scratch: string
let app: string
beforeAll(async () => {
  mkdirSync(join(REPO, '.scratch'), { recursive: true })
  scratch = mkdtempSync(join(REPO, '.scratch', 'new-app-'))
  app = join(scratch, 'notes-app')
  const res = await runCli(['new', app])
  expect(res.code, res.stderr).toBe(0)
  mkdirSync(join(app, 'node_modules'))
  symlinkSync(REPO, join(app, 'node_modules/vela'), 'dir')
})
afterAll(() => rmSync(scratch, { recursive: true, force: true }))

it('`vela migrations generate` finds the migration matching the schema: nothing written', async () => {
  const before = readdirSync(join(app, 'src/migrations'))
  expect(await runCli(['migrations', 'generate', '--root', app], outsideVitest)).toEqual({ code: 0, stdout: 'Migrations already match the schemas: nothing generated\n', stderr: '' })
  expect(readdirSync(join(app, 'src/migrations'))).toEqual(before)
})

it('`vela routes` loads the app and lists its routes', async () => {
  const res = await runCli(['routes', '--json', '--root', app], outsideVitest)
  expect(res.stderr).toBe('')
  const { hosts } = JSON.parse(res.stdout) as { hosts: { routes: { methods: string[] | string; path: string; controller: string; action: string }[] }[] }
  expect(hosts[0]!.routes.map((r) => `${[r.methods].flat().join(',')} ${r.path} ${r.controller}.${r.action}`)).toEqual([
    'GET / routes/notes.anonymous',
    'GET /notes notes_controller.index',
    'POST /notes notes_controller.createFromForm',
    'GET /heartbeat routes/notes.anonymous',
    'all /docs/[...] static.serve',
    'GET /api/notes notes_controller.list',
    'POST /api/notes notes_controller.create',
  ])
})

it('`npm run dev` (vite): heartbeat, API, form, and the page escaping what users wrote', async () => {
  const dev = await start(process.execPath, [join(REPO, 'node_modules/vite/bin/vite.js'), '--configLoader', 'runner', '--port', '0'], /Local:\s+(http\S+?)\/?\s/)
  try {
    const url = (path: string) => `${dev.url}${path}`
    expect((await fetch(url('/heartbeat'))).status).toBe(200)
    const home = await fetch(url('/'), { redirect: 'manual' })
    expect([home.status, home.headers.get('location')]).toEqual([302, '/notes'])

    const created = await postJson(url('/api/notes'), { title: '<script>alert(1)</script>', body: 'from the API' })
    expect(created.status).toBe(201)
    const note = (await created.json()) as { id: number }
    const { notes } = (await (await fetch(url('/api/notes'))).json()) as { notes: { id: number; title: string }[] }
    expect(notes).toContainEqual(expect.objectContaining({ id: note.id, title: '<script>alert(1)</script>' }))

    const untitled = await postJson(url('/api/notes'), { body: 'no title' })
    expect([untitled.status, await untitled.json()]).toEqual([422, { errors: { title: ["can't be blank"] } }])

    const form = await fetch(url('/notes'), { method: 'POST', body: new URLSearchParams({ title: 'From the form', body: '' }), redirect: 'manual' })
    expect([form.status, form.headers.get('location')]).toEqual([303, '/notes'])
    const refused = await fetch(url('/notes'), { method: 'POST', body: new URLSearchParams({ title: '' }) })
    expect(refused.status).toBe(422)
    expect(await refused.text()).toContain('Title can&#39;t be blank')

    const page = await fetch(url('/notes'))
    expect(page.status).toBe(200)
    const html = await page.text()
    expect(html).toContain('<strong>From the form</strong>')
    expect(html).toContain('<strong>&lt;script&gt;alert(1)&lt;/script&gt;</strong>')
    expect(html).not.toContain('<script>alert(1)')
  } finally {
    await dev.stop()
  }
}, 60_000)

it('`vela release`: the built server, run from a folder holding only dist/server, answers /heartbeat and the API', async () => {
  await run(process.execPath, [BIN, 'release', '--root', app], { env, timeout: 120_000 })
  const server = await startBuilt(join(app, 'dist/server'), outsideVitest)
  try {
    expect((await fetch(`${server.url}/heartbeat`)).status).toBe(200)
    expect((await postJson(`${server.url}/api/notes`, { title: 'built' })).status).toBe(201)
    const { notes } = (await (await fetch(`${server.url}/api/notes`)).json()) as { notes: { title: string }[] }
    expect(notes.map((n) => n.title)).toEqual(['built'])
  } finally {
    expect(await server.stop()).toBe(0)
  }
}, 150_000)

// Remove the conditions once vela/testing's createTestApp and the vela/client types are merged.
it.runIf('createTestApp' in testing)('`npm test` (vitest run) passes as generated', async () => {
  const res = await run(process.execPath, [join(REPO, 'node_modules/vitest/vitest.mjs'), 'run', '--configLoader', 'runner'], { cwd: app, env, timeout: 120_000 })
  expect(res.stdout).toMatch(/Tests\s+4 passed \(4\)/)
}, 150_000)

const exportsClient = Boolean((JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8')) as { exports: Record<string, unknown> }).exports['./client'])
it.runIf(exportsClient && 'createTestApp' in testing)('`npm run typecheck` (tsc --noEmit) passes as generated', async () => {
  await run(process.execPath, [join(REPO, 'node_modules/typescript/bin/tsc'), '--noEmit', '-p', app], { cwd: app, env, timeout: 120_000 })
}, 150_000)

const postJson = (url: string, body: unknown) => fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })

/** Runs a server process in the app folder until its output matches `ready` (group 1: its URL). */
async function start(command: string, args: string[], ready: RegExp) {
  const child = spawn(command, args, { cwd: app, env, stdio: ['ignore', 'pipe', 'pipe'] })
  let output = ''
  const exited = new Promise<number | null>((r) => child.once('exit', r))
  const url = await new Promise<string | undefined>((resolve) => {
    const timer = setTimeout(() => resolve(undefined), 45_000)
    const read = (d: Buffer) => {
      output += d
      const m = ready.exec(output)
      if (m) (clearTimeout(timer), resolve(m[1]))
    }
    child.stdout.on('data', read)
    child.stderr.on('data', read)
    void exited.then(() => (clearTimeout(timer), resolve(undefined)))
  })
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM')
    return exited
  }
  if (!url) {
    await stop()
    throw new Error(`the server did not start:\n${output}`)
  }
  return { url, output: () => output, stop }
}
