/**
 * The metrics endpoint: `GET /metrics` (and HEAD) on its own port answers the text exposition of
 * the registry; any other path is a 404, another method on `/metrics` a 405.
 *
 * **Choice:** it has no authentication, so it listens on the loopback interface (127.0.0.1)
 * unless told otherwise: a Prometheus on the same machine (or a sidecar) can scrape it, nobody
 * else. `host` opens it (`'0.0.0.0'`, or one interface's address); without the option, the
 * OpenTelemetry variable for its Prometheus exporter, `OTEL_EXPORTER_PROMETHEUS_HOST`, is read,
 * so a deployment (Kubernetes scrapes each pod over its own IP) can open it without a code
 * change. Opened, it should be reachable only from the scraper's network.
 */
import type { ServerResponse } from 'node:http'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'

export interface PrometheusOptions {
  /** `0` picks a free port (see `Telemetry.prometheusUrl`). */
  readonly port: number
  /**
   * The address to listen on. Default: `OTEL_EXPORTER_PROMETHEUS_HOST`, else `127.0.0.1` (this
   * machine only: the endpoint has no authentication). `'0.0.0.0'` (or `'::'`) is every interface.
   */
  readonly host?: string
}

/** Where the endpoint listens when neither `host` nor `OTEL_EXPORTER_PROMETHEUS_HOST` says. */
export const DEFAULT_PROMETHEUS_HOST = '127.0.0.1'

/** The address to listen on: the option, else the OpenTelemetry variable, else the loopback interface. */
export function prometheusHost(options: PrometheusOptions, env: NodeJS.ProcessEnv = process.env): string {
  return options.host || env.OTEL_EXPORTER_PROMETHEUS_HOST?.trim() || DEFAULT_PROMETHEUS_HOST
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

export async function servePrometheus(registry: MetricsSource, options: PrometheusOptions, env: NodeJS.ProcessEnv = process.env): Promise<PrometheusServer> {
  const listenOn = prometheusHost(options, env)
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
    server.listen(options.port, listenOn, () => {
      server.off('error', reject)
      resolve()
    })
  })
  const { port } = server.address() as AddressInfo
  const host = listenOn !== '0.0.0.0' && listenOn !== '::' ? listenOn : 'localhost'
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
