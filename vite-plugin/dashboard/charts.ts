/**
 * The app page's charts, drawn server-side as inline SVG (no script, no framework, nothing
 * fetched from elsewhere): request rate, latency percentiles (p50, p95, p99) and error rate over
 * the last five minutes of recorded requests, in 10-second buckets. The page's script re-fetches
 * them (`/__vela/charts`) as requests arrive, so they update live.
 */
import type { RequestRecord } from '../../server/dashboard/record.ts'
import type { BucketStats } from './stats.ts'
import { bucketStats } from './stats.ts'

/** The length of one chart bucket: 10 s. */
export const CHART_BUCKET_MS = 10_000
/** How many buckets a chart spans: 30, five minutes. */
export const CHART_BUCKETS = 30

// The plot area inside each chart's 600×140 view box (labels to its left and below).
const LEFT = 48
const RIGHT = 592
const TOP = 8
const BOTTOM = 112

/** One line of a chart: its SVG points, and its latest value for the legend. */
export interface ChartLine {
  readonly name: string
  readonly points: string
  readonly last: string
}

/** One chart as the template draws it. */
export interface Chart {
  readonly id: 'rate' | 'latency' | 'errors'
  readonly title: string
  /** The y axis's top, as labelled. */
  readonly max: string
  readonly lines: readonly ChartLine[]
  /** Requests in the window: without any, the chart says so. */
  readonly requests: number
  readonly from: string
  readonly to: string
}

/** A round top for the y axis, at or above `value` (1, 2, 5 × 10ⁿ). */
function niceMax(value: number): number {
  if (!(value > 0)) return 1
  const step = 10 ** Math.floor(Math.log10(value))
  return [1, 2, 5, 10].map((m) => m * step).find((m) => m >= value) ?? 10 * step
}

const fixed = (n: number) => (Number.isInteger(n) ? String(n) : n.toFixed(n < 10 ? 1 : 0))

function line(name: string, values: readonly number[], max: number, unit: string): ChartLine {
  const dx = (RIGHT - LEFT) / Math.max(values.length - 1, 1)
  const points = values
    .map((v, i) => `${(LEFT + i * dx).toFixed(1)},${(BOTTOM - (Math.min(v, max) / max) * (BOTTOM - TOP)).toFixed(1)}`)
    .join(' ')
  return { name, points, last: `${fixed(values.at(-1) ?? 0)}${unit}` }
}

/** The three charts over `buckets` (oldest first). */
export function chartsOf(buckets: readonly BucketStats[]): Chart[] {
  const requests = buckets.reduce((n, b) => n + b.requests, 0)
  const time = (ms: number) => new Date(ms).toTimeString().slice(0, 8)
  const from = time(buckets[0]?.start ?? Date.now())
  const to = time((buckets.at(-1)?.start ?? Date.now()) + CHART_BUCKET_MS)
  const rate = buckets.map((b) => b.rate)
  const rateMax = niceMax(Math.max(...rate))
  const latencyMax = niceMax(Math.max(...buckets.map((b) => b.p99)))
  const errors = buckets.map((b) => Math.round(b.errorRate * 1000) / 10)
  const errorMax = niceMax(Math.max(...errors))
  return [
    {
      id: 'rate',
      title: 'Request rate (requests/s)',
      max: fixed(rateMax),
      lines: [line('rate', rate, rateMax, '/s')],
      requests,
      from,
      to,
    },
    {
      id: 'latency',
      title: 'Latency (ms)',
      max: fixed(latencyMax),
      lines: (['p50', 'p95', 'p99'] as const).map((p) =>
        line(
          p,
          buckets.map((b) => b[p]),
          latencyMax,
          ' ms',
        ),
      ),
      requests,
      from,
      to,
    },
    {
      id: 'errors',
      title: 'Error rate (5xx, %)',
      max: fixed(errorMax),
      lines: [line('errors', errors, errorMax, ' %')],
      requests,
      from,
      to,
    },
  ]
}

/** The charts over the recorded requests, as of `now`. */
export const charts = (records: readonly RequestRecord[], now = Date.now()): Chart[] =>
  chartsOf(bucketStats(records, CHART_BUCKET_MS, CHART_BUCKETS, now))
