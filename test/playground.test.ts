// `npm start` (README's first command): after building the package it runs the `vela serve` command
// below from the repo root, on embedded PGlite, whose data is kept between starts. (The build
// itself is not repeated here: vitest's global setup did it, and rebuilding dist/ would pull it
// from under the other suites.) Production has no default account; development has one.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, expect, it } from 'vitest'
import { FormClient, api } from './support/form-client.ts'
import { startPlayground } from './support/playground.ts'

const repoRoot = fileURLToPath(new URL('..', import.meta.url))
const dataDir = mkdtempSync(join(tmpdir(), 'vela-playground-kept-'))
afterAll(() => rmSync(dataDir, { recursive: true, force: true }))

it('npm start serves the playground with `vela serve --root playground` from the repo root', () => {
  const { scripts } = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as {
    scripts: Record<string, string>
  }
  expect(scripts.start).toBe('npm run build && node vite-plugin/bin.mjs serve --root playground')
})

it('embedded PGlite keeps the data between starts; no demo account in production, one in development', async () => {
  // First as `npm start` runs it (from the repo root), in production.
  const prod = await startPlayground({
    cwd: repoRoot,
    root: 'playground',
    dataDir,
    env: { VELA_ENV: 'prod', VELA_SESSION_SECRET: 'k'.repeat(40) },
  })
  let product: { id: number }
  try {
    expect(prod.output()).toContain('vela: playground (prod) listening on')
    expect(prod.output()).not.toContain('demo account')
    const call = api(prod.base)
    expect(await (await call('/api/users')).json()).toEqual({ users: [] })
    const created = await call('/api/products', { body: { name: 'Kept', price: 100 } })
    expect(created.status).toBe(201)
    product = (await created.json()) as { id: number }
  } finally {
    await prod.stop()
  }
  // Read once the process has exited, so all it printed is in: the replies above (a 201, a list)
  // use the forms of this release, and nothing deprecated was printed.
  expect(prod.output()).not.toMatch(/VELA_DEP_|DeprecationWarning/)
  // Then `vela serve` in the app folder, as an app outside this repo runs it, on the same data.
  const dev = await startPlayground({ dataDir })
  try {
    expect(dev.output()).toContain('vela: playground (dev) listening on')
    expect(dev.output()).toContain('playground: demo account admin / password')
    const call = api(dev.base)
    expect(await (await call(`/api/products/${product.id}`)).json()).toEqual({
      id: product.id,
      name: 'Kept',
      price: 100,
      description: null,
    })
    const { users } = (await (await call('/api/users')).json()) as { users: { name: string }[] }
    expect(users.map((u) => u.name)).toEqual(['admin'])
    expect((await new FormClient(dev.base).login('admin', 'password')).headers.get('location')).toBe('/notes')
  } finally {
    await dev.stop()
  }
  expect(dev.output()).not.toMatch(/VELA_DEP_|DeprecationWarning/)
}, 120_000) // two starts of the playground, each with its own embedded database
