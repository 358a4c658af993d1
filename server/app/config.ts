/**
 * Application configuration. `defineApp` only types the
 * object; `resolveConfig` checks the server keys (check-config.ts: `createApp` calls it, so a bad
 * port, limit or timeout is refused before any start hook runs), applies defaults and the
 * environment overrides (`VELA_ENV`, `PORT`, `VELA_TRUST_PROXY`), and remembers which keys kept
 * their default so `vela config` can mark them `(default)`.
 */
import type { AppConfig, ResolvedConfig } from '../contracts/config.ts'
import type { JsonLib } from '../contracts/primitives.ts'
import type { RequestHook } from '../contracts/request-hook.ts'
import type { ResponseHook } from '../contracts/response.ts'
import { VelaError } from '../errors/vela-error.ts'
import { trustProxyFromEnv, trustProxyList } from '../exchange/forwarded.ts'
import { resolveRequestId } from '../exchange/request-id.ts'
import { DEFAULT_SEND_TIMEOUT } from '../exchange/send-timeout.ts'
import { DEFAULT_MAX_FIELDS } from '../form-fields.ts'
import { WEBSOCKET_DEFAULTS } from '../websocket/define.ts'
import { checkServerConfig } from './check-config.ts'
import { shown } from './check-values.ts'
import { DEFAULT_HEALTH, resolveHealth } from './health-config.ts'

export type {
  AllowedOrigins,
  AppConfig,
  ClusterRole,
  MetricsEvent,
  RequestIdConfig,
  ResolvedConfig,
  ServerConfig,
  WebSocketConfig,
  WebSocketLimits,
  WebSocketOptions,
} from '../contracts/config.ts'
export type { JsonLib, ModuleMap } from '../contracts/primitives.ts'

/** `onRequest` or `onResponse` as written, checked: a list of functions, or a VELA_ERR_CONFIG saying what it got. */
function checkHooks<H>(key: 'onRequest' | 'onResponse', hooks: unknown): readonly H[] {
  if (!Array.isArray(hooks) || hooks.some((h) => typeof h !== 'function')) {
    const expected =
      key === 'onRequest'
        ? 'functions (request) => reply or nothing'
        : 'functions (response) => void, such as [securityHeaders()]'
    throw new VelaError('VELA_ERR_CONFIG', `${key} must be a list of ${expected}, got ${shown(hooks)}`)
  }
  return hooks as readonly H[]
}

/**
 * Declares an application's configuration (`src/app.ts`'s default export): it returns `config`
 * as given, typed. Defaults and checks apply when the app is created (`createApp`), where a bad
 * value is refused before any start hook runs.
 *
 * @example
 * ```ts
 * // src/app.ts
 * import { defineApp, securityHeaders } from 'vela'
 *
 * export default defineApp({
 *   bootstrapApplication: 'shop',
 *   server: { port: 3000, trustProxy: ['10.0.0.0/8'] },
 *   onResponse: [securityHeaders()],
 *   async start() {
 *     // open pools, run migrations
 *   },
 * })
 * ```
 */
export function defineApp<const C extends AppConfig>(config: C): C {
  return config
}

// Wrappers rather than the built-ins themselves: a direct `JSON.stringify(v)` call site is one V8
// inlines, which measurably beats calling the built-in through a property (about 20 ns a reply).
const defaultJsonLib: JsonLib = { encode: (v) => JSON.stringify(v), decode: (t) => JSON.parse(t) }

