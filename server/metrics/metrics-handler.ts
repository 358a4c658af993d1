/**
 * The metrics hook (spec 4.5, last paragraph): list `metricsStreamHandler` in
 * `server.streamHandlers` before `'default'` and set `server.options.metricsCallback`; every
 * finished request then calls the callback once with `{ userData, reqStart, reqEnd, respStatus,
 * respBodyLength }`. A plugin adds data with `setMetricsUserData(req, map)`; calls merge.
 *
 * "Finished" and the body length are taken where the bytes leave: on the node response ('finish',
 * or 'close' when the client went away) counting what was written, so streamed and compressed
 * bodies count as sent. Without a node response (in-process `inject`) the web body is counted
 * as it is read. A callback that throws is logged; the response is already on its way.
 */
import type { ServerResponse } from 'node:http'
import type { MetricsEvent, ResolvedConfig } from '../app/config.ts'
import type { FetchHandler } from '../app/stream-handlers.ts'
import { defineStreamHandler } from '../app/stream-handlers.ts'
import type { VelaRequest } from '../request.ts'

const kMetrics = Symbol('vela.metrics')

interface Tracked {
  [kMetrics]?: Record<string, unknown>
  runtime?: { node?: { res?: ServerResponse } }
}

/** Merges `map` into the metrics user data of this request (no-op without the metrics handler). */
export function setMetricsUserData(req: VelaRequest, map: Readonly<Record<string, unknown>>): void {
  const data = (req.event.req as unknown as Tracked)[kMetrics]
  if (data) Object.assign(data, map)
}

export const metricsStreamHandler = defineStreamHandler({
  name: 'metrics',
  wrap(next: FetchHandler, config: ResolvedConfig): FetchHandler {
    const callback = config.server.options.metricsCallback
    if (!callback) return next

    const report = (event: MetricsEvent) => {
      try {
        const r = callback(event) as unknown
        if (typeof (r as Promise<unknown> | undefined)?.then === 'function') (r as Promise<unknown>).catch(logFailure)
      } catch (err) {
        logFailure(err)
      }
    }

    return async function metrics(request) {
      const reqStart = process.hrtime.bigint()
      const userData: Record<string, unknown> = {}
      const tracked = request as unknown as Tracked
      tracked[kMetrics] = userData
      const res = await next(request)
      const status = res.status
      const finish = (length: number) => report({ userData, reqStart, reqEnd: process.hrtime.bigint(), respStatus: status, respBodyLength: length })
      const nodeRes = tracked.runtime?.node?.res
      if (nodeRes) {
        countNodeBody(nodeRes, request.method === 'HEAD' || status === 204 || status === 304, finish)
        return res
      }
      return countWebBody(res, finish)
    }
  },
})

function logFailure(err: unknown) {
  console.error('[vela] metricsCallback failed (the response was not affected):', err)
}

/** Counts the body bytes handed to the node response; reports once when it finishes or closes. */
function countNodeBody(res: ServerResponse, bodiless: boolean, done: (length: number) => void) {
  let length = 0
  if (!bodiless) {
    const write = res.write
    const end = res.end
    const add = (chunk: unknown, encoding: unknown) => {
      if (typeof chunk === 'string') length += Buffer.byteLength(chunk, typeof encoding === 'string' ? (encoding as BufferEncoding) : 'utf8')
      else if (chunk instanceof Uint8Array) length += chunk.byteLength
    }
    res.write = function (this: ServerResponse, chunk: unknown, ...rest: unknown[]) {
      add(chunk, rest[0])
      return (write as (...a: unknown[]) => boolean).call(this, chunk, ...rest)
    } as ServerResponse['write']
    res.end = function (this: ServerResponse, chunk?: unknown, ...rest: unknown[]) {
      if (typeof chunk !== 'function') add(chunk, rest[0])
      return (end as (...a: unknown[]) => ServerResponse).call(this, chunk, ...rest)
    } as ServerResponse['end']
  }
  let reported = false
  const once = () => {
    if (reported) return
    reported = true
    done(length)
  }
  res.once('finish', once)
  res.once('close', once)
}

/** In-process: the response is finished when its body has been read (or there is none). */
function countWebBody(res: Response, done: (length: number) => void): Response {
  if (!res.body) {
    done(0)
    return res
  }
  let length = 0
  const counted = res.body.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        length += chunk.byteLength
        controller.enqueue(chunk)
      },
      flush: () => done(length),
    }),
  )
  return new Response(counted, { status: res.status, statusText: res.statusText, headers: res.headers })
}

/** Start-up check: a callback without the handler would never be called; say so once. */
export function metricsSetupWarning(config: ResolvedConfig): string | undefined {
  if (!config.server.options.metricsCallback) return undefined
  if (config.server.streamHandlers.some((h) => h !== 'default' && h.name === 'metrics')) return undefined
  return "server.options.metricsCallback is set but server.streamHandlers does not list metricsStreamHandler before 'default': the callback will never be called"
}
