// Every start-up, config and plugin mistake throws a VelaError with its code, and the message it
// always had (server/errors/vela-error.ts; the table of codes on docs/essentials/routes.md).
import { describe, expect, it } from 'vitest'
import { createApp } from '../server/app/create-app.ts'
import type { AppConfig } from '../server/app/config.ts'
import { defineStreamHandler } from '../server/stream-handlers/stream-handlers.ts'
import { definePlugin, ok } from '../server/pipeline/plugin.ts'
import type { PluginEntry } from '../server/pipeline/registration.ts'
import { rateLimitPlugin, RedisRateLimitStore } from '../server/plugins/rate-limit/index.ts'
import { json } from '../server/replies.ts'
import type { VelaRequest } from '../server/request.ts'
import { sessionPlugin } from '../server/plugins/session/plugin.ts'
import { defineWebSocket } from '../server/websocket/define.ts'
import type { VelaErrorCode } from '../server/errors/vela-error.ts'
import {
  DB_OUTCOME_UNKNOWN,
  DB_UNAVAILABLE,
  DbOutcomeUnknownError,
  DbUnavailableError,
  isDbOutcomeUnknown,
  isDbUnavailable,
} from '../dbl/index.ts'
import { withDiscovered } from '../vite-plugin/discover.ts'
import { loadRepo } from '../vite-plugin/migrations.ts'
import { checkProfile } from '../vite-plugin/profile.ts'

const hello = () => json({ hello: true })
const app =
  (config: Partial<AppConfig>, env: NodeJS.ProcessEnv = {}) =>
  () =>
    createApp({ bootstrapApplication: 'codes', ...config }, { env })
// Malformed on purpose: typed loosely.
const group = (over: Record<string, unknown>) =>
  ({ r: { prefix: '', security: false, routes: [['GET /a', hello]], ...over } }) as unknown as AppConfig['routes']

/** Runs `fn`, expecting a VelaError with `code` and a message matching `message`. */
async function expectCode(fn: () => unknown, code: VelaErrorCode, message: RegExp): Promise<void> {
  let thrown: unknown
  try {
    await fn()
  } catch (err) {
    thrown = err
  }
  expect(thrown, 'nothing was thrown').toBeInstanceOf(Error)
  expect(thrown).toMatchObject({ name: 'VelaError', code, message: expect.stringMatching(message) })
}

describe('VELA_ERR_CONFIG', () => {
  it('an app without bootstrapApplication, a PORT that is not a port', async () => {
    await expectCode(
      () => createApp({} as AppConfig),
      'VELA_ERR_CONFIG',
      /^defineApp: `bootstrapApplication` \(the application name\) is required$/,
    )
    await expectCode(
      app({}, { PORT: 'eighty' }),
      'VELA_ERR_CONFIG',
      /^PORT must be an integer from 0 to 65535, got "eighty"$/,
    )
  })

  it('a server port, limit or timeout node would refuse, named with its value', async () => {
    await expectCode(
      app({ server: { port: 65_536 } }),
      'VELA_ERR_CONFIG',
      /^server\.port must be an integer from 0 to 65535, got 65536$/,
    )
    await expectCode(
      app({ server: { requestTimeout: 5000, headersTimeout: 6000 } }),
      'VELA_ERR_CONFIG',
      /^server\.headersTimeout \(6000\) must not exceed server\.requestTimeout \(5000\)/,
    )
    await expectCode(
      app({ server: { websocket: { maxBufferedBytes: -1 } } }),
      'VELA_ERR_CONFIG',
      /^server\.websocket\.maxBufferedBytes must be a positive whole number of bytes, got -1$/,
    )
  })

  it('a session secret missing outside dev and test (at start), or too short', async () => {
    const routes = {
      r: { prefix: '', security: false as const, plugins: [sessionPlugin()], routes: [['GET /a', hello]] as const },
    }
    await expectCode(
      () => app({ environment: 'prod', routes })().start(),
      'VELA_ERR_CONFIG',
      /^session: no secret in environment "prod"/,
    )
    await expectCode(
      () => app({ routes }, { VELA_SESSION_SECRET: 'short' })().start(),
      'VELA_ERR_CONFIG',
      /^session: VELA_SESSION_SECRET must be a string of at least 32 characters/,
    )
  })

  it('the Vite side: src/app.ts without a default export, src/repo.ts without a repo, a bad profile', async () => {
    await expectCode(
      () => withDiscovered(undefined as unknown as AppConfig, { routes: {}, controllers: {} }),
      'VELA_ERR_CONFIG',
      /^src\/app\.ts must default-export the app/,
    )
    await expectCode(
      () => loadRepo('/app', async () => ({})),
      'VELA_ERR_CONFIG',
      /src\/repo\.ts must export the repository as `repo`/,
    )
    await expectCode(() => checkProfile('local'), 'VELA_ERR_CONFIG', /^invalid profile "local"/)
  })
})

