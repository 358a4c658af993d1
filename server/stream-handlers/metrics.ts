/**
 * The metrics hook (spec 4.5, last paragraph): list `metricsStreamHandler` in
 * `server.streamHandlers` before `'default'` and set `server.options.metricsCallback`; every
 * finished request then calls the callback once with `{ userData, reqStart, reqEnd, respStatus,
 * respBodyLength }`. A plugin adds data with `setMetricsUserData(req, map)`; calls merge.
 *
 * "Finished" and the body length are taken where the bytes leave: on the node response ('close',
 * after it was sent or when the client went away) counting what was written, so streamed and
 * compressed bodies count as sent. Without a node response (in-process `inject`) the web body is
 * counted as it is read. A callback that throws is logged; the response is already on its way.
 * The handler has a node-shaped form too, so the app keeps its direct node path, and reports
 * WebSocket handshakes (status 101 when accepted).
 */
import type { MetricsEvent, ResolvedConfig } from '../app/config.ts'
import type { FetchHandler, NodeHandler } from './stream-handlers.ts'
import { defineStreamHandler } from './stream-handlers.ts'
import type { VelaRequest } from '../request.ts'
import type { UpgradeHandler } from '../websocket/upgrade.ts'
import { whenNodeResponseEnds, whenResponseEnds } from '../exchange/response-end.ts'

const kMetrics = Symbol('vela.metrics')

interface Tracked {
  [kMetrics]?: Record<string, unknown>
}

/** Merges `map` into the metrics user data of this request (no-op without the metrics handler). */
export function setMetricsUserData(req: VelaRequest, map: Readonly<Record<string, unknown>>): void {
  // The node path keeps the data on node's request, the fetch path on the web Request.
  const data = (req.nodeRequest as Tracked | undefined)?.[kMetrics] ?? (req.event.req as unknown as Tracked)[kMetrics]
  if (data) Object.assign(data, map)
}

export const metricsStreamHandler = defineStreamHandler({
  name: 'metrics',
  wrap(next: FetchHandler, config: ResolvedConfig): FetchHandler {
    const report = reporter(config)
    if (!report) return next
    return async function metrics(request) {
      const finished = track(request, report)
      const res = await next(request)
      const status = res.status
      return whenResponseEnds(request, res, (length) => finished(status, length))
    }
  },
  wrapNode(next: NodeHandler, config: ResolvedConfig): NodeHandler {
    const report = reporter(config)
    if (!report) return next
    return function metrics(req, res) {
      const finished = track(req, report)
      whenNodeResponseEnds(res, req.method === 'HEAD', (length) => finished(res.statusCode, length))
      next(req, res)
    }
  },
  // A WebSocket handshake: reported at the 101 (body length 0), or when the refusal was written.
  wrapUpgrade(next: UpgradeHandler, config: ResolvedConfig): UpgradeHandler {
    const report = reporter(config)
    if (!report) return next
    return async function metrics(request) {
      const finished = track(request, report)
      const decision = await next(request)
      if (decision.accept) {
        finished(101, 0)
        return decision
      }
      const status = decision.response.status
      return { accept: false, response: whenResponseEnds(request, decision.response, (length) => finished(status, length)) }
    }
  },
})

type Report = (event: MetricsEvent) => void

/**
 * Starts one request's event: its user data is kept on `carrier` (node's request or the web
 * Request, where setMetricsUserData finds it); the returned function reports the finished request.
 */
function track(carrier: object, report: Report): (respStatus: number, respBodyLength: number) => void {
  const reqStart = process.hrtime.bigint()
  const userData: Record<string, unknown> = {}
  ;(carrier as Tracked)[kMetrics] = userData
  return (respStatus, respBodyLength) => report({ userData, reqStart, reqEnd: process.hrtime.bigint(), respStatus, respBodyLength })
}

/** Calls the configured callback with one event, never letting it fail the request. */
function reporter(config: ResolvedConfig): Report | undefined {
  const callback = config.server.options.metricsCallback
  if (!callback) return undefined
  return (event) => {
    try {
      const r = callback(event) as unknown
      if (typeof (r as Promise<unknown> | undefined)?.then === 'function') (r as Promise<unknown>).catch(logFailure)
    } catch (err) {
      logFailure(err)
    }
  }
}

function logFailure(err: unknown) {
  console.error('[vela] metricsCallback failed (the response was not affected):', err)
}

/** Start-up check: a callback without the handler would never be called; say so once. */
export function metricsSetupWarning(config: ResolvedConfig): string | undefined {
  if (!config.server.options.metricsCallback) return undefined
  if (config.server.streamHandlers.some((h) => h !== 'default' && h.name === 'metrics')) return undefined
  return "server.options.metricsCallback is set but server.streamHandlers does not list metricsStreamHandler before 'default': the callback will never be called"
}
