/**
 * The four HTTP server instruments (request duration, active requests, request and response body
 * sizes), kept twice on purpose:
 *
 * - in a prom-client registry, for the text exposition (`GET /metrics`), recorded through the
 *   cheap series of series.ts (a request resolves its series once). The registry lets us name
 *   the series and labels exactly as docs/telemetry/overview.md lists them (`http_server_request_duration_seconds`
 *   with `method`, `scheme`, `server_address`, `server_port`, `response_status_code`, plus
 *   `http_route` on routed requests and `error_type` on 5xx answers); the OTel
 *   Prometheus exporter derives names from the OTel instrument (no `_seconds` suffix, labels are the
 *   attribute keys verbatim) and adds `otel_scope_name` labels and a `target_info` series.
 * - on an OpenTelemetry meter, with the semantic-convention attribute names, only when an OTLP
 *   metrics export (or another metric reader) is configured: with no reader nothing would read them.
 */
import type { Attributes, Histogram as OtelHistogram, Meter, UpDownCounter } from '@opentelemetry/api'
import {
  ATTR_ERROR_TYPE,
  ATTR_HTTP_REQUEST_METHOD,
  ATTR_HTTP_RESPONSE_STATUS_CODE,
  ATTR_HTTP_ROUTE,
  ATTR_SERVER_ADDRESS,
  ATTR_SERVER_PORT,
  ATTR_URL_SCHEME,
} from '@opentelemetry/semantic-conventions'
import type { Registry } from 'prom-client'
import type { AppMetricsReader } from './app-metrics.ts'
import { TelemetryRegistry } from './registry.ts'
import type { HistogramSeries, TraceRef } from './series.ts'
import { GaugeMetric, HistogramMetric } from './series.ts'

/**
 * What identifies the server side of a request: the labels of the active-requests gauge. The
 * address and port are the server's own (server-address.ts), never the client's `Host`.
 */
export interface ServerLabels {
  readonly method: string
  readonly scheme: string
  readonly serverAddress: string
  readonly serverPort: number
}

export interface FinishedRequest {
  readonly status: number
  /** The route template that took the request (`/products/:id`); undefined when no route did. */
  readonly route: string | undefined
  readonly durationS: number
  /** Undefined when the request body's size is not known (chunked, no content-length). */
  readonly requestBytes: number | undefined
  readonly responseBytes: number
}

/** One server's series (method, scheme, address, port), found once per request. */
export interface ServerMetrics {
  /** The request started: counts it as active. */
  started(): void
  /**
   * The request finished: no longer active; duration and body sizes recorded under its status and
   * route. `sampled`, the span of a traced request, becomes the exemplar of its duration's bucket.
   */
  finished(done: FinishedRequest, sampled?: TraceRef): void
}

export interface HttpInstruments {
  readonly registry: Registry
  /**
   * The series of this server; made on first use and kept. Label sets are bounded: unknown methods
   * are `_OTHER`, and past MAX_SERVERS label sets new addresses are `_OTHER` with port 0.
   */
  server(method: string, scheme: string, serverAddress: string, serverPort: number): ServerMetrics
}

/**
 * Distinct (method, scheme, address, port) label sets kept before new ones are folded into
 * `server_address="_OTHER", server_port="0"`. The address and port are the server's own
 * bindings, a handful; the cap is a last bound on memory should a process bind very many.
 */
export const MAX_SERVERS = 100

// The semantic conventions' advice for http.server.request.duration (seconds).
const DURATION_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.075, 0.1, 0.25, 0.5, 0.75, 1, 2.5, 5, 7.5, 10]
// Body sizes: 0 B to 10 MiB in powers of four.
const SIZE_BUCKETS = [0, 64, 256, 1024, 4096, 16384, 65536, 262144, 1048576, 4194304, 10485760]

/**
 * The HTTP instruments on a new registry; `meter` records them over OpenTelemetry too (only when
 * something exports them), and `app` brings the app's own OpenTelemetry metrics into the registry.
 */
