import { trace, type Span, type Tracer, type TracerProvider } from '@opentelemetry/api'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { defineRepo } from '../../repo.ts'
import type { QueryEvent } from '../../repo/telemetry.ts'
import type { SuiteContext } from '../suite-context.ts'
import { Product } from '../schemas.ts'
import { productCs } from './read-write.ts'

interface Recorded {
  name: string
  attributes: Record<string, unknown>
  status?: number
  ended: boolean
}

/** A minimal tracer provider, enough to see what the repo would hand to an OpenTelemetry SDK. */
function recordingProvider(spans: Recorded[]): TracerProvider {
  const tracer = {
    startSpan(name: string, opts?: { attributes?: Record<string, unknown> }) {
      const rec: Recorded = { name, attributes: { ...opts?.attributes }, ended: false }
      spans.push(rec)
      const span = {
        setAttribute: (k: string, v: unknown) => ((rec.attributes[k] = v), span),
        setStatus: (s: { code: number }) => ((rec.status = s.code), span),
        recordException: () => {},
        end: () => void (rec.ended = true),
      }
      return span as unknown as Span
    },
  } as unknown as Tracer
  return { getTracer: () => tracer }
}

export function telemetryCases(t: SuiteContext): void {
  describe('query telemetry', () => {
    afterEach(() => {
      trace.disable()
      vi.restoreAllMocks()
    })

    it('a log function gets query, params, result, numRows, durationUs, repo, source and reason per query', async () => {
      const events: QueryEvent[] = []
      const repo = defineRepo({ adapter: t.adapter, name: 'Shop.Repo', log: (e) => events.push(e) })
      await repo.insert(productCs({ name: 'Tea', price: 1 }))
      await repo.get(Product, 1)
      await repo.query('select nope')
      expect(events).toHaveLength(3)
      for (const e of events)
        expect(Object.keys(e).sort()).toEqual([
          'durationUs',
          'numRows',
          'params',
          'query',
          'reason',
          'repo',
          'result',
          'source',
        ])
      expect(events[0]).toMatchObject({
        query: expect.stringMatching(/^insert into "products"/),
        result: 'ok',
        numRows: 1,
        repo: 'Shop.Repo',
        source: 'products',
        reason: undefined,
      })
      expect(events[1]).toMatchObject({ params: [1], result: 'ok', numRows: 1, source: 'products', reason: undefined })
      // Raw SQL has no source; the failure's reason is the server's SQLSTATE (undefined_column) and message.
      expect(events[2]).toMatchObject({
        query: 'select nope',
        params: [],
        result: 'error',
        numRows: 0,
        repo: 'Shop.Repo',
        source: undefined,
        reason: { type: '42703', message: 'column "nope" does not exist' },
      })
      for (const e of events) expect(Number.isInteger(e.durationUs) && e.durationUs >= 0).toBe(true)
    })

    it('log: true writes one info line per query; a throwing handler does not fail the query', async () => {
      const info = vi.spyOn(console, 'info').mockImplementation(() => {})
      const repo = defineRepo({ adapter: t.adapter, name: 'R', log: true })
      await repo.get(Product, 1)
      expect(info).toHaveBeenCalledTimes(1)
      expect(String(info.mock.calls[0]![0])).toMatch(
        /^\[R\] OK \d+µs 0 row\(s\): select .* from "products" where "id" = \$1 \[1\]$/,
      )
      await repo.query('select nope')
      expect(String(info.mock.calls[1]![0])).toMatch(/^\[R\] ERROR 42703 \d+µs 0 row\(s\): select nope \[\]$/)
      const throwing = defineRepo({
        adapter: t.adapter,
        log: () => {
          throw new Error('handler bug')
        },
      })
      expect(await throwing.get(Product, 1)).toBeUndefined()
    })

    it('with an OpenTelemetry provider registered, each query is a span named after verb and table', async () => {
      const spans: Recorded[] = []
      expect(trace.setGlobalTracerProvider(recordingProvider(spans))).toBe(true)
      await t.repo.insert(productCs({ name: 'Tea', price: 1 }))
      await t.repo.get(Product, 1)
      await t.repo.query('select nope')
      expect(spans.map((s) => s.name)).toEqual(['INSERT products', 'SELECT products', 'db.query'])
      expect(spans[1]!.attributes).toMatchObject({
        'db.system': 'postgresql',
        'db.statement': expect.stringMatching(/^select /),
      })
      expect(spans[2]!.status).toBe(2)
      expect(spans.every((s) => s.ended)).toBe(true)
      trace.disable()
      await t.repo.get(Product, 1)
      expect(spans).toHaveLength(3)
    })

    it('a query span names its repo, its table and, when it fails, the SQLSTATE', async () => {
      const spans: Recorded[] = []
      expect(trace.setGlobalTracerProvider(recordingProvider(spans))).toBe(true)
      const repo = defineRepo({ adapter: t.adapter, name: 'Shop.Repo' })
      await repo.get(Product, 1)
      const raw = 'insert into products (name, price) values ($1, $2)'
      expect((await repo.query(raw, ['Tea', 1])).ok).toBe(true)
      const dup = await repo.query(raw, ['Tea', 2])
      expect(!dup.ok && dup.error.code).toBe('23505')
      const [read, inserted, failed] = spans
      expect(read!.attributes).toEqual({
        'db.system': 'postgresql',
        'db.statement': expect.stringMatching(/^select .* from "products"/),
        'vela.repo': 'Shop.Repo',
        'db.operation.name': 'SELECT',
        'db.collection.name': 'products',
        'db.response.returned_rows': 0,
      })
      expect(inserted!.attributes).toEqual({
        'db.system': 'postgresql',
        'db.statement': raw,
        'vela.repo': 'Shop.Repo',
        'db.response.returned_rows': 1,
      })
      expect(failed!.name).toBe('db.query')
      expect(failed!.status).toBe(2)
      expect(failed!.attributes).toEqual({
        'db.system': 'postgresql',
        'db.statement': raw,
        'vela.repo': 'Shop.Repo',
        'error.type': '23505',
        'db.response.status_code': '23505',
      })
    })
  })
}
