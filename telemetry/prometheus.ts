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
 *
 * The format follows the scraper's Accept (exposition.ts): OpenMetrics, with exemplars, when it
 * prefers `application/openmetrics-text` (Prometheus's default Accept does); otherwise, and
 * without an Accept, the Prometheus text format.
 */
import type { ServerResponse } from 'node:http'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import Negotiator from 'negotiator'
import type { MetricsFormat } from './exposition.ts'
import { CONTENT_TYPES } from './exposition.ts'

/** Where `setupTelemetry({ prometheus })` serves `GET /metrics`: the port, and the address to listen on. */
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

/** What the endpoint serves: a prom-client registry's exposition, or the sum of a cluster's (cluster-metrics.ts). */
export interface MetricsSource {
  /** The exposition in `format` (default: the Prometheus text format). */
  metrics(format?: MetricsFormat): Promise<string>
}

// Offered in this order: a scraper that accepts both alike (`*/*`) gets the Prometheus text.
const OFFERED = [CONTENT_TYPES.prometheus, 'application/openmetrics-text; version=1.0.0']

/** The format an Accept header asks for: OpenMetrics when it prefers it, else the Prometheus text. */
export function formatFor(accept: string | undefined): MetricsFormat {
  if (!accept) return 'prometheus'
  const chosen = new Negotiator({ headers: { accept } }).mediaType(OFFERED)
  return chosen === OFFERED[1] ? 'openmetrics' : 'prometheus'
}

export interface PrometheusServer {
  /** `http://<host>:<port>/metrics` with the port actually bound. */
  readonly url: string
  close(): Promise<void>
}

export async function servePrometheus(
  registry: MetricsSource,
  options: PrometheusOptions,
  env: NodeJS.ProcessEnv = process.env,
): Promise<PrometheusServer> {
  const listenOn = prometheusHost(options, env)
  const server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?', 1)[0]
    if (path !== '/metrics') return reply(res, 404, 'Not Found\n')
    if (req.method !== 'GET' && req.method !== 'HEAD')
      return reply(res, 405, 'Method Not Allowed\n', { allow: 'GET, HEAD' })
    const format = formatFor(req.headers.accept)
    registry.metrics(format).then(
      (text) =>
        reply(res, 200, req.method === 'HEAD' ? '' : text, { 'content-type': CONTENT_TYPES[format], vary: 'accept' }),
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
