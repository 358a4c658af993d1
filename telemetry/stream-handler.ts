/**
 * `telemetryStreamHandler`: list it before `'default'` in
 * `server.streamHandlers`. Being a stream handler it sees every request, 404s included.
 *
 * Per request, once `setupTelemetry()` has run, the HTTP metrics, and, when the sampler says the request
 * is traced (sampling.ts: asked before anything of the span is built), a SERVER span
 * `HTTP <METHOD>` whose parent comes from the W3C `traceparent` header, with the stable HTTP
 * semantic-convention attributes: `http.request.method` (`_OTHER` for unknown methods, with
 * `http.request.method_original`), `url.path`, `url.query` (redacted, url-query.ts),
 * `url.scheme`, `server.address`, `server.port`, `client.address` (the peer, or behind proxies
 * listed in `server.trustProxy` the client they forwarded, as does the scheme),
 * `network.peer.address`, `network.peer.port`, `network.protocol.version`,
 * `user_agent.original`; at the end `http.route`, `http.response.status_code`, and on a server
 * error `error.type`: the exception's class when the route threw, else the status code. The rest
 * of the request runs with that span active (`context.with`), so the route's handler, the
 * telemetry plugin and `vela/dbl`'s query spans see it. The span ends, and the metrics are
 * recorded, when the response has been sent (the runtime's `end`). Without `setupTelemetry()` requests
 * pass straight through.
 *
 * A request not sampled builds no span and sets no attribute: the rest of it runs under its
 * unsampled parent (from `traceparent`), or under a shared context marking it unsampled, so
 * `vela/dbl` makes no query spans for it. With nothing to receive spans (`spanProcessors: []`)
 * the request only counts in the metrics.
 *
 * **Span names by design:** once the app has answered, the span is named after the route the
 * runtime reports for the request (the outcome's `route`):
 * `<METHOD> <controller>:<action>` (`GET notes_controller:index`), with `vela.app`,
 * `vela.controller`, `vela.action` and `http.route`. The runtime records the route for every
 * route of every group, so this holds whatever plugins a group lists (a group's own `plugins`
 * replaces the global list, which would drop a telemetry plugin listed only there). Requests no
 * route took (404, 405, malformed URLs) keep `HTTP <METHOD>`; so does a request whose span ends
 * because a stream handler further in failed.
 *
 * An observer (the runtime's contract for stream handlers, server/contracts/observer.ts): the
 * runtime gives it the request's facts on node's listener, for in-process requests and for
 * WebSocket upgrades alike (an accepted upgrade's span has status 101 and ends at the handshake),
 * and runs the rest of the request inside `run`, here the span's context.
 */
import type { Context, HrTime, Span, TextMapGetter } from '@opentelemetry/api'
import {
  INVALID_SPAN_CONTEXT,
  ROOT_CONTEXT,
  SpanKind,
  SpanStatusCode,
  TraceFlags,
  context,
  trace,
} from '@opentelemetry/api'
import {
  ATTR_CLIENT_ADDRESS,
  ATTR_ERROR_TYPE,
  ATTR_HTTP_REQUEST_METHOD,
  ATTR_HTTP_REQUEST_METHOD_ORIGINAL,
  ATTR_HTTP_RESPONSE_STATUS_CODE,
  ATTR_HTTP_ROUTE,
  ATTR_NETWORK_PEER_ADDRESS,
  ATTR_NETWORK_PEER_PORT,
  ATTR_NETWORK_PROTOCOL_VERSION,
  ATTR_SERVER_ADDRESS,
  ATTR_SERVER_PORT,
  ATTR_URL_PATH,
  ATTR_URL_QUERY,
  ATTR_URL_SCHEME,
  ATTR_USER_AGENT_ORIGINAL,
} from '@opentelemetry/semantic-conventions'
import type { RequestFacts, RequestObserver, RequestOutcome, RequestWatch } from '../server/index.ts'
import { defineStreamHandler } from '../server/index.ts'
import type { ProxyTrust } from '../server/contracts/request.ts'
import { clientAddress, clientScheme, proxyTrust } from '../server/exchange/forwarded.ts'
import type { ServerMetrics } from './instruments.ts'
import type { LocalServer } from './server-address.ts'
import { configuredServer, localServer } from './server-address.ts'
import type { TraceRef } from './series.ts'
import type { ActiveTelemetry } from './setup.ts'
import { activeTelemetry } from './setup.ts'

