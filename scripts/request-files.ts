/**
 * Counts the files of a Vela tree that run while one request is served, per path: V8's precise
 * coverage (function call counts) is reset after a warm-up request, one request is made, and
 * every file of the tree with a function called during it is listed (node_modules packages
 * separately). Paths: node (listen → a route, and a 404), web (app.fetch) and upgrade (ws).
 * Usage: node --import tsx scripts/request-files.ts [tree] (default: this repository; give another
 * checkout, e.g. a worktree of an older commit, to compare). COUNT_METRICS=1 adds an observer.
 */
import { Session } from 'node:inspector/promises'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { WebSocket } from 'ws'

const tree = process.argv[2] ?? fileURLToPath(new URL('..', import.meta.url)).replace(/\/$/, '')
const session = new Session()
session.connect()
await session.post('Profiler.enable')
await session.post('Profiler.startPreciseCoverage', { callCount: true, detailed: false })
const m = await import(pathToFileURL(`${tree}/server/index.ts`).href)

async function crossed(run: () => Promise<void>) {
  await run() // warm-up: lazy set-up happens outside the measured request
  await session.post('Profiler.takePreciseCoverage') // resets the counts
  await run()
  const { result } = await session.post('Profiler.takePreciseCoverage')
  const own = new Map<string, number>()
  const pkgs = new Set<string>()
  for (const script of result) {
    const url: string = script.url
    if (!url.startsWith('file://') || url.includes('/scripts/request-files')) continue
    // Anonymous functions too: a closure called on the way is as much a hop as a named function.
    const calls = script.functions.filter((f) => f.ranges[0].count > 0).length
    if (!calls) continue
    const path = new URL(url).pathname
    const nm = path.lastIndexOf('node_modules/')
    if (nm >= 0) {
      const rest = path.slice(nm + 13).split('/')
      const pkg = rest[0]!.startsWith('@') ? `${rest[0]}/${rest[1]}` : rest[0]!
      if (!['undici', 'ws', 'tsx', 'get-tsconfig', 'esbuild'].includes(pkg)) pkgs.add(pkg)
    } else if (path.startsWith(tree)) own.set(path.slice(tree.length + 1), calls)
  }
  return { own, pkgs }
}
function report(name: string, r: { own: Map<string, number>; pkgs: Set<string> }) {
  const calls = [...r.own.values()].reduce((a, b) => a + b, 0)
  console.log(
    `${name}: ${r.own.size} Vela files (${calls} distinct functions called); packages: ${[...r.pkgs].join(', ') || '-'}`,
  )
  console.log(`   ${[...r.own.entries()].map(([f, n]) => `${f}(${n})`).join(' ')}`)
}

const app = m.createApp(
  {
    bootstrapApplication: 'count',
    // COUNT_METRICS=1: with an observer of requests (the metrics stream handler and its callback).
    ...(process.env.COUNT_METRICS
      ? { server: { streamHandlers: [m.metricsStreamHandler, 'default'], options: { metricsCallback: () => {} } } }
      : {}),
    routes: {
      r: {
        prefix: '',
        security: false,
        routes: [
          ['GET /item/:id', () => m.json({ ok: true })],
          [
            '/ws',
            m.defineWebSocket({ open: (peer: { send(data: string): void }) => peer.send('hi') }),
            { protocol: 'ws' },
          ],
        ],
      },
    },
  },
  { env: { ...process.env, PORT: '0' } },
)
const listener = await m.listen(app, { host: '127.0.0.1', port: 0 })
report(
  'node GET /item/:id',
  await crossed(async () => void (await fetch(listener.url + '/item/1').then((r) => r.text()))),
)
report('node 404', await crossed(async () => void (await fetch(listener.url + '/nope').then((r) => r.text()))))
report(
  'web GET /item/:id',
  await crossed(async () => void (await (await app.fetch(new Request('http://x/item/3'))).text())),
)
report('web 404', await crossed(async () => void (await (await app.fetch(new Request('http://x/nope'))).text())))
report(
  'upgrade /ws',
  await crossed(
    () =>
      new Promise<void>((resolve, reject) => {
        const ws = new WebSocket(listener.url.replace('http', 'ws') + '/ws')
        ws.on('message', () => ws.close())
        ws.on('close', () => resolve())
        ws.on('error', reject)
      }),
  ),
)
await listener.close({ timeoutMs: 500 })
process.exit(0)
