/**
 * `telemetryStreamHandler` (the spec's `otel_fw_stream_h`): list it before `'default'` in
 * `server.streamHandlers`. Being a stream handler it sees every request, 404s included.
 *
 * Per request, once `setup()` has run: a SERVER span `HTTP <METHOD>` whose parent comes from the
 * W3C `traceparent` header, with method, path, scheme, host, port, peer address and user agent,
 * then the response status (error status from 500 up); the rest of the request runs with that
 * span active (`context.with`), so the route's handler, the telemetry plugin and `vela/dbl`'s
 * query spans see it. The span ends, and the metrics are recorded, when the response has been
 * sent (response-end.ts). Without `setup()` requests pass straight through.
 *
 * **Span names by design:** once the app has answered, the span is named after the route the
 * runtime recorded for the request (`matchedRoute`, server/stream-handlers/matched-route.ts):
 * `<METHOD> <controller>:<action>` (`GET notes_controller:index`), with `vela.app`,
 * `vela.controller`, `vela.action` and `http.route`. The runtime records the route for every
 * route of every group, so this holds whatever plugins a group lists (a group's own `plugins`
 * replaces the global list, which would drop a telemetry plugin listed only there). Requests no
 * route took (404, 405, malformed URLs) keep `HTTP <METHOD>`; so does a request whose span ends
 * because a stream handler further in failed.
 *
 * Requests from node's listener are traced from node's request and response (`wrapNode`), so the
 * app keeps its direct node path; in-process requests from their web Request (`wrap`). Both give
 * the same span and metrics. A WebSocket upgrade gets its span too (`wrapUpgrade`), with status
 * 101 when accepted, ending at the handshake.
 */
import type { Context, TextMapGetter } from '@opentelemetry/api'
import { ROOT_CONTEXT, SpanKind, SpanStatusCode, context, trace } from '@opentelemetry/api'
import {
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
import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http'
import type { TLSSocket } from 'node:tls'
import { matchedRoute } from '../server/stream-handlers/matched-route.ts'
import type { ResolvedConfig } from '../server/app/config.ts'
import type { FetchHandler, NodeHandler } from '../server/stream-handlers/stream-handlers.ts'
import { defineStreamHandler } from '../server/stream-handlers/stream-handlers.ts'
import { whenNodeResponseEnds, whenResponseEnds } from '../server/exchange/response-end.ts'
import type { RouteInfo } from '../server/request.ts'
import type { UpgradeDecision, UpgradeHandler } from '../server/websocket/upgrade.ts'
import type { ActiveTelemetry } from './setup.ts'
import { activeTelemetry } from './setup.ts'

export const telemetryStreamHandler = defineStreamHandler({
  name: 'telemetry',
  wrap(next: FetchHandler, config: ResolvedConfig): FetchHandler {
    const app = config.bootstrapApplication
    return function telemetry(request) {
      const t = activeTelemetry()
      return t ? traced(t, app, request, next) : next(request)
    }
  },
  // Node's listener: the same span and metrics from node's request and response, so the app keeps
  // its direct node path (no web Request made per request).
  wrapNode(next: NodeHandler, config: ResolvedConfig): NodeHandler {
    const app = config.bootstrapApplication
    return function telemetry(req, res) {
      const t = activeTelemetry()
      if (t) tracedNode(t, app, req, res, next)
      else next(req, res)
    }
  },
  // A WebSocket handshake is an HTTP request too: its span ends with the 101 (or the refusal).
  wrapUpgrade(next: UpgradeHandler, config: ResolvedConfig): UpgradeHandler {
    const app = config.bootstrapApplication
    return function telemetry(request) {
      const t = activeTelemetry()
      return t ? tracedUpgrade(t, app, request, next) : next(request)
    }
  },
})

// As the semantic conventions ask, other methods are reported as `_OTHER` (in metric labels too),
// so a client inventing methods cannot create series without bound; the span name keeps the method.
const KNOWN_METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'CONNECT', 'OPTIONS', 'TRACE', 'PATCH'])

