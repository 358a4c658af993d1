// Ctrl-C on `vite` (the starter's `npm run dev`): the app's stop hook runs before the process
// exits, so an embedded database is closed rather than killed.
import { spawn } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { expect, it } from 'vitest'

const root = fileURLToPath(new URL('../test/fixtures/basic', import.meta.url))
const plugin = fileURLToPath(new URL('../index.ts', import.meta.url))

// Vite's own server with the plugin, as `vite` starts it; prints the app's hooks as it exits.
const script = `
import { createServer } from 'vite'
import vela from ${JSON.stringify(plugin)}
const server = await createServer({
  root: ${JSON.stringify(root)},
  configFile: false,
  logLevel: 'silent',
  plugins: [vela({ dev: { log: () => {} } })],
  server: { port: 0, host: '127.0.0.1' },
})
await server.listen()
process.on('exit', (code) => console.log('hooks ' + globalThis.velaFixtureEvents.join(',') + ' exit ' + code))
console.log('listening ' + server.httpServer.address().port)
`

it('SIGINT closes the dev server: the stop hook runs, the process exits 130', async () => {
  const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
    env: { ...process.env, VITEST: '' },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let stdout = ''
  let stderr = ''
  child.stdout.on('data', (d) => (stdout += d))
  child.stderr.on('data', (d) => (stderr += d))
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve))
  const deadline = Date.now() + 60_000
  while (!/listening \d+/.test(stdout) && child.exitCode === null && Date.now() < deadline)
    await new Promise((r) => setTimeout(r, 50))
  const port = /listening (\d+)/.exec(stdout)?.[1]
  expect(port, stderr).toBeDefined()
  expect((await fetch(`http://127.0.0.1:${port}/identity`)).status).toBe(200)
  child.kill('SIGINT')
  expect(await exited).toBe(130)
  expect(stdout).toContain('hooks start,stop exit 130')
})
