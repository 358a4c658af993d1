/**
 * The app page's figures over the recorded requests of the last minutes, in time buckets: the
 * request count and rate, the error rate (5xx) and latency percentiles (p50, p95, p99). Per
 * minute for the table, in shorter buckets for the charts (charts.ts).
 */
import type { RequestRecord } from '../../server/dashboard/record.ts'

/** One bucket's figures. */
export interface BucketStats {
  /** The bucket's start (epoch milliseconds). */
  readonly start: number
  readonly requests: number
  /** Requests per second over the bucket. */
  readonly rate: number
  /** Share of 5xx answers, 0 to 1 (0 without requests). */
  readonly errorRate: number
  readonly p50: number
  readonly p95: number
  readonly p99: number
}

/** One minute's figures. */
export interface MinuteStats extends BucketStats {
  /** The minute's start, `HH:MM` in local time. */
  readonly minute: string
}

const percentile = (sorted: readonly number[], p: number): number =>
  sorted.length === 0 ? 0 : sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!
const round = (n: number) => Math.round(n * 10) / 10

/** The last `count` buckets of `bucketMs` each (oldest first), the last one holding `now`. */
export function bucketStats(
  records: readonly RequestRecord[],
  bucketMs: number,
  count: number,
  now = Date.now(),
): BucketStats[] {
  const end = Math.floor(now / bucketMs)
  const buckets: RequestRecord[][] = Array.from({ length: count }, () => [])
  for (const r of records) {
    const age = end - Math.floor(r.startedAt / bucketMs)
    if (age >= 0 && age < count) buckets[count - 1 - age]!.push(r)
  }
  return buckets.map((list, i) => {
    const times = list.map((r) => r.durationMs ?? 0).sort((a, b) => a - b)
    return {
      start: (end - (count - 1 - i)) * bucketMs,
      requests: list.length,
      rate: round((list.length * 1000) / bucketMs),
      errorRate: list.length ? list.filter((r) => (r.status ?? 0) >= 500).length / list.length : 0,
      p50: round(percentile(times, 50)),
      p95: round(percentile(times, 95)),
      p99: round(percentile(times, 99)),
    }
  })
}

/** The last `minutes` minutes (newest first) of `records`, as of `now`. */
export function minuteStats(records: readonly RequestRecord[], minutes = 10, now = Date.now()): MinuteStats[] {
  return bucketStats(records, 60_000, minutes, now)
    .reverse()
    .map((b) => ({ ...b, minute: new Date(b.start).toTimeString().slice(0, 5) }))
}
