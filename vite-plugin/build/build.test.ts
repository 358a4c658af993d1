// `vite build` with vela(): the fixture app becomes one ESM file that plain `node` runs.
import { execFile } from 'node:child_process'
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { build } from 'vite'
import { afterAll, expect, it } from 'vitest'
import vela from '../index.ts'
import { startBuilt } from '../test/built-app.ts'

const root = fileURLToPath(new URL('../test/fixtures/basic', import.meta.url))
const out = mkdtempSync(join(tmpdir(), 'vela-build-'))
afterAll(() => {
  rmSync(out, { recursive: true, force: true })
  rmSync(join(root, 'dist'), { recursive: true, force: true })
})

it('builds dist/server/index.mjs, a single file node runs as prod: start hook, discovered routes, port from PORT', async () => {
  await build({
    root,
    configFile: false,
    plugins: [vela()],
    logLevel: 'silent',
    build: { outDir: join(out, 'server'), emptyOutDir: true },
  })
  // No views, no priv/: the bundle is the whole output.
  expect(readdirSync(out, { recursive: true })).toEqual(['server', 'server/index.mjs'])

  // Run from an empty folder: nothing but the bundle and node itself.
  const server = await startBuilt(out)
  expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/)
  // The bound address: every interface (IPv6 `::` where the machine has IPv6, else 0.0.0.0).
  expect(server.output()).toMatch(
    new RegExp(
      `vela: fixture \\(prod\\) listening on http://(\\[::\\]|0\\.0\\.0\\.0):${new URL(server.url).port} \\(all interfaces\\)\n`,
    ),
  )
  const res = await fetch(`${server.url}/hello`)
  expect(res.status).toBe(200)
  expect(await res.json()).toEqual({ message: 'hello' })
  expect(await (await fetch(`${server.url}/identity`)).json()).toEqual({
    controller: 'greetings_controller',
    action: 'identity',
  })

  // SIGTERM: graceful shutdown, exit 0.
  expect(await server.stop()).toBe(0)
  expect(server.output()).toContain('shutdown complete')
})

it('vela release builds the app with its vite.config.ts into <root>/dist/server/index.mjs', async () => {
  const repo = fileURLToPath(new URL('../..', import.meta.url))
  const { stdout } = await promisify(execFile)(process.execPath, ['vite-plugin/bin.mjs', 'release', '--root', root], {
    cwd: repo,
  })
  expect(stdout.trim()).toBe('Built vite-plugin/test/fixtures/basic/dist/server/index.mjs')
  expect(existsSync(join(root, 'dist/server/index.mjs'))).toBe(true)
  // No priv/schemas/: no OpenAPI document is generated.
  expect(existsSync(join(root, 'priv'))).toBe(false)
}, 30_000)