const webHeaders: TextMapGetter<Headers> = {
  get: (headers, key) => headers.get(key) ?? undefined,
  keys: (headers) => [...headers.keys()],
}
const nodeHeaders: TextMapGetter<IncomingHttpHeaders> = {
  get: (headers, key) => headers[key],
  keys: (headers) => Object.keys(headers),
}

/** What the request span and the metrics are made of, read from a web or a node request. */
interface RequestFacts {
  readonly method: string
  readonly path: string
  readonly scheme: 'http' | 'https'
  readonly host: string
  readonly port: number
  readonly peer: string | undefined
  readonly userAgent: string | undefined
  readonly requestBytes: number | undefined
}

type StartedRequest = ReturnType<typeof startRequest>

/** Starts the request span and counts the request as active; the caller runs the rest inside `span`. */
function startRequest(t: ActiveTelemetry, app: string, facts: RequestFacts, parent: Context) {
  const startedAt = performance.now()
  const method = KNOWN_METHODS.has(facts.method) ? facts.method : '_OTHER'
  const span = t.tracer.startSpan(
    `HTTP ${facts.method}`,
    {
      kind: SpanKind.SERVER,
      attributes: {
        [ATTR_HTTP_REQUEST_METHOD]: method,
        [ATTR_HTTP_REQUEST_METHOD_ORIGINAL]: method === facts.method ? undefined : facts.method,
        [ATTR_URL_PATH]: facts.path,
        [ATTR_URL_SCHEME]: facts.scheme,
        [ATTR_SERVER_ADDRESS]: facts.host,
        [ATTR_SERVER_PORT]: facts.port,
        [ATTR_NETWORK_PEER_ADDRESS]: facts.peer,
        [ATTR_USER_AGENT_ORIGINAL]: facts.userAgent,
      },
    },
    parent,
  )
  const metrics = t.instruments.server({ method, scheme: facts.scheme, serverAddress: facts.host, serverPort: facts.port })
  metrics.started()
  return {
    context: trace.setSpan(parent, span),
    /** The app has answered: names the span after the route it recorded, if one took the request. */
    routed(route: RouteInfo | undefined) {
      if (!route) return
      span.setAttributes({ 'vela.app': app, 'vela.controller': route.controller, 'vela.action': route.action, [ATTR_HTTP_ROUTE]: route.path })
      span.updateName(`${facts.method} ${route.controller}:${route.action}`)
    },
    /** The response status is known. */
    answered(status: number) {
      span.setAttribute(ATTR_HTTP_RESPONSE_STATUS_CODE, status)
      if (status >= 500) span.setStatus({ code: SpanStatusCode.ERROR })
    },
    /** The response has been sent (or abandoned). */
    finished(status: number, responseBytes: number) {
      span.end()
      metrics.finished({ status, durationS: (performance.now() - startedAt) / 1000, requestBytes: facts.requestBytes, responseBytes })
    },
    /** A stream handler further in threw: the runtime answers failures itself, so this is rare. */
    failed(err: unknown) {
      span.recordException(err as Error)
      span.setStatus({ code: SpanStatusCode.ERROR, message: (err as Error)?.message })
      this.finished(500, 0)
    },
  }
}

function webFacts(request: Request): RequestFacts {
  const url = new URL(request.url)
  const scheme = url.protocol === 'https:' ? 'https' : 'http'
  const headers = request.headers
  return {
    method: request.method,
    path: url.pathname,
    scheme,
    host: url.hostname,
    port: url.port ? Number(url.port) : defaultPort(scheme),
    peer: (request as Request & { ip?: string }).ip,
    userAgent: headers.get('user-agent') ?? undefined,
    requestBytes: requestBodySize(headers.get('content-length'), headers.has('transfer-encoding')),
  }
}

/** Runs `next` inside the request's span: resolves as `next` does, ends the span if it fails. */
function within<T>(t: ActiveTelemetry, app: string, request: Request, next: (request: Request) => Promise<T>, then: (started: StartedRequest, value: T) => T): Promise<T> {
  const started = startRequest(t, app, webFacts(request), t.propagator.extract(ROOT_CONTEXT, request.headers, webHeaders))
  const failed = (err: unknown): Promise<never> => {
    started.failed(err)
    return Promise.reject(err)
  }
  try {
    return context.with(started.context, next, undefined, request).then((value) => {
      started.routed(matchedRoute(request))
      return then(started, value)
    }, failed)
  } catch (err) {
    return failed(err)
  }
}