describe('VELA_ERR_ROUTE and VELA_ERR_DUPLICATE_ROUTE', () => {
  it('a malformed group or route names where it is', async () => {
    await expectCode(
      app({ routes: group({ prefix: 1 }) }),
      'VELA_ERR_ROUTE',
      /^r group 0 \(prefix 1\): prefix must be a string/,
    )
    await expectCode(
      app({ routes: group({ security: true }) }),
      'VELA_ERR_ROUTE',
      /^r group 0 \(prefix ""\): security must be false, a function, or \{ scheme, check \}$/,
    )
    await expectCode(
      app({ routes: group({ routes: [[null, hello]] }) }),
      'VELA_ERR_ROUTE',
      /^r group 0 route 0: path must be a string$/,
    )
    await expectCode(
      app({ routes: group({ routes: [['/a', 'nope']] }) }),
      'VELA_ERR_ROUTE',
      /^r group 0 route 0: handler must be a function/,
    )
    await expectCode(
      app({ routes: group({ routes: [['/ws', hello, { protocol: 'ws' }]] }) }),
      'VELA_ERR_ROUTE',
      /a ws route needs a handler made by defineWebSocket$/,
    )
    await expectCode(
      () => withDiscovered({ bootstrapApplication: 'x' }, { routes: { '/src/routes/bad.ts': {} }, controllers: {} }),
      'VELA_ERR_ROUTE',
      /^src\/routes\/bad\.ts must default-export its routes/,
    )
  })

  it('the same method and path twice names both places', async () => {
    await expectCode(
      app({
        routes: group({
          routes: [
            ['GET /a', hello],
            ['GET /a/', hello],
          ],
        }),
      }),
      'VELA_ERR_DUPLICATE_ROUTE',
      /^route GET \/a\/? is declared twice: at r group 0 route 0 and at r group 0 route 1$/,
    )
  })
})

describe('VELA_ERR_PLUGIN', () => {
  it('a plugin without callbacks, a bad registration, invalid options', async () => {
    const preOnly = definePlugin({
      name: 'pre-only',
      info: { title: '', version: '1', author: '', description: '', options: {} },
      preRequest: (req: VelaRequest) => ok(req),
    })
    const reg = (plugins: unknown) => app({ routes: group({ plugins: plugins as PluginEntry[] }) })
    await expectCode(
      () => definePlugin({ name: 'empty', info: preOnly.info }),
      'VELA_ERR_PLUGIN',
      /^plugin empty: needs preRequest or postRequest$/,
    )
    await expectCode(
      reg([['during', preOnly]]),
      'VELA_ERR_PLUGIN',
      /plugin entry 0 has phase "during"; use 'pre_request' or 'post_request'$/,
    )
    await expectCode(
      reg([['pre_request', { name: 'fake' }]]),
      'VELA_ERR_PLUGIN',
      /plugin entry 0 is not a plugin made by definePlugin$/,
    )
    await expectCode(
      reg([['post_request', preOnly]]),
      'VELA_ERR_PLUGIN',
      /plugin pre-only has no postRequest callback$/,
    )
    await expectCode(
      reg([['pre_request', rateLimitPlugin, { maxRequests: 0 }]]),
      'VELA_ERR_PLUGIN',
      /^rate-limit plugin: `maxRequests` must be a positive integer, got 0$/,
    )
    await expectCode(
      () => new RedisRateLimitStore({} as never),
      'VELA_ERR_PLUGIN',
      /^RedisRateLimitStore: `client` \(an ioredis client\) is required$/,
    )
  })
})

