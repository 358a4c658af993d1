/**
 * The Fastify baseline traced the way Fastify apps usually are (the telemetry bench):
 * OpenTelemetry's HTTP instrumentation (a server span per request, the duration histogram on the
 * OTel meter) on the shared SDK set-up of telemetry-setup.ts, registered before Fastify loads so
 * that its `require('node:http')` is patched.
 */
import { registerInstrumentations } from '@opentelemetry/instrumentation'
import { HttpInstrumentation } from '@opentelemetry/instrumentation-http'
import { setupBenchTelemetry } from './telemetry-setup.ts'

await setupBenchTelemetry({ otelMetrics: true })
registerInstrumentations({ instrumentations: [new HttpInstrumentation()] })
await import('./fastify.ts')
