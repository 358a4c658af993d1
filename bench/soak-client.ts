/**
 * The soak's load: `connections` keep-alive clients, each one request at a time on its own socket
 * (node:http, an Agent with one socket per client), so every request's fate is known from the
 * client side: answered (status, latency), refused before it was sent (the server no longer
 * listens), or **lost**: written in full on an open connection and never answered (the
 * connection reset or closed under it). A client stops once the server refuses it, or when told.
 */
import http from 'node:http'

export interface Route {
  readonly name: string
  readonly weight: number
  readonly method: 'GET' | 'POST'
  /** The path for this request; `ids` are product ids created so far. */
  path(ids: readonly number[]): string
  body?(n: number): string
}

export interface SoakStats {
  requests: number
  /** Answered, by route and status: `GET /api/products 200`. */
  readonly answered: Map<string, number>
  /** Not answered, by kind: `lost ECONNRESET`, `refused ECONNREFUSED`. */
  readonly failed: Map<string, number>
  /** Latencies of answered requests, ms, by route. */
  readonly latencies: Map<string, number[]>
  /** Requests written and never answered, with what the client saw. */
  readonly lost: { route: string; error: string; atMs: number }[]
  created201: number
  readonly ids: number[]
}

const bump = (m: Map<string, number>, k: string) => m.set(k, (m.get(k) ?? 0) + 1)

export function startClients(
  port: number,
  connections: number,
  routes: readonly Route[],
  maxRequests: number,
  ids: number[] = [],
) {
  const stats: SoakStats = {
    requests: 0,
    answered: new Map(),
    failed: new Map(),
    latencies: new Map(routes.map((r) => [r.name, []])),
    lost: [],
    created201: 0,
    ids: [...ids],
  }
  const total = routes.reduce((n, r) => n + r.weight, 0)
  const pick = () => {
    let x = Math.random() * total
    for (const r of routes) if ((x -= r.weight) < 0) return r
    return routes[routes.length - 1]!
  }
  let stopping = false
  const t0 = performance.now()

  function one(agent: http.Agent): Promise<'go' | 'refused'> {
    const route = pick()
    const body = route.body?.(stats.requests)
    stats.requests++
    return new Promise((resolve) => {
      const start = performance.now()
      let sent = false
      const req = http.request(
        {
          agent,
          host: '127.0.0.1',
          port,
          method: route.method,
          path: route.path(stats.ids),
          headers: body ? { 'content-type': 'application/json' } : {},
        },
        (res) => {
          const chunks: Buffer[] = []
          res.on('data', (c: Buffer) => chunks.push(c))
          res.on('end', () => {
            stats.latencies.get(route.name)!.push(performance.now() - start)
            bump(stats.answered, `${route.name} ${res.statusCode}`)
            if (res.statusCode === 201) {
              stats.created201++
              const id = (JSON.parse(Buffer.concat(chunks).toString()) as { id?: number }).id
              if (typeof id === 'number') stats.ids.push(id)
            }
            resolve('go')
          })
          res.on('error', (e) => fail(e, true))
        },
      )
      const fail = (e: NodeJS.ErrnoException, midResponse = false) => {
        const what = e.code ?? e.message
        if (!sent) {
          bump(stats.failed, `refused ${what}`)
          return resolve('refused')
        }
        bump(stats.failed, `lost ${midResponse ? 'mid-response ' : ''}${what}`)
        stats.lost.push({ route: route.name, error: what, atMs: Math.round(performance.now() - t0) })
        resolve('go')
      }
      req.on('finish', () => (sent = true))
      req.on('error', (e) => fail(e))
      req.end(body)
    })
  }

  const loops = Array.from({ length: connections }, async () => {
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 })
    while (!stopping && stats.requests < maxRequests) if ((await one(agent)) === 'refused') break
    agent.destroy()
  })
  const done = Promise.all(loops)
  return {
    stats,
    /** Resolves when every client has stopped (refused by the server, or `stop()`). */
    done,
    stop: () => ((stopping = true), done),
  }
}

export function percentile(xs: number[], p: number): number {
  if (!xs.length) return NaN
  const sorted = Float64Array.from(xs).sort()
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!
}
