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
 */
import type { Context, TextMapGetter } from '@opentelemetry/api'
import { ROOT_CONTEXT, SpanKind, SpanStatusCode, context, trace } from '@opentelemetry/api'
import {
  ATTR_HTTP_REQUEST_METHOD,
  ATTR_HTTP_REQUEST_METHOD_ORIGINAL,
  ATTR_HTTP_RESPONSE_STATUS_CODE,
  ATTR_NETWORK_PEER_ADDRESS,
  ATTR_SERVER_ADDRESS,
  ATTR_SERVER_PORT,
  ATTR_URL_PATH,
  ATTR_URL_SCHEME,
  ATTR_USER_AGENT_ORIGINAL,
} from '@opentelemetry/semantic-conventions'
import type { FetchHandler } from '../server/app/stream-handlers.ts'
import { defineStreamHandler } from '../server/app/stream-handlers.ts'
import type { ServerLabels } from './instruments.ts'
import { whenResponseEnds } from '../server/metrics/response-end.ts'
import type { ActiveTelemetry } from './setup.ts'
import { activeTelemetry } from './setup.ts'

export const telemetryStreamHandler = defineStreamHandler({
  name: 'telemetry',
  wrap(next: FetchHandler): FetchHandler {
    return function telemetry(request) {
      const t = activeTelemetry()
      return t ? traced(t, request, next) : next(request)
    }
  },
})

// As the semantic conventions ask, other methods are reported as `_OTHER` (in metric labels too),
// so a client inventing methods cannot create series without bound; the span name keeps the method.
const KNOWN_METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'CONNECT', 'OPTIONS', 'TRACE', 'PATCH'])

const headerGetter: TextMapGetter<Headers> = {
  get: (headers, key) => headers.get(key) ?? undefined,
  keys: (headers) => [...headers.keys()],
}

function traced(t: ActiveTelemetry, request: Request, next: FetchHandler): Promise<Response> {
  const startedAt = performance.now()
  const url = new URL(request.url)
  const scheme = url.protocol === 'https:' ? 'https' : 'http'
  const method = KNOWN_METHODS.has(request.method) ? request.method : '_OTHER'
  const server: ServerLabels = {
    method,
    scheme,
    serverAddress: url.hostname,
    serverPort: url.port ? Number(url.port) : scheme === 'https' ? 443 : 80,
  }
  const parent: Context = t.propagator.extract(ROOT_CONTEXT, request.headers, headerGetter)
  const span = t.tracer.startSpan(
    `HTTP ${request.method}`,
    {
      kind: SpanKind.SERVER,
      attributes: {
        [ATTR_HTTP_REQUEST_METHOD]: method,
        [ATTR_HTTP_REQUEST_METHOD_ORIGINAL]: method === request.method ? undefined : request.method,
        [ATTR_URL_PATH]: url.pathname,
        [ATTR_URL_SCHEME]: scheme,
        [ATTR_SERVER_ADDRESS]: server.serverAddress,
        [ATTR_SERVER_PORT]: server.serverPort,
        [ATTR_NETWORK_PEER_ADDRESS]: (request as Request & { ip?: string }).ip,
        [ATTR_USER_AGENT_ORIGINAL]: request.headers.get('user-agent') ?? undefined,
      },
    },
    parent,
  )
  const metrics = t.instruments.server(server)
  metrics.started()
  const requestBytes = requestBodySize(request.headers)

  const finish = (status: number, responseBytes: number) => {
    span.end()
    metrics.finished({ status, durationS: (performance.now() - startedAt) / 1000, requestBytes, responseBytes })
  }
  const answered = (res: Response): Response => {
    // Read now: srvx's fast response forgets its status once node has sent it.
    const status = res.status
    span.setAttribute(ATTR_HTTP_RESPONSE_STATUS_CODE, status)
    if (status >= 500) span.setStatus({ code: SpanStatusCode.ERROR })
    return whenResponseEnds(request, res, (bytes) => finish(status, bytes))
  }
  const failed = (err: unknown): never => {
    // The runtime turns failures into error pages, so this is a stream handler further in throwing.
    span.recordException(err as Error)
    span.setStatus({ code: SpanStatusCode.ERROR, message: (err as Error)?.message })
    finish(500, 0)
    throw err
  }
  try {
    return context.with(trace.setSpan(parent, span), next, undefined, request).then(answered, failed)
  } catch (err) {
    return failed(err)
  }
}

/**
 * The request body's size from its framing: `content-length`, or 0 when the request has neither
 * that nor `transfer-encoding` (HTTP/1.1 then has no body). A chunked body's size is not known
 * without reading it here, which would take it from the app, so it is not recorded.
 */
function requestBodySize(headers: Headers): number | undefined {
  const length = headers.get('content-length')
  if (length !== null) {
    const n = Number(length)
    return Number.isSafeInteger(n) && n >= 0 ? n : undefined
  }
  return headers.has('transfer-encoding') ? undefined : 0
}