function traced(t: ActiveTelemetry, app: string, request: Request, next: FetchHandler): Promise<Response> {
  return within(t, app, request, next, (started, res) => {
    // Read now: srvx's fast response forgets its status once node has sent it.
    const status = res.status
    started.answered(status)
    return whenResponseEnds(request, res, (bytes) => started.finished(status, bytes))
  })
}

function tracedUpgrade(t: ActiveTelemetry, app: string, request: Request, next: UpgradeHandler): Promise<UpgradeDecision> {
  return within(t, app, request, next, (started, decision) => {
    if (decision.accept) {
      started.answered(101)
      started.finished(101, 0)
      return decision
    }
    const status = decision.response.status
    started.answered(status)
    return { accept: false, response: whenResponseEnds(request, decision.response, (bytes) => started.finished(status, bytes)) }
  })
}

function tracedNode(t: ActiveTelemetry, app: string, req: IncomingMessage, res: ServerResponse, next: NodeHandler): void {
  const headers = req.headers
  const scheme = (req.socket as TLSSocket).encrypted ? 'https' : 'http'
  const started = startRequest(
    t,
    app,
    {
      method: req.method!,
      ...targetOf(req, scheme),
      scheme,
      peer: req.socket.remoteAddress,
      userAgent: headers['user-agent'],
      requestBytes: requestBodySize(headers['content-length'] ?? null, headers['transfer-encoding'] !== undefined),
    },
    t.propagator.extract(ROOT_CONTEXT, headers, nodeHeaders),
  )
  whenNodeResponseEnds(res, req.method === 'HEAD', (bytes) => {
    started.routed(matchedRoute(req))
    started.answered(res.statusCode)
    started.finished(res.statusCode, bytes)
  })
  context.with(started.context, next, undefined, req, res)
}

const defaultPort = (scheme: string) => (scheme === 'https' ? 443 : 80)

/**
 * Path, host and port of a node request, as the URL srvx builds for the fetch path gives them: an
 * origin-form target (`/path?q`) with the `Host` header (else the socket's local address), an
 * absolute-form target (`http://host/path`) on its own, ignoring `Host` as RFC 9112 §3.2.2 asks.
 */
function targetOf(req: IncomingMessage, scheme: string): { path: string; host: string; port: number } {
  const target = req.url ?? '/'
  if (target.charCodeAt(0) !== 47) {
    try {
      const url = new URL(target)
      return { path: url.pathname, host: url.hostname, port: url.port ? Number(url.port) : defaultPort(url.protocol.slice(0, -1)) }
    } catch {
      // Not a URL either: reported as sent, with the Host header.
    }
  }
  const q = target.indexOf('?')
  const path = q === -1 ? target : target.slice(0, q)
  const header = req.headers.host
  if (!header) return { path, host: req.socket.localAddress ?? 'localhost', port: req.socket.localPort ?? defaultPort(scheme) }
  // `[::1]:8080` keeps its brackets, as URL.hostname does.
  const colon = header.lastIndexOf(':')
  if (colon === -1 || colon < header.lastIndexOf(']')) return { path, host: header.toLowerCase(), port: defaultPort(scheme) }
  const port = Number(header.slice(colon + 1))
  return { path, host: header.slice(0, colon).toLowerCase(), port: Number.isInteger(port) && port > 0 && port < 65536 ? port : defaultPort(scheme) }
}

/**
 * The request body's size from its framing: `content-length`, or 0 when the request has neither
 * that nor `transfer-encoding` (HTTP/1.1 then has no body). A chunked body's size is not known
 * without reading it here, which would take it from the app, so it is not recorded.
 */
function requestBodySize(contentLength: string | null, chunked: boolean): number | undefined {
  if (contentLength !== null) {
    const n = Number(contentLength)
    return Number.isSafeInteger(n) && n >= 0 ? n : undefined
  }
  return chunked ? undefined : 0
}
