/**
 * Telemetry for the traced bench servers (vela-otel.ts, fastify-otel.ts): the same SDK set-up for
 * every framework, through vela/telemetry's `setupTelemetry()` (tracer provider, AsyncLocalStorage
 * context manager, W3C propagator), with a batch span processor whose exporter drops the spans
 * (there is no collector here), so the bench measures making spans and metrics, not shipping them.
 *
 * `BENCH_OTEL` picks the tracing: `all` (default, every request sampled), `ratio10` (parent-based,
 * 10 % of new traces; `ratio<N>`: N %) or `none` (no span processor: nothing receives spans, so none are made).
 */
import type { PushMetricExporter } from '@opentelemetry/sdk-metrics'
import { PeriodicExportingMetricReader } from '@opentelemetry/sdk-metrics'
import { BatchSpanProcessor, ParentBasedSampler, TraceIdRatioBasedSampler } from '@opentelemetry/sdk-trace'
import { setupTelemetry } from '../../telemetry/index.ts'

const done = (_items: unknown, callback: (r: { code: 0 }) => void) => callback({ code: 0 })

/**
 * `otelMetrics`: also register an OpenTelemetry meter provider (read once a minute, then dropped),
 * for baselines whose HTTP metrics are OpenTelemetry instruments. Vela's HTTP metrics are its own
 * prom-client series and need none.
 */
export async function setupBenchTelemetry(opts: { otelMetrics?: boolean } = {}): Promise<void> {
  const dropMetrics: PushMetricExporter = { export: done, forceFlush: async () => {}, shutdown: async () => {} }
  const mode = process.env.BENCH_OTEL ?? 'all'
  await setupTelemetry({
    serviceName: 'bench',
    spanProcessors:
      mode === 'none' ? [] : [new BatchSpanProcessor({ exporter: { export: done, shutdown: async () => {} } })],
    sampler: mode.startsWith('ratio')
      ? new ParentBasedSampler({ root: new TraceIdRatioBasedSampler(Number(mode.slice(5)) / 100) })
      : undefined,
    metricReaders: opts.otelMetrics
      ? [new PeriodicExportingMetricReader({ exporter: dropMetrics, exportIntervalMillis: 60_000 })]
      : [],
  })
}
