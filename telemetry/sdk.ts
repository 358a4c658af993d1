/**
 * What `setupTelemetry()` starts, in one module it imports when it runs (setup.ts): OpenTelemetry's
 * SDK and its exporters (providers.ts), prom-client's registries and the `/metrics` server.
 * **Choice:** loaded on the first set-up, not with `vela/telemetry`: an app's modules import it
 * (`telemetryStreamHandler`, `setupTelemetry`) for their start hook, and whatever imports them
 * without starting the app — the CLI reading its routes, a test of one controller — would
 * otherwise load the SDK (about half a second of CPU and 40 MB) for nothing.
 */
export { AppMetricsReader } from './app-metrics.ts'
export { clusterMetrics, reportToPrimary } from './cluster-metrics.ts'
export { exposition } from './exposition.ts'
export { createHttpInstruments } from './instruments.ts'
export { servePrometheus } from './prometheus.ts'
export { createProviders } from './providers.ts'