export function createHttpInstruments(meter: Meter | undefined, app?: AppMetricsReader): HttpInstruments {
  const registry = new TelemetryRegistry(app)
  const duration = new HistogramMetric(
    'http_server_request_duration_seconds',
    'Duration of HTTP server requests.',
    DURATION_BUCKETS,
    registry,
  )
  const active = new GaugeMetric('http_server_active_requests', 'Number of active HTTP server requests.', registry)
  const requestSize = new HistogramMetric(
    'http_server_request_body_size_bytes',
    'Size of HTTP server request bodies.',
    SIZE_BUCKETS,
    registry,
  )
  const responseSize = new HistogramMetric(
    'http_server_response_body_size_bytes',
    'Size of HTTP server response bodies.',
    SIZE_BUCKETS,
    registry,
  )
  const otel = meter ? createOtelInstruments(meter) : undefined

  function makeServer(key: string, s: ServerLabels): ServerMetrics {
    const labels = { method: s.method, scheme: s.scheme, server_address: s.serverAddress, server_port: s.serverPort }
    const activeSeries = active.series(key, labels)
    const attrs = otel ? otelAttributes(s) : undefined
    // Per status, then per route (undefined when no route took the request): the three histogram
    // series and the OTel attributes with them. Nested maps: finding a request's series builds no key.
    const byStatus = new Map<number, Map<string | undefined, Outcome>>()
    const makeOutcome = (status: number, route: string | undefined): Outcome => {
      const code = statusLabel(status)
      const withOutcome: Record<string, string | number> = { ...labels, response_status_code: code }
      // Routed requests carry the route template; requests no route took carry no http_route.
      if (route !== undefined) withOutcome.http_route = route
      // A server error's type is its status code (there is no exception class to name here).
      if (status >= 500) withOutcome.error_type = String(code)
      const seriesKey = route === undefined ? `${key} ${status}` : `${key} ${status} ${route}`
      return {
        duration: duration.series(seriesKey, withOutcome),
        requestSize: requestSize.series(seriesKey, withOutcome),
        responseSize: responseSize.series(seriesKey, withOutcome),
        attrs: attrs && {
          ...attrs,
          [ATTR_HTTP_RESPONSE_STATUS_CODE]: code,
          ...(route !== undefined && { [ATTR_HTTP_ROUTE]: route }),
          ...(status >= 500 && { [ATTR_ERROR_TYPE]: String(code) }),
        },
      }
    }
    const forOutcome = (status: number, route: string | undefined): Outcome => {
      let routes = byStatus.get(status)
      if (routes === undefined) byStatus.set(status, (routes = new Map()))
      let entry = routes.get(route)
      if (entry === undefined) routes.set(route, (entry = makeOutcome(status, route)))
      return entry
    }
    return {
      started() {
        activeSeries.value++
        otel?.active.add(1, attrs)
      },
      finished(done, sampled) {
        activeSeries.value--
        const series = forOutcome(done.status, done.route)
        series.duration.observe(done.durationS, sampled)
        if (done.requestBytes !== undefined) series.requestSize.observe(done.requestBytes)
        series.responseSize.observe(done.responseBytes)
        if (otel) {
          otel.active.add(-1, attrs)
          otel.duration.record(done.durationS, series.attrs)
          if (done.requestBytes !== undefined) otel.requestSize.record(done.requestBytes, series.attrs)
          otel.responseSize.record(done.responseBytes, series.attrs)
        }
      },
    }
  }

  // method → scheme → address → port: finding a request's server builds no key.
  const servers = new Map<string, Map<string, Map<string, Map<number, ServerMetrics>>>>()
  let count = 0
  const lookup = (method: string, scheme: string, address: string) => {
    let schemes = servers.get(method)
    if (schemes === undefined) servers.set(method, (schemes = new Map()))
    let addresses = schemes.get(scheme)
    if (addresses === undefined) schemes.set(scheme, (addresses = new Map()))
    let ports = addresses.get(address)
    if (ports === undefined) addresses.set(address, (ports = new Map()))
    return ports
  }

  return {
    registry,
    server(method, scheme, serverAddress, serverPort) {
      const ports = lookup(method, scheme, serverAddress)
      let found = ports.get(serverPort)
      if (found) return found
      if (count < MAX_SERVERS) {
        count++
        ports.set(
          serverPort,
          (found = makeServer(`${method} ${scheme} ${serverAddress} ${serverPort}`, {
            method,
            scheme,
            serverAddress,
            serverPort,
          })),
        )
        return found
      }
      // Past the cap, new addresses share one series.
      const others = lookup(method, scheme, '_OTHER')
      found = others.get(0)
      if (!found)
        others.set(
          0,
          (found = makeServer(`${method} ${scheme} _OTHER 0`, {
            method,
            scheme,
            serverAddress: '_OTHER',
            serverPort: 0,
          })),
        )
      return found
    },
  }
}

interface Outcome {
  readonly duration: HistogramSeries
  readonly requestSize: HistogramSeries
  readonly responseSize: HistogramSeries
  readonly attrs: Attributes | undefined
}

/**
 * The status as a label value: an HTTP status code (100–599), else `_OTHER`, so whatever number an
 * app puts on a response, the label keeps to the codes HTTP has.
 */
function statusLabel(status: number): number | '_OTHER' {
  return Number.isInteger(status) && status >= 100 && status <= 599 ? status : '_OTHER'
}

interface OtelInstruments {
  duration: OtelHistogram
  active: UpDownCounter
  requestSize: OtelHistogram
  responseSize: OtelHistogram
}

function createOtelInstruments(meter: Meter): OtelInstruments {
  return {
    duration: meter.createHistogram('http.server.request.duration', {
      unit: 's',
      description: 'Duration of HTTP server requests.',
      advice: { explicitBucketBoundaries: DURATION_BUCKETS },
    }),
    active: meter.createUpDownCounter('http.server.active_requests', {
      unit: '{request}',
      description: 'Number of active HTTP server requests.',
    }),
    requestSize: meter.createHistogram('http.server.request.body.size', {
      unit: 'By',
      description: 'Size of HTTP server request bodies.',
      advice: { explicitBucketBoundaries: SIZE_BUCKETS },
    }),
    responseSize: meter.createHistogram('http.server.response.body.size', {
      unit: 'By',
      description: 'Size of HTTP server response bodies.',
      advice: { explicitBucketBoundaries: SIZE_BUCKETS },
    }),
  }
}

function otelAttributes(s: ServerLabels): Attributes {
  return {
    [ATTR_HTTP_REQUEST_METHOD]: s.method,
    [ATTR_URL_SCHEME]: s.scheme,
    [ATTR_SERVER_ADDRESS]: s.serverAddress,
    [ATTR_SERVER_PORT]: s.serverPort,
  }
}
