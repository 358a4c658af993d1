// Exemplars when Vela joins the app's own SDK: the app's sampler decides which traces exist, so only
// the requests it samples leave an exemplar. Here its sampler follows the parent and samples no new
// trace: a request with a sampled `traceparent` leaves one, a request without leaves none.
import { NodeSDK } from '@opentelemetry/sdk-node'
import {
  AlwaysOffSampler,
  InMemorySpanExporter,
  ParentBasedSampler,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { createApp } from '../server/app/create-app.ts'
import { json } from '../server/replies.ts'
import { inject } from '../server/testing/index.ts'
import { strictLog } from '../test/support/logs.ts'
import { until } from '../test/support/until.ts'
import type { Telemetry } from './setup.ts'
import { setupTelemetry } from './setup.ts'
import { telemetryStreamHandler } from './stream-handler.ts'

const logs = strictLog()
const exporter = new InMemorySpanExporter()
const sdk = new NodeSDK({
  spanProcessors: [new SimpleSpanProcessor({ exporter })],
  sampler: new ParentBasedSampler({ root: new AlwaysOffSampler() }),
})
const app = createApp(
  {
    bootstrapApplication: 'joined',
    server: { streamHandlers: [telemetryStreamHandler, 'default'] },
    routes: { r: { prefix: '', security: false, routes: [['GET /j', () => json({ ok: true })]] } },
  },
  { env: {}, log: logs.log },
)

let telemetry: Telemetry
beforeAll(async () => {
  sdk.start()
  telemetry = await setupTelemetry()
})
afterAll(async () => {
  await telemetry.shutdown()
  await sdk.shutdown()
})

const traceIds = (text: string) => [...text.matchAll(/trace_id="([0-9a-f]{32})"/g)].map((m) => m[1]!)
const counted = async (n: number) =>
  new RegExp(`^http_server_request_duration_seconds_count\\{[^}]*http_route="/j"[^}]*\\} ${n}$`, 'm').test(
    await telemetry.metrics(),
  )

it("only the requests the app's own sampler samples leave an exemplar", async () => {
  expect(telemetry.joined).toBe(true)
  // No parent: the app's sampler makes a non-recording span, whose trace exists nowhere.
  expect(await (await inject(app, '/j')).json()).toEqual({ ok: true })
  await until('the first request recorded', () => counted(1))
  expect(exporter.getFinishedSpans()).toEqual([])
  const first = await telemetry.metrics('openmetrics')
  expect(first.endsWith('\n# EOF\n')).toBe(true)
  expect(traceIds(first)).toEqual([])

  // A sampled parent: the app's sampler samples the request span, which is the exemplar.
  const parent = '0af7651916cd43dd8448eb211c80319c'
  expect(
    await (await inject(app, { url: '/j', headers: { traceparent: `00-${parent}-b7ad6b7169203331-01` } })).json(),
  ).toEqual({ ok: true })
  await until('the second request recorded', () => counted(2))
  // Exported once the SDK's resource is ready, which can come after the answer.
  await until('the request span exported', () => exporter.getFinishedSpans().length === 1)
  const [span] = exporter.getFinishedSpans()
  expect(span?.spanContext().traceId).toBe(parent)
  const second = await telemetry.metrics('openmetrics')
  expect(traceIds(second)).toEqual([parent])
  expect(second).toContain(`span_id="${span!.spanContext().spanId}"`)
})
