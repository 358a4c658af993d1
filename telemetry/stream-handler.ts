/**
 * `telemetryStreamHandler` (the spec's `otel_fw_stream_h`): list it before `'default'` in
 * `server.streamHandlers`. Being a stream handler it sees every request, 404s included.
 *
 * Per request, once `setup()` has run: a SERVER span `HTTP <METHOD>` whose parent comes from the
 * W3C `traceparent` header, with method, path, scheme, host, port, peer address and user agent
 * (behind proxies listed in `server.trustProxy`: the forwarded scheme, and `client.address`),
 * then the response status (error status from 500 up); the rest of the request runs with that
 * span active (`context.with`), so the route's handler, the telemetry plugin and `vela/dbl`'s
 * query spans see it. The span ends, and the metrics are recorded, when the response has been
 * sent (the runtime's `end`). Without `setup()` requests pass straight through.
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
import type { Context, TextMapGetter } from '@opentelemetry/api'
import { ROOT_CONTEXT, SpanKind, SpanStatusCode, context, trace } from '@opentelemetry/api'
import {
  ATTR_CLIENT_ADDRESS,
  ATTR_HTTP_REQUEST_METHOD,
  ATTR_HTTP_ROUTE,
  ATTR_HTTP_REQUEST_METHOD_ORIGINAL,
  ATTR_HTTP_RESPONSE_STATUS_CODE,
  ATTR_NETWORK_PEER_ADDRESS,
  ATTR_SERVER_ADDRESS,
  ATTR_SERVER_PORT,
  ATTR_URL_PATH,
  ATTR_URL_SCHEME,
  ATTR_USER_AGENT_ORIGINAL,
} from '@opentelemetry/semantic-conventions'
import type { RequestFacts, RequestObserver, RequestOutcome, RouteInfo } from '../server/index.ts'
import { defineStreamHandler } from '../server/index.ts'
import type { ProxyTrust } from '../server/contracts/request.ts'
import { clientAddress, clientScheme, proxyTrust } from '../server/exchange/forwarded.ts'
import type { LocalServer } from './server-address.ts'
import { configuredServer, localServer } from './server-address.ts'
import type { ActiveTelemetry } from './setup.ts'
import { activeTelemetry } from './setup.ts'

export const telemetryStreamHandler = defineStreamHandler({
  name: 'telemetry',
  observe(config): RequestObserver {
    const app = config.bootstrapApplication
    const proxies = proxyTrust(config.server.trustProxy)
    const configured = configuredServer(config)
    return (facts) => {
      const t = activeTelemetry()
      if (!t) return undefined
      const started = startRequest(t, app, facts, proxies, configured, t.propagator.extract(ROOT_CONTEXT, facts, factHeaders))
      return {
        run: (next) => context.with(started.context, next),
        end: (outcome) => started.ended(outcome),
      }
    }
  },
})

// As the semantic conventions ask, other methods are reported as `_OTHER` (in metric labels too),
// so a client inventing methods cannot create series without bound; the span name keeps the method.
const KNOWN_METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'CONNECT', 'OPTIONS', 'TRACE', 'PATCH'])

const factHeaders: TextMapGetter<RequestFacts> = {
  get: (facts, key) => facts.header(key),
  keys: (facts) => facts.headerNames(),
}

/** Starts the request span and counts the request as active; the caller runs the rest inside `span`. */
function startRequest(t: ActiveTelemetry, app: string, facts: RequestFacts, proxies: ProxyTrust | undefined, configured: LocalServer, parent: Context) {
  const startedAt = performance.now()
  const original = facts.method
  const method = KNOWN_METHODS.has(original) ? original : '_OTHER'
  const { host, port } = facts
  // Behind trusted proxies (server.trustProxy): the client they forwarded, and its scheme.
  const scheme = proxies ? clientScheme(facts, proxies) : facts.scheme
  const span = t.tracer.startSpan(
    `HTTP ${original}`,
    {
      kind: SpanKind.SERVER,
      attributes: {
        [ATTR_HTTP_REQUEST_METHOD]: method,
        [ATTR_HTTP_REQUEST_METHOD_ORIGINAL]: method === original ? undefined : original,
        [ATTR_URL_PATH]: facts.path,
        [ATTR_URL_SCHEME]: scheme,
        [ATTR_SERVER_ADDRESS]: host,
        [ATTR_SERVER_PORT]: port,
        [ATTR_NETWORK_PEER_ADDRESS]: facts.peer,
        [ATTR_CLIENT_ADDRESS]: proxies ? clientAddress(facts, proxies) : undefined,
        [ATTR_USER_AGENT_ORIGINAL]: facts.userAgent,
      },
    },
    parent,
  )
  // The metric labels name the server that received the request, never the client's Host header.
  const local = localServer(facts, configured)
  const metrics = t.instruments.server({ method, scheme, serverAddress: local.address, serverPort: local.port })
  metrics.started()
  return {
    context: trace.setSpan(parent, span),
    /** The response has been sent (or abandoned): the route, the status, then the span ends. */
    ended(outcome: RequestOutcome) {
      const { status, route, error } = outcome
      if (error !== undefined) {
        // A stream handler further in failed: the runtime answered with its 500 page.
        span.recordException(error as Error)
        span.setStatus({ code: SpanStatusCode.ERROR, message: (error as Error)?.message })
      }
      routed(route)
      span.setAttribute(ATTR_HTTP_RESPONSE_STATUS_CODE, status)
      if (status >= 500 && error === undefined) span.setStatus({ code: SpanStatusCode.ERROR })
      span.end()
      metrics.finished({ status, route: route?.path, durationS: (performance.now() - startedAt) / 1000, requestBytes: facts.requestBodySize, responseBytes: outcome.responseBodySize })
    },
  }

  /** Names the span after the route the runtime recorded, if one took the request. */
  function routed(route: RouteInfo | undefined) {
    if (!route) return
    span.setAttributes({ 'vela.app': app, 'vela.controller': route.controller, 'vela.action': route.action, [ATTR_HTTP_ROUTE]: route.path })
    span.updateName(`${original} ${route.controller}:${route.action}`)
  }
}
