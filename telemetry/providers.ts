/**
 * The OpenTelemetry providers `setupTelemetry()` sends Vela's spans and metrics to: the app's own when it
 * registered an SDK first (`node --import ./instrumentation.mjs`, its own `NodeSDK.start()`), or
 * else a `NodeSDK` (`@opentelemetry/sdk-node`) that Vela starts, configured by the standard
 * `OTEL_*` variables as every OpenTelemetry user expects: `OTEL_TRACES_EXPORTER`,
 * `OTEL_TRACES_SAMPLER`/`_ARG`, `OTEL_EXPORTER_OTLP_PROTOCOL` (`http/protobuf`, `http/json`,
 * `grpc`), `OTEL_EXPORTER_OTLP_*ENDPOINT`, `OTEL_PROPAGATORS`, `OTEL_RESOURCE_ATTRIBUTES`,
 * `OTEL_NODE_RESOURCE_DETECTORS`, `OTEL_SDK_DISABLED`. `setupTelemetry()`'s options win over the variables.
 *
 * Joining: when a tracer provider is registered already, Vela registers nothing (no second
 * registration, so no "duplicate registration" errors) and uses the registered tracer provider,
 * meter provider, propagator and context manager; the app's SDK decides exporters and sampling.
 *
 * Sampling: Vela's SDK gets a `RequestSampler` (sampling.ts) around the `sampler` option (else
 * `OTEL_TRACES_SAMPLER`) as its sampler and id generator, so the request span's decision is asked
 * before the span is built. When nothing receives spans (`spanProcessors: []`,
 * `OTEL_TRACES_EXPORTER=none`) no tracer provider is registered and no spans are made. A joined
 * SDK samples in its own `startSpan` (`JOINED`: every request asks it).
 */
import type { MeterProvider, TextMapPropagator, TracerProvider } from '@opentelemetry/api'
import { context, metrics, propagation, ProxyTracerProvider, trace } from '@opentelemetry/api'
import type { IMetricReader, PushMetricExporter } from '@opentelemetry/sdk-metrics'
import { ConsoleMetricExporter, PeriodicExportingMetricReader } from '@opentelemetry/sdk-metrics'
import { NodeSDK } from '@opentelemetry/sdk-node'
import type { Sampler, SpanProcessor } from '@opentelemetry/sdk-trace'
import { otlpMetricExporter } from './otlp-exporters.ts'
import { samplerFromEnv } from './env-sampler.ts'
import type { SpanDecision } from './sampling.ts'
import { JOINED, RequestSampler } from './sampling.ts'
import { detectResource } from './resource.ts'
import { withEnv } from './with-env.ts'

type MetricReader = IMetricReader

export interface ProviderOptions {
  readonly serviceName?: string
  readonly endpoint?: string
  readonly spanProcessors?: readonly SpanProcessor[]
  readonly exportIntervalMs?: number
  readonly metricReaders?: readonly MetricReader[]
  readonly sampler?: Sampler
}

export interface Providers {
  /** The registered tracer provider (a no-op one when nothing exports spans). */
  readonly tracerProvider: TracerProvider
  /** The registered meter provider, when there is one. */
  readonly meterProvider: MeterProvider | undefined
  /** The registered propagator (`OTEL_PROPAGATORS`, default W3C trace context + baggage). */
  readonly propagator: TextMapPropagator
  /** The request spans' sampler; undefined when nothing receives spans. */
  readonly sampler: SpanDecision | undefined
  /** True when Vela's metrics go somewhere besides `/metrics` (an OTLP or console reader, or the app's own SDK). */
  readonly metricsExported: boolean
  /** True when the providers are the app's own SDK's, registered before `setupTelemetry()`. */
  readonly joined: boolean
  /** Flushes the providers Vela started (an app's own SDK is flushed by the app). */
  forceFlush(): Promise<void>
  /** Unregisters what this call registered (and only that) and shuts its SDK down. */
  shutdown(): Promise<void>
}

/** The global registry `@opentelemetry/api` (every copy of major version 1) keeps its providers in. */
const API_GLOBAL = Symbol.for('opentelemetry.js.api.1')
type ApiGlobal = Partial<Record<'trace' | 'metrics' | 'context' | 'propagation', unknown>>

/**
 * What is registered already. The api offers no query for it: registering a second time is how it
 * tells, and that logs an error per signal.
 */
function registered(): ApiGlobal {
  return ((globalThis as Record<symbol, ApiGlobal | undefined>)[API_GLOBAL] ?? {}) as ApiGlobal
}

/** The global propagator, whichever is registered when a request comes (it is looked up per call). */
const globalPropagator: TextMapPropagator = {
  inject: (ctx, carrier, setter) => propagation.inject(ctx, carrier, setter),
  extract: (ctx, carrier, getter) => propagation.extract(ctx, carrier, getter),
  fields: () => propagation.fields(),
}

