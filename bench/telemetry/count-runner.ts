/**
 * One process of the telemetry bench's counted part (`BENCH_TELEMETRY=count`): `BENCH_ROUTE` served
 * by the path bench's runner, by the bench app without any telemetry module loaded
 * (`BENCH_OTEL=off`) or with telemetry set up as `BENCH_OTEL` says and its stream handler listed,
 * as apps ship it. Run under callgrind by bench/telemetry/path.ts.
 */
import { runPath } from '../path-runner.ts'
import { createBenchApp } from '../servers/vela-app.ts'

if (process.env.BENCH_OTEL === 'off') await runPath(createBenchApp())
else {
  const { setupBenchTelemetry } = await import('../servers/telemetry-setup.ts')
  const { telemetryStreamHandler } = await import('../../telemetry/index.ts')
  await setupBenchTelemetry()
  await runPath(createBenchApp({ streamHandler: telemetryStreamHandler }))
}
