/**
 * The metrics hook: list `metricsStreamHandler` in
 * `server.streamHandlers` before `'default'` and set `server.options.metricsCallback`; every
 * finished request then calls the callback once with `{ userData, reqStart, reqEnd, respStatus,
 * respBodyLength }`. A plugin adds data with `setMetricsUserData(req, map)`; calls merge.
 *
 * An observer (server/contracts/observer.ts), so it sees node's requests, in-process ones and
 * WebSocket handshakes (status 101 when accepted) alike. "Finished" and the body length are the
 * runtime's: where the bytes leave (node's response, after it was sent or when the client went
 * away; in-process, as the web body is read), so streamed and compressed bodies count as sent.
 * A callback that throws is logged; the response is already on its way.
 */
import type { MetricsEvent, ResolvedConfig } from '../contracts/config.ts'
import type { RequestFacts } from '../contracts/request.ts'
import type { VelaRequest } from '../request.ts'
import { defineStreamHandler } from './stream-handlers.ts'

const kMetrics = Symbol('vela.metrics')

interface Tracked {
  [kMetrics]?: Record<string, unknown>
}

/**
 * Merges `map` into this request's metrics user data (no-op without the metrics handler).
 *
 * `server.options.metricsCallback` receives it as `event.userData` when the request ends.
 *
 * @example
 * ```ts
 * import { json, setMetricsUserData, type VelaRequest } from 'vela'
 *
 * export function search(req: VelaRequest) {
 *   const results = ['lamp', 'chair']
 *   setMetricsUserData(req, { results: results.length })
 *   return json({ results })
 * }
 * ```
 */
export function setMetricsUserData(req: VelaRequest, map: Readonly<Record<string, unknown>>): void {
  const data = (req.facts as Tracked)[kMetrics]
  if (data) Object.assign(data, map)
}

/**
 * The metrics stream handler: calls `server.options.metricsCallback` once per finished request.
 *
 * Listed in `server.streamHandlers` (before `'default'`), it reports each request's timings,
 * status, body length and user data (`setMetricsUserData`).
 *
 * ```ts
 * import { defineApp, metricsStreamHandler } from 'vela'
 *
 * export default defineApp({
 *   bootstrapApplication: 'shop',
 *   server: {
 *     streamHandlers: [metricsStreamHandler, 'default'],
 *     options: { metricsCallback: (e) => console.log(e.respStatus, Number(e.reqEnd - e.reqStart) / 1e6, 'ms') },
 *   },
 * })
 * ```
 */
export const metricsStreamHandler = defineStreamHandler({
  name: 'metrics',
  observe(config: ResolvedConfig) {
    const report = reporter(config)
    if (!report) return undefined
    return (facts: RequestFacts) => {
      const reqStart = process.hrtime.bigint()
      // Kept on the request's facts, where setMetricsUserData finds it through `req.facts`.
      const userData: Record<string, unknown> = ((facts as Tracked)[kMetrics] = {})
      return {
        end: (o) =>
          report({
            userData,
            reqStart,
            reqEnd: process.hrtime.bigint(),
            respStatus: o.status,
            respBodyLength: o.responseBodySize,
          }),
      }
    }
  },
})

type Report = (event: MetricsEvent) => void

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