/**
 * The stream handler that gives every request a span named after its route and counts it in the
 * HTTP metrics, once `setupTelemetry()` has run; list it before `'default'` in `server.streamHandlers`.
 *
 * @example
 * export default defineApp({
 *   bootstrapApplication: 'shop',
 *   server: { streamHandlers: [telemetryStreamHandler, 'default'] },
 *   async start() {
 *     telemetry = await setupTelemetry({ serviceName: 'shop', prometheus: { port: 9464 } })
 *   },
 * })
 */
export const telemetryStreamHandler = defineStreamHandler({
  name: 'telemetry',
  observe(config): RequestObserver {
    const app = config.bootstrapApplication
    const proxies = proxyTrust(config.server.trustProxy)
    const configured = configuredServer(config)
    return (facts) => {
      const t = activeTelemetry()
      if (!t) return undefined
      return startRequest(t, app, facts, proxies, configured)
    }
  },
})

// As the semantic conventions ask, other methods are reported as `_OTHER` (in metric labels too),
// so a client inventing methods cannot create series without bound; the span name keeps the method.
const KNOWN_METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'CONNECT', 'OPTIONS', 'TRACE', 'PATCH'])

// What an unsampled request with no parent runs under: one context for all of them, holding a
// span that records nothing, so code inside (vela/dbl) sees "this request is not traced".
const UNSAMPLED: Context = trace.setSpan(ROOT_CONTEXT, trace.wrapSpanContext(INVALID_SPAN_CONTEXT))

const factHeaders: TextMapGetter<RequestFacts> = {
  get: (facts, key) => facts.header(key),
  keys: (facts) => facts.headerNames(),
}

/**
 * Counts the request in the metrics and, when it is sampled, starts its span; the rest runs inside
 * `run`. The watches are small classes rather than closures: an unsampled request allocates one
 * object besides its metrics record.
 */
function startRequest(
  t: ActiveTelemetry,
  app: string,
  facts: RequestFacts,
  proxies: ProxyTrust | undefined,
  configured: LocalServer,
): RequestWatch {
  const startedAt = performance.now()
  const original = facts.method
  const method = KNOWN_METHODS.has(original) ? original : '_OTHER'
  // Behind trusted proxies (server.trustProxy): the client they forwarded, and its scheme.
  const scheme = proxies ? clientScheme(facts, proxies) : facts.scheme
  // The metric labels name the server that received the request, never the client's Host header.
  const local = localServer(facts, configured)
  const metrics = t.instruments.server(method, scheme, local.address, local.port)
  metrics.started()

  const sampler = t.sampler
  // Nothing receives spans: no context to carry, nothing to build.
  if (sampler === undefined) return new MetricsWatch(metrics, facts, startedAt)
  const parent = t.propagator.extract(ROOT_CONTEXT, facts, factHeaders)
  if (!sampler.decide(parent, original))
    return new UnsampledWatch(metrics, facts, startedAt, trace.getSpan(parent) ? parent : UNSAMPLED)
  let span: Span
  try {
    span = t.tracer.startSpan(`HTTP ${original}`, { kind: SpanKind.SERVER }, parent)
  } finally {
    sampler.settle()
  }
  // One call per attribute: no attribute object to build and for the SDK to walk.
  span.setAttribute(ATTR_HTTP_REQUEST_METHOD, method)
  if (method !== original) span.setAttribute(ATTR_HTTP_REQUEST_METHOD_ORIGINAL, original)
  span.setAttribute(ATTR_URL_PATH, facts.path)
  const query = facts.query
  if (query !== undefined) {
    const recorded = t.urlQuery(query)
    if (recorded !== undefined) span.setAttribute(ATTR_URL_QUERY, recorded)
  }
  span.setAttribute(ATTR_URL_SCHEME, scheme)
  span.setAttribute(ATTR_SERVER_ADDRESS, facts.host)
  span.setAttribute(ATTR_SERVER_PORT, facts.port)
  const peer = facts.peer
  const client = proxies ? clientAddress(facts, proxies) : peer
  if (client !== undefined) span.setAttribute(ATTR_CLIENT_ADDRESS, client)
  if (peer !== undefined) span.setAttribute(ATTR_NETWORK_PEER_ADDRESS, peer)
  const peerPort = facts.peerPort
  if (peerPort !== undefined) span.setAttribute(ATTR_NETWORK_PEER_PORT, peerPort)
  const version = facts.protocolVersion
  if (version !== undefined) span.setAttribute(ATTR_NETWORK_PROTOCOL_VERSION, version)
  const userAgent = facts.userAgent
  if (userAgent !== undefined) span.setAttribute(ATTR_USER_AGENT_ORIGINAL, userAgent)
  return new SpanWatch(metrics, facts, startedAt, span, trace.setSpan(parent, span), app, original)
}