export function resolveConfig(config: AppConfig, env: NodeJS.ProcessEnv = process.env): ResolvedConfig {
  if (!config || typeof config.bootstrapApplication !== 'string' || config.bootstrapApplication === '') {
    throw new VelaError('VELA_ERR_CONFIG', 'defineApp: `bootstrapApplication` (the application name) is required')
  }
  const defaults = new Set<string>()
  const pick = <T>(key: string, value: T | undefined, fallback: T): T => {
    if (value !== undefined) return value
    defaults.add(key)
    return fallback
  }
  checkServerConfig(config.server)
  const s = config.server ?? {}
  const ws = s.websocket ?? {}
  const envPort = portFromEnv(env)
  const requestTimeout = pick('server.requestTimeout', s.requestTimeout, Math.max(60_000, s.headersTimeout ?? 0))
  return {
    bootstrapApplication: config.bootstrapApplication,
    environment: env.VELA_ENV || pick('environment', config.environment, 'dev'),
    server: {
      port: envPort ?? pick('server.port', s.port, 8080),
      host: pick('server.host', s.host, undefined),
      streamHandlers: pick('server.streamHandlers', s.streamHandlers, ['default'] as const),
      bodyLimit: pick('server.bodyLimit', s.bodyLimit, 1024 * 1024),
      maxUrlLength: pick('server.maxUrlLength', s.maxUrlLength, 8192),
      maxFields: pick('server.maxFields', s.maxFields, DEFAULT_MAX_FIELDS),
      keepAliveTimeout: pick('server.keepAliveTimeout', s.keepAliveTimeout, 5000),
      // A default gives way to the other timeout written (node requires headers <= request).
      headersTimeout: pick(
        'server.headersTimeout',
        s.headersTimeout,
        s.requestTimeout ? Math.min(20_000, s.requestTimeout) : 20_000,
      ),
      requestTimeout,
      handlerTimeout: pick('server.handlerTimeout', s.handlerTimeout, requestTimeout),
      sendTimeout: pick('server.sendTimeout', s.sendTimeout, DEFAULT_SEND_TIMEOUT),
      websocket: {
        maxMessageBytes: pick(
          'server.websocket.maxMessageBytes',
          ws.maxMessageBytes,
          WEBSOCKET_DEFAULTS.maxMessageBytes,
        ),
        maxBufferedBytes: pick(
          'server.websocket.maxBufferedBytes',
          ws.maxBufferedBytes,
          WEBSOCKET_DEFAULTS.maxBufferedBytes,
        ),
        maxMessagesPerSecond: pick(
          'server.websocket.maxMessagesPerSecond',
          ws.maxMessagesPerSecond,
          WEBSOCKET_DEFAULTS.maxMessagesPerSecond,
        ),
        idleTimeout: pick('server.websocket.idleTimeout', ws.idleTimeout, WEBSOCKET_DEFAULTS.idleTimeout),
        closeTimeout: pick('server.websocket.closeTimeout', ws.closeTimeout, WEBSOCKET_DEFAULTS.closeTimeout),
        allowedOrigins: pick('server.websocket.allowedOrigins', ws.allowedOrigins, WEBSOCKET_DEFAULTS.allowedOrigins),
        pubsub: pick('server.websocket.pubsub', ws.pubsub, undefined),
      },
      health: resolveHealth(pick('server.health', s.health, DEFAULT_HEALTH)),
      drainDelay: pick('server.drainDelay', s.drainDelay, 0),
      shutdownTimeout: pick('server.shutdownTimeout', s.shutdownTimeout, 10_000),
      trustProxy: env.VELA_TRUST_PROXY
        ? trustProxyFromEnv(env.VELA_TRUST_PROXY)
        : trustProxyList(pick('server.trustProxy', s.trustProxy, []), 'server.trustProxy'),
      requestId: resolveRequestId(pick('server.requestId', s.requestId, undefined)),
      options: pick('server.options', s.options, {}),
    },
    plugins: pick('plugins', config.plugins, []),
    onRequest: checkHooks<RequestHook>('onRequest', pick('onRequest', config.onRequest, [])),
    onResponse: checkHooks<ResponseHook>('onResponse', pick('onResponse', config.onResponse, [])),
    jsonLib: pick('jsonLib', config.jsonLib, defaultJsonLib),
    useStacktrace: pick('useStacktrace', config.useStacktrace, false),
    dispatchBackend: pick('dispatchBackend', config.dispatchBackend, 'compiled'),
    defaults,
  }
}

/**
 * The `PORT` variable as a port number (0: any free port), undefined when it is unset or empty;
 * a clear error for anything else.
 */
export function portFromEnv(env: NodeJS.ProcessEnv = process.env): number | undefined {
  if (!env.PORT) return undefined
  const port = Number(env.PORT)
  if (!(Number.isInteger(port) && port >= 0 && port < 65536))
    throw new VelaError('VELA_ERR_CONFIG', `PORT must be an integer from 0 to 65535, got ${JSON.stringify(env.PORT)}`)
  return port
}
