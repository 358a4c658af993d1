/**
 * `vela config`: every framework config value (`ResolvedConfig`) after defaults and the
 * environment overrides, one per line; a value that comes from the built-in defaults is marked
 * `(default)`, one taken from `VELA_ENV` or `PORT` says so.
 *
 *   bootstrapApplication           playground
 *   environment                    dev (default)
 *   server.port                    8080 (default)
 *   server.host                    (all interfaces) (default)
 *   server.streamHandlers          [default] (default)
 *   …
 *   plugins                        [] (default)
 *   onResponse                     [securityHeaders]
 *   jsonLib                        built-in JSON (default)
 *   useStacktrace                  false (default)
 *   dispatchBackend                compiled (default)
 *
 * Lists show names (`[metrics, default]`, `[pre_request request {"json":true}]`,
 * `onRequest`'s and `onResponse`'s hooks by function name), a
 * function shows as `<function name>`. `--json`: `{ "config": [{ key, value, default, source }] }`
 * with `value` JSON-safe (functions as `"<function name>"`), `default` a boolean and `source` one of
 * `default`, `app`, `env` (`VELA_ENV` / `PORT` / `VELA_TRUST_PROXY`).
 *
 * Secrets: plugin options, and any value, whose key names a secret (`secret`, `password`,
 * `token`, `key`…; the exact rule is in redact.ts) show as `[redacted]`, in text and JSON.
 */
import type { ResolvedConfig } from '../../../server/app/config.ts'
import { entryPhases } from '../../../server/pipeline/registration.ts'
import { align, describePlugin, toJsonValue } from './describe.ts'
import { isSecretKey } from './redact.ts'

export interface ConfigEntry {
  readonly key: string
  readonly value: unknown
  readonly default: boolean
  readonly source: 'default' | 'app' | 'env'
}

/** The keys an environment variable overrides, and the variable. */
const ENV_OVERRIDES: Readonly<Record<string, string>> = {
  environment: 'VELA_ENV',
  'server.port': 'PORT',
  'server.trustProxy': 'VELA_TRUST_PROXY',
}

const jsonLibLabel = (config: ResolvedConfig) =>
  config.defaults.has('jsonLib') ? 'built-in JSON' : 'custom { encode, decode }'

export function configEntries(config: ResolvedConfig, env: NodeJS.ProcessEnv = process.env): ConfigEntry[] {
  const s = config.server
  const options = s.options
  const entry = (key: string, value: unknown): ConfigEntry => {
    const envVar = ENV_OVERRIDES[key]
    const fromEnv = envVar !== undefined && !!env[envVar]
    const isDefault = !fromEnv && config.defaults.has(key)
    return {
      key,
      value: toJsonValue(value, isSecretKey(key)),
      default: isDefault,
      source: fromEnv ? 'env' : isDefault ? 'default' : 'app',
    }
  }
  const optionEntry = (name: 'compress' | 'metricsCallback', fallback: unknown): ConfigEntry => {
    const set = options[name] !== undefined
    return {
      key: `server.options.${name}`,
      value: toJsonValue(set ? options[name] : fallback, isSecretKey(name)),
      default: !set,
      source: set ? 'app' : 'default',
    }
  }
  return [
    entry('bootstrapApplication', config.bootstrapApplication),
    entry('environment', config.environment),
    entry('server.port', s.port),
    entry('server.host', s.host),
    entry(
      'server.streamHandlers',
      s.streamHandlers.map((h) => (h === 'default' ? 'default' : h.name)),
    ),
    entry('server.bodyLimit', s.bodyLimit),
    entry('server.maxUrlLength', s.maxUrlLength),
    entry('server.maxFields', s.maxFields),
    entry('server.keepAliveTimeout', s.keepAliveTimeout),
    entry('server.headersTimeout', s.headersTimeout),
    entry('server.requestTimeout', s.requestTimeout),
    entry('server.handlerTimeout', s.handlerTimeout),
    entry('server.sendTimeout', s.sendTimeout),
    entry('server.trustProxy', s.trustProxy),
    entry('server.requestId', s.requestId),
    entry('server.health', s.health.live === null && s.health.ready === null ? false : s.health),
    entry('server.drainDelay', s.drainDelay),
    entry('server.shutdownTimeout', s.shutdownTimeout),
    entry('server.websocket.maxMessageBytes', s.websocket.maxMessageBytes),
    entry('server.websocket.maxBufferedBytes', s.websocket.maxBufferedBytes),
    entry('server.websocket.maxMessagesPerSecond', s.websocket.maxMessagesPerSecond),
    entry('server.websocket.idleTimeout', s.websocket.idleTimeout),
    entry('server.websocket.closeTimeout', s.websocket.closeTimeout),
    entry('server.websocket.allowedOrigins', s.websocket.allowedOrigins),
    entry('server.websocket.pubsub', s.websocket.pubsub),
    optionEntry('compress', false),
    optionEntry('metricsCallback', null),
    entry(
      'plugins',
      config.plugins.flatMap((entry) => entryPhases(entry).map(describePlugin)),
    ),
    entry(
      'onRequest',
      config.onRequest.map((hook) => hook.name || 'anonymous'),
    ),
    entry(
      'onResponse',
      config.onResponse.map((hook) => hook.name || 'anonymous'),
    ),
    entry('jsonLib', jsonLibLabel(config)),
    entry('useStacktrace', config.useStacktrace),
    entry('dispatchBackend', config.dispatchBackend),
  ]
}

function valueText(entry: ConfigEntry): string {
  const v = entry.value
  if (entry.key === 'server.host' && v === null) return '(all interfaces)'
  if (entry.key === 'plugins') {
    const list = v as { phase: string; plugin: string; options: unknown }[]
    return `[${list.map((p) => `${p.phase} ${p.plugin} ${JSON.stringify(p.options)}`).join(', ')}]`
  }
  if (Array.isArray(v)) return `[${v.join(', ')}]`
  if (v === null) return '(none)'
  if (typeof v === 'object') return JSON.stringify(v)
  return String(v)
}

export function formatConfig(config: ResolvedConfig, env: NodeJS.ProcessEnv = process.env): string {
  const rows = configEntries(config, env).map((e) => {
    const mark = e.default ? ' (default)' : e.source === 'env' ? ` (from ${ENV_OVERRIDES[e.key]})` : ''
    return [e.key, valueText(e) + mark]
  })
  return align(rows).join('\n')
}
