/** Helpers shared by the telemetry tests (not part of the public module). */
import type { ReadableSpan } from '@opentelemetry/sdk-trace'
import { InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace'
import { afterAll, beforeAll, beforeEach } from 'vitest'
import type { Adapter } from '../dbl/adapters/adapter.ts'
import type { Telemetry } from './setup.ts'
import { setupTelemetry } from './setup.ts'

/** Telemetry set up for the test file with spans kept in memory, emptied before each test. */
export function useInMemorySpans(): InMemorySpanExporter {
  const exporter = new InMemorySpanExporter()
  let telemetry: Telemetry
  beforeAll(async () => {
    telemetry = await setupTelemetry({ spanProcessors: [new SimpleSpanProcessor({ exporter })] })
  })
  afterAll(() => telemetry.shutdown())
  beforeEach(() => exporter.reset())
  return exporter
}

/**
 * The finished spans once there are `n` of them. Spans end when the response has been sent: over
 * HTTP that is node's 'finish', which can come just after the client has read the body.
 */
export async function finishedSpans(exporter: InMemorySpanExporter, n: number): Promise<ReadableSpan[]> {
  for (let i = 0; i < 200 && exporter.getFinishedSpans().length < n; i++) await new Promise((r) => setTimeout(r, 5))
  return exporter.getFinishedSpans()
}

/** Polls `check` until it returns something other than undefined (or gives up after ~2 s). */
export async function eventually<T>(check: () => T | undefined | Promise<T | undefined>): Promise<T | undefined> {
  for (let i = 0; i < 200; i++) {
    const value = await check()
    if (value !== undefined) return value
    await new Promise((r) => setTimeout(r, 10))
  }
  return undefined
}

/** A database that answers every query with no rows: a repo on it runs its own runner (and spans) for real. */
export const emptyAdapter: Adapter = {
  kind: 'pg',
  query: async () => ({ rows: [], rowCount: 0 }),
  transaction: (fn) => fn(emptyAdapter),
  session: (fn) => fn(emptyAdapter),
  close: async () => {},
}
