// Defaults, VELA_ENV / PORT overrides, the server keys checked, jsonLib used for every encode and decode.
import { expect, it } from 'vitest'
import { inject } from '../testing/index.ts'
import { requestPlugin } from '../plugins/request.ts'
import { json } from '../replies.ts'
import { createApp } from './create-app.ts'
import type { ServerConfig } from './config.ts'
import { portFromEnv, resolveConfig } from './config.ts'
import { listen } from '../listener/listen.ts'

const routes = { r: { prefix: '', security: false as const, routes: [] } }

it('every key left out gets its default, each marked as a default', () => {
  const c = resolveConfig({ bootstrapApplication: 'demo', routes }, {})
  expect(c.environment).toBe('dev')
  expect(c.server.port).toBe(8080)
  expect(c.plugins).toEqual([])
  expect(c.onResponse).toEqual([])
  expect(c.useStacktrace).toBe(false)
  expect(c.dispatchBackend).toBe('compiled')
  expect(c.server.bodyLimit).toBe(1024 * 1024)
  expect(c.server.maxFields).toBe(1000)
  expect(c.server.websocket).toEqual({
    maxMessageBytes: 1024 * 1024,
    maxBufferedBytes: 4 * 1024 * 1024,
    maxMessagesPerSecond: 100,
    idleTimeout: 30_000,
    closeTimeout: 1000,
    allowedOrigins: [],
    pubsub: undefined,
  })
  expect([c.server.headersTimeout, c.server.requestTimeout, c.server.sendTimeout]).toEqual([20_000, 60_000, 30_000])
  expect(c.jsonLib.encode({ a: 1 })).toBe('{"a":1}')
  expect([...c.defaults].sort()).toEqual(
    [
      'dispatchBackend',
      'environment',
      'jsonLib',
      'onRequest',
      'onResponse',
      'plugins',
      'server.bodyLimit',
      'server.drainDelay',
      'server.handlerTimeout',
      'server.headersTimeout',
      'server.health',
      'server.host',
      'server.keepAliveTimeout',
      'server.maxFields',
      'server.maxUrlLength',
      'server.options',
      'server.port',
      'server.requestId',
      'server.requestTimeout',
      'server.sendTimeout',
      'server.shutdownTimeout',
      'server.streamHandlers',
      'server.trustProxy',
      'server.websocket.maxBufferedBytes',
      'server.websocket.maxMessageBytes',
      'server.websocket.pubsub',
      'server.websocket.maxMessagesPerSecond',
      'server.websocket.idleTimeout',
      'server.websocket.closeTimeout',
      'server.websocket.allowedOrigins',
      'useStacktrace',
    ].sort(),
  )
})

it('set values are kept and not marked default; VELA_ENV and PORT override', () => {
  const c = resolveConfig(
    { bootstrapApplication: 'demo', environment: 'staging', server: { port: 3000 }, useStacktrace: true, routes },
    { VELA_ENV: 'prod', PORT: '9090' },
  )
  expect(c.environment).toBe('prod')
  expect(c.server.port).toBe(9090)
  expect(c.useStacktrace).toBe(true)
  expect(c.defaults.has('useStacktrace')).toBe(false)
  expect(c.defaults.has('environment')).toBe(false)
})

it('PORT, as the dev server and the built server read it: 0 is any free port, unset or empty is none', () => {
  expect(portFromEnv({ PORT: '0' })).toBe(0)
  expect(portFromEnv({ PORT: '3000' })).toBe(3000)
  expect(portFromEnv({})).toBeUndefined()
  expect(portFromEnv({ PORT: '' })).toBeUndefined()
  for (const bad of ['abc', '-1', '65536', '80.5'])
    expect(() => portFromEnv({ PORT: bad })).toThrow(`PORT must be an integer from 0 to 65535, got "${bad}"`)
})

it('bad configuration is an error that says what is wrong', () => {
  expect(() => resolveConfig({ routes } as never, {})).toThrow(
    'defineApp: `bootstrapApplication` (the application name) is required',
  )
  expect(() => resolveConfig({ bootstrapApplication: 'x', routes }, { PORT: 'eighty' })).toThrow(
    'PORT must be an integer from 0 to 65535, got "eighty"',
  )
  expect(() =>
    resolveConfig({ bootstrapApplication: 'x', server: { websocket: { pubsub: 'redis://127.0.0.1' as never } } }, {}),
  ).toThrow('server.websocket.pubsub must be a pub/sub adapter such as redisPubSub({ url }), got "redis://127.0.0.1"')
})

