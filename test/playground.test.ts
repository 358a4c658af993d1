// `npm start` boots the playground on the embedded database: the README's first command must stay true.
import { spawn } from 'node:child_process'
import { rmSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { freePort } from '../bench/load.ts'

const root = fileURLToPath(new URL('..', import.meta.url))
let base = ''
let stop: () => Promise<unknown> = async () => {}

beforeAll(async () => {
  const port = await freePort()
  // A fresh embedded database for this run, so the assertions don't depend on earlier runs.
  const dataDir = fileURLToPath(new URL(`../playground/.data/test-${port}`, import.meta.url))
  // Its own process group: npm does not pass SIGTERM on to the server it started, so the signal
  // goes to the whole group (npm, the shell, the server) instead of leaving the server running.
  const child = spawn('npm', ['start', '--silent'], {
    cwd: root,
    env: { ...process.env, PORT: String(port), DATABASE_URL: '', VELA_PLAYGROUND_DATA: dataDir },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  })
  let output = ''
  child.stdout.on('data', (d) => (output += d))
  child.stderr.on('data', (d) => (output += d))
  const deadline = Date.now() + 45_000
  while (!output.includes('listening on') && Date.now() < deadline && child.exitCode === null) await new Promise((r) => setTimeout(r, 100))
  stop = async () => {
    if (child.exitCode === null) {
      // 'close': every process holding the output pipes (the server included) has exited.
      const closed = new Promise((r) => child.once('close', r))
      process.kill(-child.pid!, 'SIGTERM')
      await closed
    }
    rmSync(dataDir, { recursive: true, force: true })
  }
  expect(output).toContain(`listening on http://127.0.0.1:${port}`)
  base = `http://127.0.0.1:${port}`
}, 60_000)
afterAll(() => stop())

it('GET /heartbeat answers 200 with no body', async () => {
  const res = await fetch(`${base}/heartbeat`)
  expect(res.status).toBe(200)
  expect(await res.text()).toBe('')
})

it('the products API runs on embedded PGlite with the generated migration applied', async () => {
  const created = await fetch(`${base}/api/products`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ name: 'Widget', price: 1999 }) })
  expect(created.status).toBe(201)
  const product = (await created.json()) as { id: number }
  expect(product).toEqual({ id: expect.any(Number), name: 'Widget', price: 1999, description: null })
  expect(await (await fetch(`${base}/api/products/${product.id}`)).json()).toEqual(product)
  const invalid = await fetch(`${base}/api/products`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ price: 'cheap' }) })
  expect(invalid.status).toBe(422)
  expect(await invalid.json()).toEqual({ errors: { name: ["can't be blank"], price: ['is invalid'] } })
  expect((await fetch(`${base}/api/products/999999`)).status).toBe(404)
  expect((await fetch(`${base}/api/products/${product.id}`, { method: 'DELETE' })).status).toBe(204)
  expect((await fetch(`${base}/api/products/${product.id}`)).status).toBe(404)
})
