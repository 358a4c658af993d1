/**
 * The OpenTelemetry SDK objects `setup()` builds, and their registration as the process-wide
 * providers of `@opentelemetry/api` (so `vela/dbl`'s query spans and the app's own spans and
 * metrics go to the same place, and `context.with` carries the request span across awaits).
 *
 * Traces: a batch span processor in front of the OTLP http/protobuf exporter. Its URL is
 * `<endpoint>/v1/traces` when `endpoint` is given; otherwise the exporter reads the standard
 * variables itself (`OTEL_EXPORTER_OTLP_TRACES_ENDPOINT` as is, else `OTEL_EXPORTER_OTLP_ENDPOINT`
 * + `/v1/traces`, else `http://localhost:4318/v1/traces`). Metrics over OTLP (`/v1/metrics`) only
 * with `exportIntervalMs`.
 *
 * Sampling: the provider's sampler is a `RequestSampler` (sampling.ts) around the `sampler`
 * option (default parent-based, always on for new traces), so the request span's decision is
 * asked before the span is built. With no span processor (`spanProcessors: []`) the tracer
 * provider is not registered globally: nothing would receive spans, so none are made, by the
 * request handler, `vela/dbl` or the app.
 */
import { context, diag, metrics, propagation, trace } from '@opentelemetry/api'
import type { TextMapPropagator } from '@opentelemetry/api'
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks'
import { W3CTraceContextPropagator } from '@opentelemetry/core'
import { OTLPMetricExporter } from '@opentelemetry/exporter-metrics-otlp-proto'
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-proto'
import type { Resource } from '@opentelemetry/resources'
import { defaultResource, detectResources, envDetector, resourceFromAttributes } from '@opentelemetry/resources'
import type { MetricReader } from '@opentelemetry/sdk-metrics'
import { MeterProvider, PeriodicExportingMetricReader } from '@opentelemetry/sdk-metrics'
import type { Sampler, SpanProcessor } from '@opentelemetry/sdk-trace'
import { BatchSpanProcessor, TracerProvider } from '@opentelemetry/sdk-trace'
import { ATTR_SERVICE_NAME } from '@opentelemetry/semantic-conventions'
import { RequestSampler } from './sampling.ts'

export interface ProviderOptions {
  readonly serviceName?: string
  readonly endpoint?: string
  readonly spanProcessors?: readonly SpanProcessor[]
  readonly sampler?: Sampler
  readonly exportIntervalMs?: number
  readonly metricReaders?: readonly MetricReader[]
}

export interface Providers {
  readonly tracerProvider: TracerProvider
  /** Present when metrics are exported over OTLP (`exportIntervalMs`) or `metricReaders` are given. */
  readonly meterProvider: MeterProvider | undefined
  readonly propagator: TextMapPropagator
  /** The request spans' sampler; undefined when nothing receives spans (no span processor). */
  readonly sampler: RequestSampler | undefined
  /** Undoes the global registrations this call made (and only those). */
  unregister(): void
}

export function createProviders(options: ProviderOptions): Providers {
  const resource = buildResource(options.serviceName)
  const base = options.endpoint?.replace(/\/+$/, '')
  const spanProcessors = options.spanProcessors
    ? [...options.spanProcessors]
    : [new BatchSpanProcessor({ exporter: new OTLPTraceExporter(base ? { url: `${base}/v1/traces` } : {}) })]
  const sampler = new RequestSampler(options.sampler)
  const tracerProvider = new TracerProvider({ resource, spanProcessors, sampler, idGenerator: sampler })
  const tracing = spanProcessors.length > 0

  const readers: MetricReader[] = [...(options.metricReaders ?? [])]
  if (options.exportIntervalMs !== undefined) {
    readers.push(
      new PeriodicExportingMetricReader({
        exporter: new OTLPMetricExporter(base ? { url: `${base}/v1/metrics` } : {}),
        exportIntervalMillis: options.exportIntervalMs,
        // The SDK insists the timeout is not longer than the interval.
        exportTimeoutMillis: Math.min(30_000, options.exportIntervalMs),
      }),
    )
  }
  const meterProvider = readers.length > 0 ? new MeterProvider({ resource, readers }) : undefined
  const propagator = new W3CTraceContextPropagator()

  const contextManager = new AsyncLocalStorageContextManager().enable()
  const registered = {
    trace: tracing && trace.setGlobalTracerProvider(tracerProvider),
    context: context.setGlobalContextManager(contextManager),
    propagation: propagation.setGlobalPropagator(propagator),
    metrics: meterProvider ? metrics.setGlobalMeterProvider(meterProvider) : false,
  }
  if (!registered.context) {
    contextManager.disable()
    diag.warn('vela/telemetry: a context manager was already registered; request spans use it')
  }
  return {
    tracerProvider,
    meterProvider,
    propagator,
    sampler: tracing ? sampler : undefined,
    unregister() {
      if (registered.trace) trace.disable()
      if (registered.context) context.disable()
      if (registered.propagation) propagation.disable()
      if (registered.metrics) metrics.disable()
    },
  }
}

function buildResource(serviceName: string | undefined): Resource {
  // OTEL_SERVICE_NAME and OTEL_RESOURCE_ATTRIBUTES (envDetector) win over the SDK defaults; an
  // explicit serviceName wins over both.
  const detected = defaultResource().merge(detectResources({ detectors: [envDetector] }))
  return serviceName ? detected.merge(resourceFromAttributes({ [ATTR_SERVICE_NAME]: serviceName })) : detected
}
