/**
 * `vela/telemetry`: OpenTelemetry traces and HTTP metrics for a Vela app. Three pieces:
 *
 * - `setupTelemetry(options?)` (setup.ts): OpenTelemetry's `NodeSDK` configured by the standard `OTEL_*`
 *   variables (or the SDK the app started first), the HTTP instruments, `GET /metrics` with
 *   `prometheus: { port }`; call it in the app's `start` hook and `shutdown()` its handle in `stop`;
 * - `telemetryStreamHandler` (stream-handler.ts): a span and metrics per request; list it before
 *   `'default'` in `server.streamHandlers`. It names each span after its route
 *   (`GET notes_controller:index`, with `vela.app`, `vela.controller`, `vela.action`,
 *   `http.route`) from the route the runtime records for every request (`matchedRoute`), so
 *   every group's spans are named without listing a plugin in each group;
 * - `telemetryPlugin` (plugin.ts): a pre-request plugin naming the active span after the route,
 *   for server spans something else made (the stream handler does not need it).
 *
 * Behaviour worth knowing (also in the telemetry guide, docs/telemetry/):
 * - OTLP endpoint: `endpoint` option (base URL, as `OTEL_EXPORTER_OTLP_ENDPOINT`) >
 *   `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT` (full URL) > `OTEL_EXPORTER_OTLP_ENDPOINT` + `/v1/traces`
 *   > `http://localhost:4318/v1/traces`; protocol by `OTEL_EXPORTER_OTLP_PROTOCOL`.
 * - OTLP metrics only with `exportIntervalMs` (or `OTEL_METRICS_EXPORTER`), to `/v1/metrics`.
 * - `setupTelemetry()` registers the SDK's tracer provider, context manager (AsyncLocalStorage),
 *   propagator (`OTEL_PROPAGATORS`, default W3C trace context + baggage) and (when there is one)
 *   meter provider; when a tracer provider is registered already it registers nothing and uses
 *   the app's. `shutdown()` unregisters what it registered.
 * - Span attributes use the semantic-convention names (`http.request.method`, `url.path`,
 *   `url.scheme`, `server.address`, `server.port`, `network.peer.address`, `user_agent.original`,
 *   `http.response.status_code`); the Prometheus series and labels keep their established names
 *   (`http_server_request_duration_seconds`, …; instruments.ts).
 * - The request body size comes from `content-length` (0 without a body); chunked request
 *   bodies are not measured.
 */
export { setupTelemetry, setup } from './setup.ts'
export type { Telemetry, TelemetryOptions } from './setup.ts'
export type { PrometheusOptions } from './prometheus.ts'
export type { MetricsFormat } from './exposition.ts'
export type { RedactQuery } from './url-query.ts'
export { telemetryStreamHandler } from './stream-handler.ts'
export { telemetryPlugin } from './plugin.ts'
