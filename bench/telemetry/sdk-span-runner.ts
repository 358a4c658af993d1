/**
 * The OpenTelemetry SDK's own part of a traced request, without Vela or HTTP, counted by the
 * telemetry bench (`BENCH_TELEMETRY=count`) as the floor under Vela's full-sampling figure: per
 * call, the work the stream handler asks of the SDK for one sampled request on the bench's SDK set-up
 * (bench/servers/telemetry-setup.ts: every request sampled, spans batched then dropped): extract a
 * parent from headers that carry none, start a SERVER span, set the same 13 attributes, run inside
 * its context, name it after the route, set the route and status, end it. Run under callgrind, in
 * windows, by the path bench's runner (`countedWindows`).
 */
import { context, propagation, ROOT_CONTEXT, SpanKind, trace } from '@opentelemetry/api'
import { countedWindows } from '../path-runner.ts'
import { setupBenchTelemetry } from '../servers/telemetry-setup.ts'

process.env.BENCH_OTEL = 'all'
await setupBenchTelemetry()
const tracer = trace.getTracer('bench')
const headers: Record<string, string> = { host: '127.0.0.1:8080', 'user-agent': 'bench' }
const getter = {
  get: (h: Record<string, string>, k: string) => h[k],
  keys: (h: Record<string, string>) => Object.keys(h),
}
const inside = () => undefined

async function oneSpan(): Promise<void> {
  const parent = propagation.extract(ROOT_CONTEXT, headers, getter)
  const span = tracer.startSpan('HTTP GET', { kind: SpanKind.SERVER }, parent)
  span.setAttribute('http.request.method', 'GET')
  span.setAttribute('url.path', '/heartbeat')
  span.setAttribute('url.scheme', 'http')
  span.setAttribute('server.address', '127.0.0.1')
  span.setAttribute('server.port', 8080)
  span.setAttribute('client.address', '127.0.0.1')
  span.setAttribute('network.peer.address', '127.0.0.1')
  span.setAttribute('network.peer.port', 50_000)
  span.setAttribute('network.protocol.version', '1.1')
  span.setAttribute('user_agent.original', 'bench')
  context.with(trace.setSpan(parent, span), inside)
  span.setAttribute('vela.app', 'bench')
  span.setAttribute('vela.controller', 'heartbeat_controller')
  span.setAttribute('vela.action', 'index')
  span.setAttribute('http.route', '/heartbeat')
  span.updateName('GET heartbeat_controller:index')
  span.setAttribute('http.response.status_code', 200)
  span.end()
}

await countedWindows(oneSpan, Number(process.env.BENCH_N ?? 20_000), Number(process.env.BENCH_WINDOWS ?? 5))
