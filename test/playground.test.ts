// `npm start` boots the playground: the README's first command must stay true.
import { spawn } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { expect, it } from 'vitest'
import { freePort } from '../bench/load.ts'

const root = fileURLToPath(new URL('..', import.meta.url))

it('npm start boots the playground on PORT and answers GET /heartbeat with 200 and no body', async () => {
  const port = await freePort()
  const child = spawn('npm', ['start', '--silent'], { cwd: root, env: { ...process.env, PORT: String(port) }, stdio: ['ignore', 'pipe', 'pipe'] })
  let output = ''
  child.stdout.on('data', (d) => (output += d))
  child.stderr.on('data', (d) => (output += d))
  try {
    const deadline = Date.now() + 20_000
    while (!output.includes('listening on') && Date.now() < deadline && child.exitCode === null) await new Promise((r) => setTimeout(r, 100))
    expect(output).toContain(`listening on http://127.0.0.1:${port}`)
    const res = await fetch(`http://127.0.0.1:${port}/heartbeat`)
    expect(res.status).toBe(200)
    expect(await res.text()).toBe('')
    const info = await fetch(`http://127.0.0.1:${port}/api/info`)
    expect(await info.json()).toMatchObject({ app: 'playground', controller: 'health_controller', action: 'info' })
  } finally {
    const exited = new Promise((r) => child.once('exit', r))
    child.kill('SIGTERM')
    await exited
  }
}, 30_000)