it('a timeout left out gives way to the one written (node needs headersTimeout <= requestTimeout), and the server listens', async () => {
  const short = resolveConfig({ bootstrapApplication: 'x', server: { requestTimeout: 5000 }, routes }, {})
  expect([short.server.headersTimeout, short.server.requestTimeout]).toEqual([5000, 5000])
  expect(short.defaults.has('server.headersTimeout')).toBe(true)
  const long = resolveConfig({ bootstrapApplication: 'x', server: { headersTimeout: 90_000 }, routes }, {})
  expect([long.server.headersTimeout, long.server.requestTimeout]).toEqual([90_000, 90_000])
  // 0 turns the request timeout off: the headers keep theirs.
  const off = resolveConfig({ bootstrapApplication: 'x', server: { requestTimeout: 0 }, routes }, {})
  expect([off.server.headersTimeout, off.server.requestTimeout]).toEqual([20_000, 0])
  for (const server of [
    { requestTimeout: 5000 },
    { headersTimeout: 90_000 },
    { requestTimeout: 0, headersTimeout: 30_000 },
  ]) {
    const listener = await listen(createApp({ bootstrapApplication: 'x', server, routes }, { env: {} }), {
      port: 0,
      host: '127.0.0.1',
    })
    await listener.close()
  }
})

it('a bad port, limit or timeout is refused when the app is created, naming the key and the value', () => {
  const refused = (server: unknown) => () =>
    createApp({ bootstrapApplication: 'x', server: server as ServerConfig, routes }, { env: {} })
  expect(refused({ requestTimeout: 5000, headersTimeout: 10_000 })).toThrow(
    'server.headersTimeout (10000) must not exceed server.requestTimeout (5000): the headers are part of the request; lower headersTimeout or raise requestTimeout',
  )
  expect(refused({ port: 70_000 })).toThrow('server.port must be an integer from 0 to 65535, got 70000')
  expect(refused({ port: '8080' })).toThrow('server.port must be an integer from 0 to 65535, got "8080"')
  expect(refused({ host: 8080 })).toThrow('server.host must be a string, got 8080')
  expect(refused({ bodyLimit: -1 })).toThrow('server.bodyLimit must be a positive whole number of bytes, got -1')
  expect(refused({ bodyLimit: 0 })).toThrow('server.bodyLimit must be a positive whole number of bytes, got 0')
  expect(refused({ maxUrlLength: 1.5 })).toThrow(
    'server.maxUrlLength must be a positive whole number of bytes, got 1.5',
  )
  expect(refused({ maxFields: 0 })).toThrow('server.maxFields must be a positive whole number, got 0')
  expect(refused({ keepAliveTimeout: -5 })).toThrow(
    'server.keepAliveTimeout must be a whole number of milliseconds from 0 (none) to 2147483647, got -5',
  )
  expect(refused({ requestTimeout: Number.NaN })).toThrow(
    'server.requestTimeout must be a whole number of milliseconds from 0 (none) to 2147483647, got NaN',
  )
  expect(refused({ headersTimeout: 2 ** 31 })).toThrow(
    'server.headersTimeout must be a whole number of milliseconds from 0 (none) to 2147483647, got 2147483648',
  )
  expect(refused({ sendTimeout: 1.5 })).toThrow(
    'server.sendTimeout must be a whole number of milliseconds from 0 (none) to 2147483647, got 1.5',
  )
  expect(refused({ websocket: { maxMessageBytes: 0 } })).toThrow(
    'server.websocket.maxMessageBytes must be a positive whole number of bytes, got 0',
  )
  expect(refused({ websocket: { maxBufferedBytes: Infinity } })).toThrow(
    'server.websocket.maxBufferedBytes must be a positive whole number of bytes, got Infinity',
  )
  expect(refused({ websocket: '1MB' })).toThrow('server.websocket must be an object, got "1MB"')
  expect(refused({ websocket: { maxMessagesPerSecond: -1 } })).toThrow(
    'server.websocket.maxMessagesPerSecond must be a number of messages per second, 0 or Infinity for no limit, got -1',
  )
  expect(refused({ websocket: { maxMessagesPerSecond: '10' } })).toThrow(
    'server.websocket.maxMessagesPerSecond must be a number of messages per second, 0 or Infinity for no limit, got "10"',
  )
  expect(refused({ websocket: { idleTimeout: 1.5 } })).toThrow(
    'server.websocket.idleTimeout must be a whole number of milliseconds from 0 (none) to 2147483647, got 1.5',
  )
  expect(refused({ websocket: { allowedOrigins: 'https://app.example.com' } })).toThrow(
    `server.websocket.allowedOrigins must be a list of origins (e.g. ['https://app.example.com']), '*' or a function, got "https://app.example.com"`,
  )
  for (const entry of ['app.example.com', 'https://app.example.com/chat', 'null', 'https://user:pw@app.example.com']) {
    expect(refused({ websocket: { allowedOrigins: [entry] } })).toThrow(
      `server.websocket.allowedOrigins: ${JSON.stringify(entry)} is not an origin (scheme://host[:port], e.g. 'https://app.example.com') or '*'`,
    )
  }
  expect(refused({ websocket: { allowedOrigins: [42] } })).toThrow(
    `server.websocket.allowedOrigins: 42 is not an origin (scheme://host[:port], e.g. 'https://app.example.com') or '*'`,
  )
  // A trailing slash, upper case and the default port are what URLs allow in an origin.
  expect(
    resolveConfig(
      {
        bootstrapApplication: 'x',
        server: {
          websocket: { allowedOrigins: ['https://App.example.com:443/', '*'], maxMessagesPerSecond: Infinity },
        },
        routes,
      },
      {},
    ).server.websocket,
  ).toMatchObject({ allowedOrigins: ['https://App.example.com:443/', '*'], maxMessagesPerSecond: Infinity })
  expect(refused([])).toThrow('server must be an object, got an array')
  expect(refused({ maxUrlLength: () => 8192 })).toThrow(
    'server.maxUrlLength must be a positive whole number of bytes, got a function',
  )
  expect(refused({ websocket: { maxMessageBytes: { mb: 1 } } })).toThrow(
    'server.websocket.maxMessageBytes must be a positive whole number of bytes, got an object',
  )
  expect(refused({ port: 70_000 })).toThrow(expect.objectContaining({ name: 'VelaError', code: 'VELA_ERR_CONFIG' }))
  // A port written in the config is checked even when PORT overrides it.
  expect(() => resolveConfig({ bootstrapApplication: 'x', server: { port: -1 }, routes }, { PORT: '0' })).toThrow(
    'server.port must be an integer from 0 to 65535, got -1',
  )
})

