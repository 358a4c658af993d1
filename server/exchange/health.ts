/**
 * The built-in health endpoints (`server.health`), answered by routing before the route table, so
 * no plugin, session, security callback or rate limit sees them (a load balancer's probe needs no
 * credentials and must not use up a client's limit):
 *
 *   GET /livez   200 {"status":"live"}       whenever the process answers at all
 *   GET /readyz  200 {"status":"ready"}      once `app.start()` has run
 *                503 {"status":"starting"}  before that (a listener opened before the start hook)
 *                503 {"status":"draining"}  from the moment shutdown begins (`app.drain()`)
 *
 * HEAD gets the same status and headers without the body; other methods a 405. The bodies are
 * fixed JSON (not the app's `jsonLib`): probes parse them, or only read the status.
 */
import type { AppState } from '../contracts/app.ts'
import type { EncodedReply } from '../respond.ts'
import type { Exchange } from './exchange.ts'

export interface HealthEndpoints {
  /** The liveness path, or null when it is off. */
  readonly live: string | null
  /** The readiness path, or null when it is off. */
  readonly ready: string | null
  /** The answer to a request whose path is `live` or `ready`. */
  answer(x: Exchange): EncodedReply
}

const BODIES: Record<AppState | 'live', string> = {
  live: '{"status":"live"}',
  starting: '{"status":"starting"}',
  ready: '{"status":"ready"}',
  draining: '{"status":"draining"}',
}
const NOT_ALLOWED = '{"error":"Method Not Allowed: health endpoints answer GET and HEAD"}'

/** The endpoints over `state` (read per request), or undefined when both are off. */
export function healthEndpoints(
  paths: { live: string | null; ready: string | null },
  state: () => AppState,
): HealthEndpoints | undefined {
  const { live, ready } = paths
  if (live === null && ready === null) return undefined
  return {
    live,
    ready,
    answer(x) {
      const method = x.method
      if (method !== 'GET' && method !== 'HEAD') return reply(405, NOT_ALLOWED, false, { allow: 'GET, HEAD' })
      if (x.path === live) return reply(200, BODIES.live, method === 'HEAD')
      const now = state()
      return reply(now === 'ready' ? 200 : 503, BODIES[now], method === 'HEAD')
    },
  }
}

function reply(status: number, body: string, head: boolean, extra?: Record<string, string>): EncodedReply {
  // A probe must see the state of this moment, never a cached one.
  const headers = {
    'content-type': 'application/json; charset=utf-8',
    'content-length': String(body.length),
    'cache-control': 'no-store',
    ...extra,
  }
  return { status, headers, body: head ? null : body }
}
