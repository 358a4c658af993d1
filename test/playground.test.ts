// `npm start` (README's first command): after building the package it runs the `vela serve` command
// below from the repo root, on embedded PGlite, whose data is kept between starts. (The build
// itself is not repeated here: vitest's global setup did it, and rebuilding dist/ would pull it
// from under the other suites.)
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, expect, it } from 'vitest'
import { api } from './support/form-client.ts'
import { startPlayground } from './support/playground.ts'

const repoRoot = fileURLToPath(new URL('..', import.meta.url))
const dataDir = mkdtempSync(join(tmpdir(), 'vela-playground-kept-'))
afterAll(() => rmSync(dataDir, { recursive: true, force: true }))

it('npm start serves the playground with `vela serve --root playground` from the repo root', () => {
  const { scripts } = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as { scripts: Record<string, string> }
  expect(scripts.start).toBe('npm run build && node vite-plugin/bin.mjs serve --root playground')
})

it('embedded PGlite keeps the data between starts; migrations and the demo account are applied once', async () => {
  const first = await startPlayground({ cwd: repoRoot, root: 'playground', dataDir })
  let product: { id: number }
  try {
    expect(first.output()).toContain('vela: playground (dev) listening on')
    const created = await api(first.base)('/api/products', { body: { name: 'Kept', price: 100 } })
    expect(created.status).toBe(201)
    product = (await created.json()) as { id: number }
  } finally {
    await first.stop()
  }
  const second = await startPlayground({ cwd: repoRoot, root: 'playground', dataDir })
  try {
    const call = api(second.base)
    expect(await (await call(`/api/products/${product.id}`)).json()).toEqual({ id: product.id, name: 'Kept', price: 100, description: null })
    const { users } = (await (await call('/api/users')).json()) as { users: { name: string }[] }
    expect(users.filter((u) => u.name === 'admin')).toHaveLength(1)
  } finally {
    await second.stop()
  }
})
