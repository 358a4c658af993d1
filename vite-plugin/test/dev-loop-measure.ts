/**
 * Measures the dev loop the way a developer meets it: `vela serve` (bin.mjs, a process of its own)
 * on a copy of the playground, from spawn to the first response, then controller edits from the
 * write to the first response showing them. Not a test (timings depend on the machine):
 *
 *   node --import tsx vite-plugin/test/dev-loop-measure.ts [--edits 10] [--database-url postgres://…]
 *
 * Without `--database-url` the playground runs on embedded PGlite (its data in the copy's `.data/`).
 * Prints one line per figure: the cold start (a new database), the warm start (the second run on
 * the same data), and the median, min and max of the edit-to-response times.
 */
import { spawn } from 'node:child_process'
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { createServer } from 'node:net'
import type { AddressInfo } from 'node:net'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'

const { values } = parseArgs({
  options: { edits: { type: 'string', default: '10' }, 'database-url': { type: 'string' } },
})
const REPO = fileURLToPath(new URL('../../', import.meta.url))

const freePort = () =>
  new Promise<number>((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as AddressInfo
      s.close(() => resolve(port))
    })
  })

async function serve(root: string) {
  const port = await freePort()
  const env = { ...process.env, PORT: String(port), DATABASE_URL: values['database-url'] ?? '' }
  const began = performance.now()
  const child = spawn(process.execPath, [join(REPO, 'vite-plugin/bin.mjs'), 'serve', '--root', root], {
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let output = ''
  child.stdout.on('data', (d) => (output += d))
  child.stderr.on('data', (d) => (output += d))
  const url = `http://127.0.0.1:${port}/api/info`
  for (;;) {
    if (child.exitCode !== null) throw new Error(`vela serve exited:\n${output}`)
    const res = await fetch(url).catch(() => undefined)
    if (res?.status === 200) break
    await new Promise((r) => setTimeout(r, 10))
  }
  const startMs = performance.now() - began
  const stop = () => new Promise<void>((resolve) => (child.once('exit', () => resolve()), child.kill('SIGTERM')))
  return { url, startMs, stop, output: () => output }
}

async function main() {
  mkdirSync(join(REPO, '.scratch'), { recursive: true })
  const root = mkdtempSync(join(REPO, '.scratch', 'dev-loop-'))
  cpSync(join(REPO, 'playground'), root, { recursive: true, filter: (src) => !/[/\\](\.data|dist|assets)$/.test(src) })
  const controller = join(root, 'src/controllers/health_controller.ts')
  try {
    const cold = await serve(root)
    console.log(`start to first response, new database: ${cold.startMs.toFixed(0)} ms`)
    await cold.stop()
    const server = await serve(root)
    console.log(`start to first response, existing database: ${server.startMs.toFixed(0)} ms`)
    const times: number[] = []
    const original = readFileSync(controller, 'utf8')
    for (let i = 1; i <= Number(values.edits); i++) {
      const marker = `playground-${i}`
      writeFileSync(controller, original.replace("app: 'playground'", `app: '${marker}'`))
      const began = performance.now()
      for (;;) {
        const body = await (await fetch(server.url)).text()
        if (body.includes(marker)) break
        if (performance.now() - began > 10_000) throw new Error(`edit ${i} not seen after 10 s:\n${server.output()}`)
      }
      times.push(performance.now() - began)
      // Let the watcher and the swap settle before the next edit.
      await new Promise((r) => setTimeout(r, 300))
    }
    await server.stop()
    const sorted = [...times].sort((a, b) => a - b)
    const median = sorted[Math.floor(sorted.length / 2)]!
    console.log(
      `edit to response (${times.length} controller edits): median ${median.toFixed(0)} ms, min ${sorted[0]!.toFixed(0)} ms, max ${sorted.at(-1)!.toFixed(0)} ms`,
    )
  } finally {
    rmSync(root, { recursive: true, force: true })
  }
}

await main()
