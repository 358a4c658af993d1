/**
 * The Vela bench app, the same three routes as every other server: the request plugin decodes the
 * POST body, a security callback checks the token. A fourth, `POST /api/products/form`, takes the
 * product as a URL-encoded form for the path bench. `traced` adds a stream handler (and, when given, a
 * plugin to every group) for the telemetry bench (vela-otel.ts); vela.ts runs it plain; `extraRoutes` join the
 * open group (the telemetry bench's database route). `POST /api/products/checked` validates its body
 * with a JSON Schema (`validate.body`), for the runtime bench's row against Fastify.
 * `BENCH_SECURITY_HEADERS=1` adds `securityHeaders()` (an `onResponse` hook) to what the path bench measures.
 */
import { createApp, json, requestPlugin, securityHeaders, status } from '../../server/index.ts'
import type { PluginEntry, Route, RouteGroup, StreamHandler, VelaApp } from '../../server/index.ts'
import { PRODUCT_SCHEMA, TOKEN, products } from './fixtures.ts'

export function createBenchApp(
  traced?: { streamHandler: StreamHandler; plugin?: PluginEntry },
  extraRoutes: readonly Route[] = [],
): VelaApp {
  const plugins: PluginEntry[] = traced?.plugin ? [traced.plugin] : []
  let nextId = 1000
  const open: RouteGroup = {
    prefix: '',
    security: false,
    plugins,
    routes: [
      ['GET /heartbeat', () => status(200)],
      [
        'GET /api/products/:id',
        (req) => {
          const p = products.get(Number(req.bindings.id))
          return p ? json(p) : status(404, { error: 'not found' })
        },
      ],
      ...extraRoutes,
    ],
  }
  const writes: RouteGroup = {
    prefix: '/api',
    security: (req) => (req.header('authorization') === TOKEN ? { user: 'bench' } : false),
    plugins: [...plugins, requestPlugin({ json: true, urlencoded: true })],
    routes: [
      [
        'POST /products',
        (req) => {
          const body = req.params as { name: string; price: number }
          return json({ id: nextId++, name: body.name, price: body.price, description: null }, { status: 201 })
        },
      ],
      // The path bench's form route (bench/path-runner.ts): the same product as a URL-encoded form.
      [
        'POST /products/form',
        (req) => {
          const body = req.params as { name: string; price: string; tag?: string | string[] }
          return json(
            { id: nextId++, name: body.name, price: Number(body.price), tags: [body.tag ?? []].flat() },
            { status: 201 },
          )
        },
      ],
    ],
  }
  // The runtime bench's validation row: the body checked against a JSON Schema (`validate.body`), as Fastify's `schema.body`.
  const checked: RouteGroup = {
    prefix: '/api',
    security: false,
    plugins: [...plugins, requestPlugin({ json: true })],
    routes: [
      [
        'POST /products/checked',
        (req) => {
          const body = req.json as { name: string; price: number }
          return json({ id: nextId++, name: body.name, price: body.price, description: null }, { status: 201 })
        },
        { validate: { body: 'product' } },
      ],
    ],
  }
  return createApp(
    {
      bootstrapApplication: 'bench',
      server: {
        ...(traced ? { streamHandlers: [traced.streamHandler, 'default'] } : {}),
        // BENCH_REQUEST_ID=0: what the id header costs (an app's `server.requestId: false`).
        ...(process.env.BENCH_REQUEST_ID === '0' ? { requestId: false as const } : {}),
      },
      onResponse: process.env.BENCH_SECURITY_HEADERS === '1' ? [securityHeaders()] : [],
      routes: { bench: [open, writes, checked] },
    },
    { schemas: { product: PRODUCT_SCHEMA } },
  )
}
