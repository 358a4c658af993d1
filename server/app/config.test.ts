// Spec §2.1 defaults, VELA_ENV / PORT overrides, jsonLib used for every encode and decode.
import { expect, it } from 'vitest'
import { inject } from '../testing/index.ts'
import { requestPlugin } from '../plugins/request.ts'
import { json } from '../replies.ts'
import { createApp } from './create-app.ts'
import { resolveConfig } from './config.ts'

const routes = { r: { prefix: '', security: false as const, routes: [] } }

it('defaults of spec 2.1, each marked as a default', () => {
  const c = resolveConfig({ bootstrapApplication: 'demo', routes }, {})
  expect(c.environment).toBe('dev')
  expect(c.server.port).toBe(8080)
  expect(c.plugins).toEqual([])
  expect(c.useStacktrace).toBe(false)
  expect(c.dispatchBackend).toBe('compiled')
  expect(c.server.bodyLimit).toBe(1024 * 1024)
  expect(c.jsonLib.encode({ a: 1 })).toBe('{"a":1}')
  expect([...c.defaults].sort()).toEqual(
    ['dispatchBackend', 'environment', 'jsonLib', 'plugins', 'server.bodyLimit', 'server.headersTimeout', 'server.host', 'server.keepAliveTimeout', 'server.maxUrlLength', 'server.options', 'server.port', 'server.requestTimeout', 'server.streamHandlers', 'server.trustProxy', 'useStacktrace'].sort(),
  )
})

it('set values are kept and not marked default; VELA_ENV and PORT override', () => {
  const c = resolveConfig({ bootstrapApplication: 'demo', environment: 'staging', server: { port: 3000 }, useStacktrace: true, routes }, { VELA_ENV: 'prod', PORT: '9090' })
  expect(c.environment).toBe('prod')
  expect(c.server.port).toBe(9090)
  expect(c.useStacktrace).toBe(true)
  expect(c.defaults.has('useStacktrace')).toBe(false)
  expect(c.defaults.has('environment')).toBe(false)
})

it('bad configuration is an error that says what is wrong', () => {
  expect(() => resolveConfig({ routes } as never, {})).toThrow('defineApp: `bootstrapApplication` (the application name) is required')
  expect(() => resolveConfig({ bootstrapApplication: 'x', routes }, { PORT: 'eighty' })).toThrow('PORT must be an integer from 0 to 65535, got "eighty"')
})

it('jsonLib is used for every JSON encode (replies, errors) and decode (request bodies)', async () => {
  const calls: string[] = []
  const jsonLib = {
    encode: (v: unknown) => (calls.push('encode'), JSON.stringify({ wrapped: v })),
    decode: (t: string) => (calls.push('decode'), { decoded: JSON.parse(t) }),
  }
  const app = createApp({
    bootstrapApplication: 'json',
    jsonLib,
    plugins: [['pre_request', requestPlugin, { decodeJsonBody: true }]],
    routes: { r: { prefix: '', security: false, routes: [['/echo', (req) => json(req.params)]] } },
  }, { env: {} })
  const res = await inject(app, { method: 'POST', url: '/echo', body: { a: 1 } })
  expect(await res.json()).toEqual({ wrapped: { decoded: { a: 1 } } })
  expect(await (await inject(app, '/missing')).json()).toEqual({ wrapped: { error: 'Not Found' } })
  expect(calls).toEqual(['decode', 'encode', 'encode'])
})

it('the environment reaches route functions: (env) => groups', async () => {
  const app = createApp({ bootstrapApplication: 'x', routes: { r: (env: string) => ({ prefix: '', security: false, routes: [['/env', () => json({ env })]] }) } }, { env: { VELA_ENV: 'test' } })
  expect(await (await inject(app, '/env')).json()).toEqual({ env: 'test' })
})

it('routes are optional (the Vite plugin discovers src/routes): an app without any answers 404', async () => {
  const app = createApp({ bootstrapApplication: 'empty' }, { env: {} })
  expect(app.routeTable.routes).toEqual([])
  const res = await inject(app, '/anything')
  expect(res.status).toBe(404)
  expect(await res.json()).toEqual({ error: 'Not Found' })
})