/** A request counted in the metrics only: recorded when the response has been sent. */
class MetricsWatch implements RequestWatch {
  constructor(
    readonly metrics: ServerMetrics,
    readonly facts: RequestFacts,
    readonly startedAt: number,
  ) {}

  /** `sampled`: the span of a traced request, the exemplar on its duration's bucket. */
  end(outcome: RequestOutcome, sampled?: TraceRef): void {
    this.metrics.finished(
      {
        status: outcome.status,
        route: outcome.route?.path,
        durationS: (performance.now() - this.startedAt) / 1000,
        requestBytes: this.facts.requestBodySize,
        responseBytes: outcome.responseBodySize,
      },
      sampled,
    )
  }
}

/** A request not sampled: it runs under its unsampled parent, or a context marking it unsampled. */
class UnsampledWatch extends MetricsWatch {
  constructor(
    metrics: ServerMetrics,
    facts: RequestFacts,
    startedAt: number,
    readonly context: Context,
  ) {
    super(metrics, facts, startedAt)
  }

  run(next: () => void): void {
    context.with(this.context, next)
  }
}

/** A sampled request: it runs with its span active; the span ends, then the metrics are recorded. */
class SpanWatch extends MetricsWatch {
  constructor(
    metrics: ServerMetrics,
    facts: RequestFacts,
    startedAt: number,
    readonly span: Span,
    readonly active: Context,
    readonly app: string,
    readonly method: string,
  ) {
    super(metrics, facts, startedAt)
  }

  run(next: () => void): void {
    context.with(this.active, next)
  }

  /** The response has been sent (or abandoned): the route, the status, then the span ends. */
  override end(outcome: RequestOutcome): void {
    ended(this.span, this.app, this.method, outcome)
    super.end(outcome, sampledTrace(this.span))
  }
}

/** Names the span after the route the runtime recorded, sets the status and the error, and ends it. */
function ended(span: Span, app: string, method: string, outcome: RequestOutcome): void {
  const { status, route } = outcome
  if (route) {
    span.setAttribute('vela.app', app)
    span.setAttribute('vela.controller', route.controller)
    span.setAttribute('vela.action', route.action)
    span.setAttribute(ATTR_HTTP_ROUTE, route.path)
    span.updateName(`${method} ${route.controller}:${route.action}`)
  }
  span.setAttribute(ATTR_HTTP_RESPONSE_STATUS_CODE, status)
  // A stream handler further in failed (the runtime's 500 page), or the route threw.
  const thrown = outcome.error ?? outcome.exception
  if (thrown !== undefined) {
    span.recordException(thrown instanceof Error ? thrown : String(thrown))
    span.setStatus({ code: SpanStatusCode.ERROR, message: thrown instanceof Error ? thrown.message : String(thrown) })
    span.setAttribute(ATTR_ERROR_TYPE, errorType(thrown))
  } else if (status >= 500) {
    span.setStatus({ code: SpanStatusCode.ERROR })
    span.setAttribute(ATTR_ERROR_TYPE, String(status))
  }
  span.end()
}

/**
 * The ended span's trace, when it is sampled (exported): an app's own SDK, joined, may still have
 * made a non-recording span, whose trace id would link to nothing. Its time is the span's end as
 * the SDK's span recorded it: reading the clock again costs 0.2 µs on some virtual machines.
 */
function sampledTrace(span: Span): TraceRef | undefined {
  const { traceId, spanId, traceFlags } = span.spanContext()
  if ((traceFlags & TraceFlags.SAMPLED) === 0) return undefined
  const end = (span as { readonly endTime?: HrTime }).endTime
  return { traceId, spanId, at: end !== undefined && end[0] > 0 ? end[0] * 1000 + end[1] / 1e6 : undefined }
}

/** The exception's class (`TypeError`, `DbUnavailableError`); `_OTHER` for a thrown value that has none. */
function errorType(thrown: unknown): string {
  const name = (thrown as { constructor?: { name?: unknown } } | null)?.constructor?.name
  return typeof name === 'string' && name !== '' && typeof thrown === 'object' ? name : '_OTHER'
}
