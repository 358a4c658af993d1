/**
 * `vela/telemetry`: OpenTelemetry traces and HTTP metrics for a Vela app (DESIGN.md §6, spec 4.4
 * and 6.2). Three pieces:
 *
 * - `setup(options?)` (setup.ts): the SDK (batch span processor, OTLP http/protobuf exporter to
 *   `<endpoint>/v1/traces`), the HTTP instruments, `GET /metrics` with `prometheus: { port }`;
 *   call it in the app's `start` hook and `shutdown()` its handle in `stop`;
 * - `telemetryStreamHandler` (stream-handler.ts): a span and metrics per request; list it before
 *   `'default'` in `server.streamHandlers`. It names each span after its route
 *   (`GET notes_controller:index`, with `vela.app`, `vela.controller`, `vela.action`,
 *   `http.route`) from the route the runtime records for every request (`matchedRoute`), so
 *   every group's spans are named without listing a plugin in each group;
 * - `telemetryPlugin` (plugin.ts): a pre-request plugin naming the active span after the route,
 *   for server spans something else made (the stream handler does not need it).
 *
 * Choices where the design is silent (also in the README):
 * - OTLP endpoint: `endpoint` option (base URL) > `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT` (full URL)
 *   > `OTEL_EXPORTER_OTLP_ENDPOINT` + `/v1/traces` > `http://localhost:4318/v1/traces`.
 * - OTLP metrics only with `exportIntervalMs`, to the same endpoint's `/v1/metrics`.
 * - `setup()` registers the global OpenTelemetry tracer provider, context manager (AsyncLocalStorage),
 *   W3C propagator and (when there is one) meter provider, unless one is already registered;
 *   `shutdown()` unregisters what it registered.
 * - Span attributes use the semantic-convention names (`http.request.method`, `url.path`,
 *   `url.scheme`, `server.address`, `server.port`, `network.peer.address`, `user_agent.original`,
 *   `http.response.status_code`); the Prometheus labels are the spec's (instruments.ts).
 * - The request body size comes from `content-length` (0 without a body); chunked request
 *   bodies are not measured.
 */
export { setup } from './setup.ts'
export type { Telemetry, TelemetryOptions } from './setup.ts'
export type { PrometheusOptions } from './prometheus.ts'
export type { RedactQuery } from './url-query.ts'
export { telemetryStreamHandler } from './stream-handler.ts'
export { telemetryPlugin } from './plugin.ts'
