/**
 * Application configuration (the spec's `fw` application keys, §2.1). `defineApp` only types the
 * object; `resolveConfig` applies defaults and the environment overrides (`VELA_ENV`, `PORT`), and
 * remembers which keys kept their default so `vela config` can mark them `(default)`.
 */
import type { PluginEntry } from '../pipeline/plugin.ts'
import type { RouteSource } from '../router/types.ts'
import type { StreamHandler } from '../stream-handlers/stream-handlers.ts'
import type { ViewsConfig } from '../views/renderer.ts'
import type { CompressOptions } from '../compress/compress.ts'

export interface JsonLib {
  encode(value: unknown): string
  decode(text: string): unknown
}

export interface MetricsEvent {
  userData: Record<string, unknown>
  /** `process.hrtime.bigint()` nanoseconds, like the native time units of the spec. */
  reqStart: bigint
  reqEnd: bigint
  respStatus: number
  respBodyLength: number
}

export interface ServerConfig {
  port?: number
  host?: string
  /** Wrappers around every request, outermost first; `'default'` is the dispatcher itself. */
  streamHandlers?: readonly (StreamHandler | 'default')[]
  /** Largest request body read, in bytes (default 1 MiB); larger is a 413. */
  bodyLimit?: number
  /** Longest request target accepted, in bytes (default 8 KiB); longer is a 414. */
  maxUrlLength?: number
  /** Idle keep-alive connections close after this many ms (default 5000). */
  keepAliveTimeout?: number
  /** A client must send all request headers within this many ms (default 20000). */
  headersTimeout?: number
  /** A client must send the whole request within this many ms (default 60000). */
  requestTimeout?: number
  options?: {
    /** gzip/brotli for textual bodies at or above `threshold` bytes (default 1024) when the client accepts it. */
    compress?: boolean | CompressOptions
    metricsCallback?: (event: MetricsEvent) => void
  }
}

/** Module namespaces keyed by file path or name, as `import.meta.glob(…, { eager: true })` gives them. */
export type ModuleMap<T> = Readonly<Record<string, T>>

export interface AppConfig {
  /** The application's name (spec: `bootstrap_application`). Required. */
  bootstrapApplication: string
  /** `dev` unless set; `VELA_ENV` overrides. */
  environment?: string
  server?: ServerConfig
  /** The global plugin list (groups without `plugins` inherit it). */
  plugins?: readonly PluginEntry[]
  jsonLib?: JsonLib
  /** Include stack traces in error responses (default false). */
  useStacktrace?: boolean
  /** Router implementation holding the compiled routes: `compiled` (generated matcher, default) or `tree` (radix tree walk). */
  dispatchBackend?: 'compiled' | 'tree'
  /**
   * Route modules: `{ 'src/routes/api.ts': module }` or `{ api: group }`. Optional: under the Vite
   * plugin, `src/routes/*.ts` are discovered and merged in.
   */
  routes?: ModuleMap<RouteSource | { default: RouteSource }>
  /** Liquid templates for `view(...)` replies (default `{ dir: 'src/views' }`). */
  views?: ViewsConfig
  /** Controller modules: their exported functions get `{ controller, action }` identities. */
  controllers?: ModuleMap<Record<string, unknown>>
  /** Called before the server accepts requests (open pools, run migrations, warm caches). */
  start?: (app: { config: ResolvedConfig }) => void | Promise<void>
  /** Called on shutdown (close pools, flush telemetry). */
  stop?: () => void | Promise<void>
}

export interface ResolvedConfig {
  bootstrapApplication: string
  environment: string
  server: Required<Omit<ServerConfig, 'options' | 'host'>> & { host: string | undefined; options: NonNullable<ServerConfig['options']> }
  plugins: readonly PluginEntry[]
  jsonLib: JsonLib
  useStacktrace: boolean
  dispatchBackend: 'compiled' | 'tree'
  /** Keys (dotted for `server.*`) that kept their built-in default. */
  defaults: ReadonlySet<string>
}

export function defineApp<const C extends AppConfig>(config: C): C {
  return config
}

const defaultJsonLib: JsonLib = { encode: (v) => JSON.stringify(v), decode: (t) => JSON.parse(t) }

export function resolveConfig(config: AppConfig, env: NodeJS.ProcessEnv = process.env): ResolvedConfig {
  if (!config || typeof config.bootstrapApplication !== 'string' || config.bootstrapApplication === '') {
    throw new Error('defineApp: `bootstrapApplication` (the application name) is required')
  }
  const defaults = new Set<string>()
  const pick = <T>(key: string, value: T | undefined, fallback: T): T => {
    if (value !== undefined) return value
    defaults.add(key)
    return fallback
  }
  const s = config.server ?? {}
  const envPort = env.PORT ? Number(env.PORT) : undefined
  if (envPort !== undefined && !(Number.isInteger(envPort) && envPort >= 0 && envPort < 65536)) {
    throw new Error(`PORT must be an integer from 0 to 65535, got ${JSON.stringify(env.PORT)}`)
  }
  return {
    bootstrapApplication: config.bootstrapApplication,
    environment: env.VELA_ENV || pick('environment', config.environment, 'dev'),
    server: {
      port: envPort ?? pick('server.port', s.port, 8080),
      host: pick('server.host', s.host, undefined),
      streamHandlers: pick('server.streamHandlers', s.streamHandlers, ['default'] as const),
      bodyLimit: pick('server.bodyLimit', s.bodyLimit, 1024 * 1024),
      maxUrlLength: pick('server.maxUrlLength', s.maxUrlLength, 8192),
      keepAliveTimeout: pick('server.keepAliveTimeout', s.keepAliveTimeout, 5000),
      headersTimeout: pick('server.headersTimeout', s.headersTimeout, 20_000),
      requestTimeout: pick('server.requestTimeout', s.requestTimeout, 60_000),
      options: pick('server.options', s.options, {}),
    },
    plugins: pick('plugins', config.plugins, []),
    jsonLib: pick('jsonLib', config.jsonLib, defaultJsonLib),
    useStacktrace: pick('useStacktrace', config.useStacktrace, false),
    dispatchBackend: pick('dispatchBackend', config.dispatchBackend, 'compiled'),
    defaults,
  }
}
