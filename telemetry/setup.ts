/**
 * `setup(options?)`: turns telemetry on for the process. Call it from the app's `start` hook and
 * `shutdown()` the handle from its `stop` hook:
 *
 *   let telemetry: Telemetry | undefined
 *   defineApp({ ..., server: { streamHandlers: [telemetryStreamHandler, 'default'] },
 *     async start() { telemetry = await setup({ serviceName: 'shop', prometheus: { port: 9464 } }) },
 *     async stop() { await telemetry?.shutdown() } })
 *
 * It starts OpenTelemetry's `NodeSDK`, configured by the standard `OTEL_*` variables and these
 * options, or joins the SDK the app registered first (providers.ts); builds the HTTP instruments
 * (instruments.ts); and with `prometheus` serves `GET /metrics`.
 * Without `prometheus` no server is started; `metrics()` still gives the exposition text.
 * Until `setup()` runs (and after `shutdown()`), `telemetryStreamHandler` passes requests through.
 * One set-up at a time: a second `setup()` before `shutdown()` throws.
 * The SDK, prom-client and the `/metrics` server are imported by the first call (sdk.ts), not with
 * `vela/telemetry`, so importing the app's modules without starting it stays light.
 *
 * With several workers (`VELA_WORKERS`, server/cluster/) the same call in the start hook does
 * what fits the process (cluster-metrics.ts): in a worker it binds no port and reports its
 * registry to the primary; in the primary, `GET /metrics` and `metrics()` give the sum of every
 * worker's registry (and the primary's own). `prometheusUrl` is undefined in a worker.
 *
 * `shutdown()` is bounded (`shutdownTimeoutMs`, 1000 ms): the final export of what the batch
 * processor and the readers still hold is waited for that long, then given up with one warning
 * (those spans and metrics are dropped; the export finishes or fails on its own). **Choice:** a
 * collector that is up answers an export in milliseconds; one that is down or unreachable would
 * hold the exporter's retries for its whole timeout (10 s), which a `stop` hook, a dev server's
 * swap or a deploy's shutdown should not wait for. Everything else (the globals, `/metrics`) is
 * undone at once.
 */
import type { MeterProvider, Tracer, TextMapPropagator, TracerProvider } from '@opentelemetry/api'
import { trace } from '@opentelemetry/api'
import type { IMetricReader } from '@opentelemetry/sdk-metrics'
import type { Sampler, SpanProcessor } from '@opentelemetry/sdk-trace'
import type { Registry } from 'prom-client'
import type { MetricsFormat } from './exposition.ts'
import type { HttpInstruments } from './instruments.ts'
import type { ClusterMetrics } from './cluster-metrics.ts'
import type { MetricsSource, PrometheusOptions, PrometheusServer } from './prometheus.ts'
import type { SpanDecision } from './sampling.ts'
import type { RedactQuery } from './url-query.ts'
import { queryRedactor } from './url-query.ts'
import { clusterRole } from '../server/cluster/role.ts'
import { warnDeprecated } from '../server/deprecation.ts'
import { VelaError } from '../server/errors/vela-error.ts'

type SdkModule = typeof import('./sdk.ts')

/** What `setup()` takes: the service name, where traces and metrics go, `/metrics`, sampling and query redaction. */
export interface TelemetryOptions {
  /** `service.name` of the resource; default `OTEL_SERVICE_NAME`, else the SDK's `unknown_service:node`. */
  serviceName?: string
  /**
   * OTLP base URL (`http://collector:4318`): traces go to `<endpoint>/v1/traces`, metrics to
   * `<endpoint>/v1/metrics`. Default: the standard `OTEL_EXPORTER_OTLP_*` variables.
   */
  endpoint?: string
  /** Export metrics over OTLP every this many milliseconds. Default: no OTLP metrics. */
  exportIntervalMs?: number
  /**
   * Serve `GET /metrics` on this port (the Prometheus text format, or OpenMetrics with exemplars
   * when the scraper's Accept asks for it), on 127.0.0.1 unless `host` (or
   * `OTEL_EXPORTER_PROMETHEUS_HOST`) says otherwise: it has no authentication.
   */
  prometheus?: PrometheusOptions
  /** Replaces the default batch processor + OTLP exporter (tests, other exporters; `[]` exports nothing). */
  spanProcessors?: readonly SpanProcessor[]
  /**
   * Which traces are recorded: an OpenTelemetry `Sampler` (`new ParentBasedSampler({ root: new
   * TraceIdRatioBasedSampler(0.1) })`). Default: `OTEL_TRACES_SAMPLER`/`OTEL_TRACES_SAMPLER_ARG`,
   * else parent-based, every new trace sampled. A request not sampled makes no span, and its
   * queries none either.
   */
  sampler?: Sampler
  /**
   * Query keys whose values the request span's `url.query` shows as `REDACTED` (added to the
   * signature keys always redacted), or a function from the query string to what to record
   * (undefined: no `url.query`).
   */
  redactQuery?: RedactQuery
  /** Extra metric readers (an OpenTelemetry Prometheus exporter, an in-memory reader in tests). */
  metricReaders?: readonly IMetricReader[]
  /** How long `shutdown()` waits for the final export before dropping it (default 1000 ms). */
  shutdownTimeoutMs?: number
}