it('jsonLib is used for every JSON encode (replies, errors) and decode (request bodies)', async () => {
  const calls: string[] = []
  const jsonLib = {
    encode: (v: unknown) => (calls.push('encode'), JSON.stringify({ wrapped: v })),
    decode: (t: string) => (calls.push('decode'), { decoded: JSON.parse(t) }),
  }
  const app = createApp(
    {
      bootstrapApplication: 'json',
      jsonLib,
      plugins: [requestPlugin({ json: true })],
      routes: { r: { prefix: '', security: false, routes: [['POST /echo', (req) => json(req.params)]] } },
    },
    { env: {} },
  )
  const res = await inject(app, { method: 'POST', url: '/echo', body: { a: 1 } })
  expect(await res.json()).toEqual({ wrapped: { decoded: { a: 1 } } })
  expect(await (await inject(app, '/missing')).json()).toEqual({ wrapped: { error: 'Not Found' } })
  expect(calls).toEqual(['decode', 'encode', 'encode'])
})

it('the environment reaches route functions: (env) => groups', async () => {
  const app = createApp(
    {
      bootstrapApplication: 'x',
      routes: { r: (env: string) => ({ prefix: '', security: false, routes: [['GET /env', () => json({ env })]] }) },
    },
    { env: { VELA_ENV: 'test' } },
  )
  expect(await (await inject(app, '/env')).json()).toEqual({ env: 'test' })
})

it('routes are optional (the Vite plugin discovers src/routes): an app without any answers 404', async () => {
  const app = createApp({ bootstrapApplication: 'empty' }, { env: {} })
  expect(app.routeTable.routes).toEqual([])
  const res = await inject(app, '/anything')
  expect(res.status).toBe(404)
  expect(await res.json()).toEqual({ error: 'Not Found' })
})
