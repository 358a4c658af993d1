// The app page's figures and charts over recorded requests: time buckets with rate, error rate
// and latency percentiles; the charts' SVG lines place each bucket's value on a round y axis.
import { expect, it } from 'vitest'
import type { RequestRecord } from '../../server/dashboard/record.ts'
import { CHART_BUCKETS, charts } from './charts.ts'
import { bucketStats, minuteStats } from './stats.ts'

const NOW = Date.UTC(2026, 10, 27, 12, 0, 55)
const record = (agoMs: number, durationMs: number, status: number): RequestRecord =>
  ({
    id: `r${agoMs}-${durationMs}`,
    startedAt: NOW - agoMs,
    method: 'GET',
    path: '/',
    query: undefined,
    client: undefined,
    headers: [],
    status,
    durationMs,
    logs: [],
    spans: [],
    plugins: [],
    bytes: 0,
  }) as RequestRecord

// The current 10 s bucket: 10 requests, 1 to 10 ms, one a 500. Forty seconds earlier: 2 slow ones.
const records = [
  ...Array.from({ length: 10 }, (_, i) => record(1000 + i, i + 1, i === 9 ? 500 : 200)),
  record(40_000, 400, 200),
  record(40_001, 800, 503),
]

it('buckets: count, rate per second, error rate and percentiles; empty buckets are zero', () => {
  const buckets = bucketStats(records, 10_000, 6, NOW)
  expect(buckets.map((b) => b.requests)).toEqual([0, 2, 0, 0, 0, 10])
  expect(buckets[5]).toMatchObject({ rate: 1, errorRate: 0.1, p50: 5, p95: 10, p99: 10 })
  expect(buckets[1]).toMatchObject({ rate: 0.2, errorRate: 0.5, p50: 400, p99: 800 })
  expect(buckets[0]).toMatchObject({ rate: 0, errorRate: 0, p50: 0, p99: 0 })
  expect(buckets[5]!.start).toBe(Math.floor(NOW / 10_000) * 10_000)
  // The per-minute table keeps its shape: newest minute first.
  const minutes = minuteStats(records, 3, NOW)
  expect(minutes.map((m) => m.requests)).toEqual([12, 0, 0])
  expect(minutes[0]!.minute).toMatch(/^\d\d:\d\d$/)
})

it('charts: rate, latency p50/p95/p99 and error rate lines over the last five minutes, scaled to a round top', () => {
  const [rate, latency, errors] = charts(records, NOW)
  expect([rate!.id, latency!.id, errors!.id]).toEqual(['rate', 'latency', 'errors'])
  expect(latency!.lines.map((l) => l.name)).toEqual(['p50', 'p95', 'p99'])
  const ys = (points: string) => points.split(' ').map((p) => Number(p.split(',')[1]))
  for (const c of [rate!, latency!, errors!]) for (const l of c.lines) expect(ys(l.points)).toHaveLength(CHART_BUCKETS)
  // The y axis tops at a round figure above the highest value; the highest point touches it.
  expect(latency!.max).toBe('1000')
  expect(Math.min(...ys(latency!.lines[2]!.points))).toBeCloseTo(8 + 104 * (1 - 800 / 1000), 1)
  expect(rate!.max).toBe('1')
  expect(rate!.lines[0]!.last).toBe('1/s')
  expect(errors!.max).toBe('50')
  expect(errors!.lines[0]!.last).toBe('10 %')
  // Zero sits on the x axis.
  expect(ys(errors!.lines[0]!.points)[0]).toBe(112)
  expect(rate!.requests).toBe(12)
})

it('with no request in the window every line is flat on the axis', () => {
  const [rate] = charts([], NOW)
  expect(rate!.requests).toBe(0)
  expect(new Set(rate!.lines[0]!.points.split(' ').map((p) => p.split(',')[1]))).toEqual(new Set(['112.0']))
})