/** The running telemetry `setup()` returns. */
export interface Telemetry {
  /**
   * The registered tracer provider: the SDK's Vela started, or the app's own when it registered
   * one before `setup()` (a no-op provider when nothing exports spans, e.g. `OTEL_TRACES_EXPORTER=none`).
   */
  readonly tracerProvider: TracerProvider
  /**
   * The meter provider registered for the process: what the app records through
   * `metrics.getMeter(...)` is served on `/metrics` (and exported with `exportIntervalMs`).
   */
  readonly meterProvider: MeterProvider | undefined
  /** True when Vela joined an OpenTelemetry SDK the app registered before `setup()`. */
  readonly joined: boolean
  /**
   * The prom-client registry `/metrics` serves: the HTTP metrics and the app's OpenTelemetry
   * metrics; prom-client metrics registered on it are served too.
   */
  readonly registry: Registry
  /** `http://host:port/metrics` when `prometheus` was given (never in a cluster worker: the primary serves it). */
  readonly prometheusUrl: string | undefined
  /**
   * The exposition `/metrics` serves, served or not (in a cluster's primary, the sum of the
   * workers'): the Prometheus text format, or with `'openmetrics'` the OpenMetrics text, whose
   * duration buckets carry the trace of a sampled request as an exemplar.
   */
  metrics(format?: MetricsFormat): Promise<string>
  /** Exports the spans (and metrics) recorded so far. */
  forceFlush(): Promise<void>
  /**
   * Unregisters the global providers, closes the metrics server, flushes and stops the exporters;
   * waits for the final export at most `shutdownTimeoutMs`.
   */
  shutdown(): Promise<void>
}

/** What the stream handler needs per request. */
export interface ActiveTelemetry {
  readonly tracer: Tracer
  /** Asks whether a request is traced before its span is built; undefined when nothing receives spans. */
  readonly sampler: SpanDecision | undefined
  readonly propagator: TextMapPropagator
  /** The request's query string as `url.query` records it. */
  readonly urlQuery: (query: string) => string | undefined
  readonly instruments: HttpInstruments
}

let active: ActiveTelemetry | undefined

/** The running set-up, if any (read by the stream handler on every request). */
export function activeTelemetry(): ActiveTelemetry | undefined {
  return active
}

/**
 * Turns telemetry on for the process: starts OpenTelemetry's SDK (configured by `options` and the
 * standard `OTEL_*` variables, or uses the tracer provider the app registered first), the HTTP
 * metrics, and with `prometheus` a `GET /metrics` endpoint. Call it in the app's `start` hook and
 * `shutdown()` the handle in `stop`. With `OTEL_SDK_DISABLED=true` it starts nothing (no SDK, no
 * `/metrics` server) and requests pass through untouched.
 *
 * @example
 * ```ts
 * import { setupTelemetry, type Telemetry } from 'vela/telemetry'
 *
 * let telemetry: Telemetry | undefined
 * export const hooks = {
 *   async start() {
 *     telemetry = await setupTelemetry({ serviceName: 'shop', prometheus: { port: 9464 } })
 *   },
 *   async stop() {
 *     await telemetry?.shutdown()
 *   },
 * }
 * ```
 */
