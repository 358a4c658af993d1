/**
 * The metrics endpoint of spec 4.4: `GET /metrics` (and HEAD) on its own port answers the text
 * exposition of the registry; any other path is a 404, another method on `/metrics` a 405.
 * It listens on all interfaces unless `host` says otherwise, as Prometheus exporters do.
 */
import type { ServerResponse } from 'node:http'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'

export interface PrometheusOptions {
  /** `0` picks a free port (see `Telemetry.prometheusUrl`). */
  readonly port: number
  readonly host?: string
}

/** What the endpoint serves: a prom-client `Registry`, or the sum of a cluster's (cluster-metrics.ts). */
export interface MetricsSource {
  metrics(): Promise<string>
  readonly contentType: string
}

export interface PrometheusServer {
  /** `http://<host>:<port>/metrics` with the port actually bound. */
  readonly url: string
  close(): Promise<void>
}

export async function servePrometheus(registry: MetricsSource, options: PrometheusOptions): Promise<PrometheusServer> {
  const server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?', 1)[0]
    if (path !== '/metrics') return reply(res, 404, 'Not Found\n')
    if (req.method !== 'GET' && req.method !== 'HEAD') return reply(res, 405, 'Method Not Allowed\n', { allow: 'GET, HEAD' })
    registry.metrics().then(
      (text) => reply(res, 200, req.method === 'HEAD' ? '' : text, { 'content-type': registry.contentType }),
      (err: unknown) => reply(res, 500, `${(err as Error)?.message ?? err}\n`),
    )
  })
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(options.port, options.host, () => {
      server.off('error', reject)
      resolve()
    })
  })
  const { port } = server.address() as AddressInfo
  const host = options.host && options.host !== '0.0.0.0' && options.host !== '::' ? options.host : 'localhost'
  return {
    url: `http://${host.includes(':') ? `[${host}]` : host}:${port}/metrics`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve())
        server.closeAllConnections()
      }),
  }
}

function reply(res: ServerResponse, status: number, body: string, headers: Record<string, string> = {}) {
  res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8', ...headers })
  res.end(body)
}