describe('VELA_ERR_STREAM_HANDLER and VELA_ERR_WEBSOCKET', () => {
  it("'default' before another handler, or something that is not a stream handler", async () => {
    const late = defineStreamHandler({ name: 'late', wrap: (next) => next })
    await expectCode(
      app({ server: { streamHandlers: ['default', late] } }),
      'VELA_ERR_STREAM_HANDLER',
      /^server\.streamHandlers: 'default' must come last; late would never run$/,
    )
    await expectCode(
      app({ server: { streamHandlers: [{ name: 'x' } as never, 'default'] } }),
      'VELA_ERR_STREAM_HANDLER',
      /^server\.streamHandlers\[0\] is not a stream handler/,
    )
  })

  it('defineWebSocket with an unknown hook or one that is not a function', async () => {
    await expectCode(
      () => defineWebSocket({ opened: () => {} } as never),
      'VELA_ERR_WEBSOCKET',
      /^defineWebSocket: unknown hook "opened"/,
    )
    await expectCode(
      () => defineWebSocket({ open: 'yes' } as never),
      'VELA_ERR_WEBSOCKET',
      /^defineWebSocket: hook open must be a function$/,
    )
    await expectCode(
      () => defineWebSocket({}, { maxMessageBytes: 0 }),
      'VELA_ERR_WEBSOCKET',
      /^defineWebSocket: limits\.maxMessageBytes must be a positive whole number of bytes, got 0$/,
    )
    await expectCode(
      () => defineWebSocket({}, 'big' as never),
      'VELA_ERR_WEBSOCKET',
      /^defineWebSocket: limits must be an object, got "big"$/,
    )
    await expectCode(
      () => defineWebSocket({}, { idleTimeout: -1 }),
      'VELA_ERR_WEBSOCKET',
      /^defineWebSocket: limits\.idleTimeout must be a whole number of milliseconds/,
    )
    await expectCode(
      () => defineWebSocket({}, { allowedOrigins: ['example.com'] }),
      'VELA_ERR_WEBSOCKET',
      /^defineWebSocket: limits\.allowedOrigins: "example\.com" is not an origin/,
    )
    await expectCode(
      () => defineWebSocket({}, { idleTimout: 500 } as never),
      'VELA_ERR_WEBSOCKET',
      /^defineWebSocket: unknown option "idleTimout"; use maxMessageBytes, maxBufferedBytes, maxMessagesPerSecond, idleTimeout, closeTimeout, allowedOrigins$/,
    )
  })
})

describe('VELA_ERR_DB_UNAVAILABLE and VELA_ERR_DB_OUTCOME_UNKNOWN (vela/dbl, at run time)', () => {
  it('nothing applied is a 503 to retry; a write sent and never answered is a 504 that may have been applied', () => {
    const down = new DbUnavailableError(
      'unreachable',
      'db:5432',
      'database db:5432: unreachable: connection refused (ECONNREFUSED)',
    )
    expect(down).toMatchObject({ name: 'DbUnavailableError', code: DB_UNAVAILABLE, status: 503 })
    expect(DB_UNAVAILABLE).toBe('VELA_ERR_DB_UNAVAILABLE')
    const unknown = new DbOutcomeUnknownError(
      new DbUnavailableError(
        'connection_lost',
        'db:5432',
        'database db:5432: connection lost: connection reset (ECONNRESET)',
      ),
    )
    expect(unknown).toMatchObject({
      name: 'DbOutcomeUnknownError',
      code: DB_OUTCOME_UNKNOWN,
      status: 504,
      reason: 'connection_lost',
    })
    expect(DB_OUTCOME_UNKNOWN).toBe('VELA_ERR_DB_OUTCOME_UNKNOWN')
    expect([isDbUnavailable(unknown), isDbOutcomeUnknown(unknown), isDbOutcomeUnknown(down)]).toEqual([
      true,
      true,
      false,
    ])
  })
})
