/**
 * Requests without a socket (like `fastify.inject`) and a real server on an ephemeral port, for
 * the same case list run both ways; `createTestApp` (test-app.ts) gives both for the app's own app.
 */
import type { VelaApp } from '../contracts/app.ts'
import type { Listener } from '../listener/listen.ts'
import { listen } from '../listener/listen.ts'

/** One test request: method, URL, headers, body and the client address the app sees. */
export interface InjectOptions {
  /** The method (default `GET`). */
  method?: string
  /** The path and query (`/api/notes?limit=5`), or an absolute URL. */
  url: string
  /** Request headers, by name. */
  headers?: Record<string, string>
  /** A string or bytes are sent as is; anything else is JSON-encoded with `content-type: application/json`. */
  body?: unknown
  /** The peer address the app sees (default 127.0.0.1). */
  peer?: string
}

/**
 * The web `Request` a test request describes, against `base`: an object body is JSON-encoded
 * with `content-type: application/json`, and `content-length` is set; redirects are not followed.
 *
 * @example
 * ```ts
 * import { toRequest } from 'vela/testing'
 *
 * const request = toRequest('http://localhost:3000', { method: 'POST', url: '/api/notes', body: { title: 'Groceries' } })
 * const res = await fetch(request)
 * ```
 */
export function toRequest(base: string, opts: InjectOptions | string): Request {
  const o = typeof opts === 'string' ? { url: opts } : opts
  const headers = new Headers(o.headers)
  let body: BodyInit | undefined
  if (o.body !== undefined) {
    if (typeof o.body === 'string' || o.body instanceof Uint8Array) body = o.body as BodyInit
    else {
      body = JSON.stringify(o.body)
      if (!headers.has('content-type')) headers.set('content-type', 'application/json')
    }
    if (!headers.has('content-length'))
      headers.set('content-length', String(Buffer.byteLength(body as string | Uint8Array)))
  }
  return new Request(new URL(o.url, base), { method: o.method ?? 'GET', headers, body, redirect: 'manual' })
}

/**
 * Runs one request through the app in-process: the whole lifecycle, no socket. `opts` is a URL
 * for a GET, or an `InjectOptions`.
 *
 * @example
 * ```ts
 * import { expect, it } from 'vitest'
 * import { createApp, defineApp, json } from 'vela'
 * import { inject } from 'vela/testing'
 *
 * const app = createApp(
 *   defineApp({ bootstrapApplication: 'hello', routes: { hello: { prefix: '', security: false, routes: [['GET /hello', () => json({ hello: 'world' })]] } } }),
 * )
 *
 * it('says hello', async () => {
 *   const res = await inject(app, '/hello')
 *   expect(res.status).toBe(200)
 *   expect(await res.json()).toEqual({ hello: 'world' })
 * })
 * ```
 */
export async function inject(app: VelaApp, opts: InjectOptions | string): Promise<Response> {
  const request = toRequest('http://localhost', opts)
  const peer = typeof opts === 'string' ? undefined : opts.peer
  Object.defineProperty(request, 'ip', { value: peer ?? '127.0.0.1' })
  return app.fetch(request)
}

/** A test server from `startTestServer`: a listener on 127.0.0.1 and a `request` helper against it. */
export interface TestServer extends Listener {
  /** `fetch` against the server, with the same options as `inject`. */
  request(opts: InjectOptions | string): Promise<Response>
}

/**
 * Starts the app on 127.0.0.1 on an ephemeral port; `close()` stops it, closing idle keep-alive
 * connections at once (`idle: 'close'`: a test's client is done with them, and waiting for their
 * keep-alive timeout would cost seconds a test).
 *
 * @example
 * ```ts
 * import { afterAll, expect, it } from 'vitest'
 * import { createApp, defineApp, json } from 'vela'
 * import { startTestServer } from 'vela/testing'
 *
 * const app = createApp(
 *   defineApp({ bootstrapApplication: 'hello', routes: { hello: { prefix: '', security: false, routes: [['GET /hello', () => json({ hello: 'world' })]] } } }),
 * )
 * const server = await startTestServer(app)
 * afterAll(() => server.close())
 *
 * it('answers over a real socket', async () => {
 *   const res = await server.request({ url: '/hello', headers: { accept: 'application/json' } })
 *   expect(res.status).toBe(200)
 * })
 * ```
 */
export async function startTestServer(app: VelaApp): Promise<TestServer> {
  const listener = await listen(app, { port: 0, host: '127.0.0.1' })
  return {
    ...listener,
    close: (opts) => listener.close({ idle: 'close', ...opts }),
    request: (opts) => fetch(toRequest(listener.url, opts)),
  }
}
