/**
 * One process of the path bench (bench/path.ts): serves `BENCH_ROUTE` through `app.handleNode`
 * over node's own IncomingMessage and ServerResponse, on a socket that discards what is written,
 * one request after another, and prints the ns (and the process's CPU µs) per request of each batch as JSON. Checks the first
 * response's status, so a broken app cannot post a fast number.
 */
import { IncomingMessage, ServerResponse } from 'node:http'
import { Socket } from 'node:net'
import { readSync, writeSync } from 'node:fs'
import type { VelaApp } from '../server/index.ts'
import { TOKEN } from './servers/fixtures.ts'

export const PATH_ROUTES = {
  heartbeat: { method: 'GET', url: '/heartbeat', status: 200, body: undefined },
  'products/:id': { method: 'GET', url: '/api/products/42', status: 200, body: undefined },
  'POST products': {
    method: 'POST',
    url: '/api/products',
    status: 201,
    body: JSON.stringify({ name: 'Widget', price: 1999, description: 'A widget' }),
  },
  'POST products/checked': {
    method: 'POST',
    url: '/api/products/checked',
    status: 201,
    body: JSON.stringify({ name: 'Widget', price: 1999, description: 'A widget' }),
  },
  'POST products/form': {
    method: 'POST',
    url: '/api/products/form',
    status: 201,
    body: 'name=Widget&price=1999&description=A+widget&tag=new&tag=sale&tag=tools',
  },
} as const

export interface PathRoute {
  readonly method: string
  readonly url: string
  readonly status: number
  readonly body: string | undefined
}

/** The route `BENCH_ROUTE` names among `routes`. */
export function benchRoute(routes: Readonly<Record<string, PathRoute>> = PATH_ROUTES): PathRoute {
  const route = routes[process.env.BENCH_ROUTE!]
  if (!route) throw new Error(`BENCH_ROUTE must be one of ${Object.keys(routes).join(', ')}`)
  return route
}

/**
 * A function that serves `route` once through `app.handleNode` and resolves when the response has
 * been sent and closed. Checks the first response's status, so a broken app cannot post a fast number.
 */
export function requester(app: Pick<VelaApp, 'handleNode'>, route: PathRoute): () => Promise<void> {
  const body = route.body === undefined ? undefined : Buffer.from(route.body)
  const headers: Record<string, string> = { host: '127.0.0.1:8080' }
  const type = route.url.endsWith('/form') ? 'application/x-www-form-urlencoded' : 'application/json'
  if (body)
    Object.assign(headers, { 'content-type': type, authorization: TOKEN, 'content-length': String(body.length) })

  // Writes go nowhere: node's response objects run their own code, the bytes are not sent.
  const socket = new Socket()
  Object.assign(socket, { writable: true, write: () => true, cork() {}, uncork() {} })
  let checked = false

  return () =>
    new Promise<void>((resolve) => {
      const req = new IncomingMessage(socket)
      req.method = route.method
      req.url = route.url
      req.headers = { ...headers }
      const res = new ServerResponse(req)
      // As node's server does: a response writes to its socket. Without one it buffers what it
      // writes, and about one run in three fell into a mode where GC took half the time.
      res.assignSocket(socket)
      const end = res.end.bind(res) as (...args: unknown[]) => ServerResponse
      res.end = ((...args: unknown[]) => {
        const out = end(...args)
        if (!checked) {
          checked = true
          if (res.statusCode !== route.status)
            throw new Error(`${route.method} ${route.url}: expected ${route.status}, got ${res.statusCode}`)
        }
        // After the ticks the request queued (stream ends, response finish), as node's listener
        // runs them after each request: a loop of microtasks alone would pile them up. Node's
        // server emits 'close' on the response once it has finished (observers end there).
        process.nextTick(() => {
          res.detachSocket(socket)
          res.emit('close')
          resolve()
        })
        return out
      }) as typeof res.end
      app.handleNode(req, res)
      if (body) req.push(body)
      // As node's parser marks a message it has read whole.
      req.complete = true
      req.push(null)
    })
}

/** One batch of `n` requests: ns (wall) and CPU µs of the process per request. */
export async function batch(one: () => Promise<unknown>, n: number): Promise<{ ns: number; cpu: number }> {
  // The event loop turns every 50 requests, as under a server's load (timers: batch span exports).
  const turn = () => new Promise((resolve) => setImmediate(resolve))
  const t0 = process.hrtime.bigint()
  const c0 = process.cpuUsage()
  for (let i = 0; i < n; i++) {
    await one()
    if (i % 50 === 49) await turn()
  }
  const c = process.cpuUsage(c0)
  return { ns: Number(process.hrtime.bigint() - t0) / n, cpu: (c.user + c.system) / n }
}

/** Serves `BENCH_ROUTE` (a key of `routes`) in batches and prints each batch's ns and CPU µs per request. */
export async function runPath(
  app: Pick<VelaApp, 'handleNode'>,
  routes: Readonly<Record<string, PathRoute>> = PATH_ROUTES,
): Promise<void> {
  const one = requester(app, benchRoute(routes))
  const n = Number(process.env.BENCH_N ?? 20_000)
  if (process.env.BENCH_WINDOWS) return countedWindows(one, n, Number(process.env.BENCH_WINDOWS))
  const batches: number[] = []
  const cpu: number[] = []
  for (let b = 0; b < Number(process.env.BENCH_BATCHES ?? 8); b++) {
    const r = await batch(one, n)
    batches.push(r.ns)
    cpu.push(r.cpu)
  }
  console.log(JSON.stringify({ batches, cpu }))
}

/**
 * Under callgrind (bench/path.ts counts): `BENCH_WARMUP` calls of `one` (requests), then `windows`
 * windows of `n`, each between a line `start` and a line `stop` on stdout, at which the counting
 * process zeroes and dumps the counters and answers on stdin. The process waits for the answer in a
 * blocking read, not on the event loop, so nothing runs between two windows. (A forced `gc()`
 * before each window, tried to keep full collections out of them, made every window cost ten times
 * as much: V8 compiled the code again after it.)
 */
export async function countedWindows(one: () => Promise<void>, n: number, windows: number): Promise<void> {
  await batch(one, Number(process.env.BENCH_WARMUP ?? 20_000))
  const answer = Buffer.alloc(64)
  const pause = new Int32Array(new SharedArrayBuffer(4))
  const say = (line: string) => {
    writeSync(1, `${line}\n`)
    for (;;) {
      try {
        if (readSync(0, answer) > 0) return
      } catch (e) {
        // A pipe left non-blocking (by a library touching process.stdin): wait without running anything.
        if ((e as NodeJS.ErrnoException).code !== 'EAGAIN') throw e
        Atomics.wait(pause, 0, 0, 5)
      }
    }
  }
  for (let w = 0; w < windows; w++) {
    say('start')
    await batch(one, n)
    say('stop')
  }
  process.exit(0)
}
