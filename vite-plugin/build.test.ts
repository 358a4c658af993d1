// `vite build` with vela(): the fixture app becomes one ESM file that plain `node` runs.
import { execFile, spawn } from 'node:child_process'
import type { ChildProcess } from 'node:child_process'
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { build } from 'vite'
import { afterAll, expect, it } from 'vitest'
import vela from './index.ts'

const root = fileURLToPath(new URL('./test/fixtures/basic', import.meta.url))
const out = mkdtempSync(join(tmpdir(), 'vela-build-'))
let child: ChildProcess | undefined
afterAll(() => {
  if (child?.exitCode === null) child.kill('SIGKILL')
  rmSync(out, { recursive: true, force: true })
  rmSync(join(root, 'dist'), { recursive: true, force: true })
})

it('builds dist/server/index.mjs, a single file node runs: start hook, discovered routes, port from PORT', async () => {
  await build({ root, configFile: false, plugins: [vela()], logLevel: 'silent', build: { outDir: out, emptyOutDir: true } })
  expect(readdirSync(out)).toEqual(['index.mjs'])

  // Run from an empty folder: nothing but the bundle and node itself.
  const cwd = mkdtempSync(join(tmpdir(), 'vela-run-'))
  child = spawn(process.execPath, [join(out, 'index.mjs')], { cwd, env: { ...process.env, PORT: '0' }, stdio: ['ignore', 'pipe', 'pipe'] })
  let output = ''
  child.stdout!.on('data', (d) => (output += d))
  child.stderr!.on('data', (d) => (output += d))
  const deadline = Date.now() + 10_000
  while (!/listening on (\S+)/.test(output) && Date.now() < deadline && child.exitCode === null) await new Promise((r) => setTimeout(r, 50))
  const url = /listening on (\S+)/.exec(output)?.[1]
  expect(url, output).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/)

  const res = await fetch(`${url}/hello`)
  expect(res.status).toBe(200)
  expect(await res.json()).toEqual({ message: 'hello' })
  expect(await (await fetch(`${url}/identity`)).json()).toEqual({ controller: 'greetings_controller', action: 'identity' })

  // SIGTERM: graceful shutdown, exit 0.
  const exited = new Promise<number | null>((r) => child!.once('exit', r))
  child.kill('SIGTERM')
  expect(await exited).toBe(0)
  expect(output).toContain('shutdown complete')
  rmSync(cwd, { recursive: true, force: true })
})

it('vela release builds the app with its vite.config.ts into <root>/dist/server/index.mjs', async () => {
  const repo = fileURLToPath(new URL('..', import.meta.url))
  const { stdout } = await promisify(execFile)(process.execPath, ['vite-plugin/bin.mjs', 'release', '--root', root], { cwd: repo })
  expect(stdout.trim()).toBe('Built vite-plugin/test/fixtures/basic/dist/server/index.mjs')
  expect(existsSync(join(root, 'dist/server/index.mjs'))).toBe(true)
  // No priv/schemas/: no OpenAPI document is generated.
  expect(existsSync(join(root, 'priv'))).toBe(false)
}, 30_000)