const tracerDelegate = (): TracerProvider => {
  const provider = trace.getTracerProvider()
  return provider instanceof ProxyTracerProvider ? provider.getDelegate() : provider
}
const registeredMeterProvider = (): MeterProvider | undefined =>
  registered().metrics ? metrics.getMeterProvider() : undefined

export async function createProviders(options: ProviderOptions): Promise<Providers> {
  if (registered().trace) {
    return {
      tracerProvider: tracerDelegate(),
      meterProvider: registeredMeterProvider(),
      propagator: globalPropagator,
      sampler: JOINED,
      metricsExported: true,
      joined: true,
      forceFlush: async () => {},
      shutdown: async () => {},
    }
  }
  const before = { ...registered() }
  const sampler = new RequestSampler(options.sampler ?? samplerFromEnv())
  const exporting = exportingMetricReaders(options)
  const sdk = new NodeSDK({
    resource: await detectResource(options.serviceName),
    autoDetectResources: false,
    sampler,
    idGenerator: sampler,
    spanProcessors: options.spanProcessors ? [...options.spanProcessors] : undefined,
    metricReaders: [...(options.metricReaders ?? []), ...exporting],
  })
  // The SDK builds its exporters from the variables when it starts; `endpoint` is the standard
  // OTEL_EXPORTER_OTLP_ENDPOINT (the signal's path appended over HTTP), for that start only. No
  // log exporter unless OTEL_LOGS_EXPORTER asks for one: Vela logs through its own logger.
  const base = options.endpoint?.replace(/\/+$/, '')
  withEnv(
    {
      ...(base ? { OTEL_EXPORTER_OTLP_ENDPOINT: base, OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: undefined } : {}),
      ...(process.env.OTEL_LOGS_EXPORTER ? {} : { OTEL_LOGS_EXPORTER: 'none' }),
    },
    () => sdk.start(),
  )
  const tracerProvider = tracerDelegate()
  const meterProvider = registeredMeterProvider()
  // The SDK registers a tracer provider only when something receives spans.
  const tracing = registered().trace !== undefined
  const flushable = [tracerProvider, meterProvider] as Array<{ forceFlush?(): Promise<void> } | undefined>
  return {
    tracerProvider,
    meterProvider,
    propagator: globalPropagator,
    sampler: tracing ? sampler : undefined,
    metricsExported: exporting.length > 0,
    joined: false,
    async forceFlush() {
      await Promise.all(flushable.map((p) => p?.forceFlush?.()))
    },
    async shutdown() {
      const now = registered()
      if (!before.trace && now.trace) trace.disable()
      if (!before.metrics && now.metrics) metrics.disable()
      if (!before.propagation && now.propagation) propagation.disable()
      if (!before.context && now.context) context.disable()
      await sdk.shutdown()
    },
  }
}

/**
 * `metricReaders`, plus a reader exporting Vela's and the app's metrics: over OTLP every
 * `exportIntervalMs` when that option is set, else as `OTEL_METRICS_EXPORTER` asks (`otlp` every
 * `OTEL_METRIC_EXPORT_INTERVAL` ms, default 60 s; `console`). The SDK would build those itself, but
 * only when it is given no reader at all, and Vela always gives it the one behind `/metrics`.
 * Without either, no metrics go over OTLP (Vela's HTTP metrics are on `/metrics`), so an app with
 * no collector sends nothing. `prometheus` is served by `setupTelemetry({ prometheus })` instead.
 */
export function exportingMetricReaders(
  options: Pick<ProviderOptions, 'endpoint' | 'exportIntervalMs'>,
  env: NodeJS.ProcessEnv = process.env,
): MetricReader[] {
  const base = options.endpoint?.replace(/\/+$/, '')
  const periodic = (exporter: PushMetricExporter, interval: number) =>
    new PeriodicExportingMetricReader({
      exporter,
      exportIntervalMillis: interval,
      // The SDK insists the timeout is not longer than the interval.
      exportTimeoutMillis: Math.min(Number(env.OTEL_METRIC_EXPORT_TIMEOUT) || 30_000, interval),
    })
  if (options.exportIntervalMs !== undefined) return [periodic(otlpMetricExporter(base), options.exportIntervalMs)]
  const interval = Number(env.OTEL_METRIC_EXPORT_INTERVAL) || 60_000
  const names = new Set((env.OTEL_METRICS_EXPORTER ?? '').split(',').map((n) => n.trim()))
  const readers: MetricReader[] = []
  if (names.has('otlp')) readers.push(periodic(otlpMetricExporter(base), interval))
  if (names.has('console')) readers.push(periodic(new ConsoleMetricExporter(), interval))
  return readers
}