export async function setupTelemetry(options: TelemetryOptions = {}): Promise<Telemetry> {
  if (active)
    throw new VelaError(
      'VELA_ERR_TELEMETRY',
      'vela/telemetry: setupTelemetry() was already called; shutdown() the first handle before setting up again',
    )
  // The SDK is loaded now, not with `vela/telemetry` (sdk.ts).
  const {
    AppMetricsReader,
    clusterMetrics,
    createHttpInstruments,
    createProviders,
    exposition,
    reportToPrimary,
    servePrometheus,
  } = await import('./sdk.ts')
  if (sdkDisabled()) return disabled(createHttpInstruments, exposition)
  // The app's OpenTelemetry metrics are read into the registry /metrics serves (app-metrics.ts).
  const appMetrics = new AppMetricsReader()
  const providers = await createProviders({ ...options, metricReaders: [...(options.metricReaders ?? []), appMetrics] })
  const { tracerProvider, meterProvider } = providers
  // Vela's HTTP instruments go through OpenTelemetry only when something else reads them.
  const exported = providers.metricsExported || (options.metricReaders?.length ?? 0) > 0
  const instruments = createHttpInstruments(exported ? meterProvider?.getMeter('vela') : undefined, appMetrics)
  const role = clusterRole()?.role
  // In a cluster, the primary serves the workers' sum and the workers serve nothing.
  const summed: ClusterMetrics | undefined = role === 'primary' ? clusterMetrics(instruments.registry) : undefined
  const source: MetricsSource = summed ?? {
    metrics: (format = 'prometheus') => exposition(instruments.registry, format),
  }
  let server: PrometheusServer | undefined
  try {
    if (options.prometheus && role !== 'worker') server = await servePrometheus(source, options.prometheus)
  } catch (err) {
    summed?.close()
    await providers.shutdown()
    throw err
  }
  const stopReporting = role === 'worker' ? reportToPrimary(instruments.registry) : undefined
  const mine: ActiveTelemetry = {
    tracer: tracerProvider.getTracer('vela'),
    sampler: providers.sampler,
    urlQuery: queryRedactor(options.redactQuery),
    propagator: providers.propagator,
    instruments,
  }
  active = mine

  let closing: Promise<void> | undefined
  return {
    tracerProvider,
    meterProvider,
    joined: providers.joined,
    registry: instruments.registry,
    prometheusUrl: server?.url,
    metrics: (format) => source.metrics(format),
    forceFlush: () => providers.forceFlush(),
    shutdown() {
      return (closing ??= (async () => {
        if (active === mine) active = undefined
        stopReporting?.()
        summed?.close()
        const closed = server?.close()
        // The SDK's shutdown flushes what the batch processor and the readers still hold.
        const exported = providers.shutdown()
        let timer: NodeJS.Timeout | undefined
        const ms = options.shutdownTimeoutMs ?? 1000
        const late = new Promise<'late'>((resolve) => (timer = setTimeout(() => resolve('late'), ms)))
        try {
          if ((await Promise.race([exported, late])) === 'late') {
            exported.catch(() => {})
            console.warn(
              `vela/telemetry: the final export did not finish within ${ms} ms (is the collector reachable?); the spans and metrics not yet exported are dropped`,
            )
          }
        } finally {
          clearTimeout(timer)
          await closed
        }
      })())
    },
  }
}

/** `OTEL_SDK_DISABLED=true` (any case), as the OpenTelemetry SDKs read it. */
const sdkDisabled = () => process.env.OTEL_SDK_DISABLED?.trim().toLowerCase() === 'true'

/** The handle of a disabled set-up: nothing registered, nothing served, nothing to undo. */
function disabled(
  createHttpInstruments: SdkModule['createHttpInstruments'],
  exposition: SdkModule['exposition'],
): Telemetry {
  const { registry } = createHttpInstruments(undefined)
  return {
    tracerProvider: trace.getTracerProvider(),
    meterProvider: undefined,
    joined: false,
    registry,
    prometheusUrl: undefined,
    metrics: (format = 'prometheus') => exposition(registry, format),
    forceFlush: async () => {},
    shutdown: async () => {},
  }
}

/**
 * The older name of `setupTelemetry`.
 *
 * @deprecated Use `setupTelemetry(options)`.
 *
 * @example
 * ```ts
 * import { setupTelemetry } from 'vela/telemetry'
 *
 * // Before: const telemetry = await setup({ serviceName: 'shop' })
 * export const telemetry = await setupTelemetry({ serviceName: 'shop' })
 * ```
 */
export function setup(options: TelemetryOptions = {}): Promise<Telemetry> {
  warnDeprecated('VELA_DEP_TELEMETRY_SETUP', "vela/telemetry's setup() is deprecated: call setupTelemetry()")
  return setupTelemetry(options)
}
