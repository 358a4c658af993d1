/**
 * The app page's figures over the recorded requests of the last minutes: per minute, the request
 * count, the error rate (5xx) and latency percentiles (p50, p95, p99).
 */
import type { RequestRecord } from '../../server/dashboard/record.ts'

/** One minute's figures. */
export interface MinuteStats {
  /** The minute's start, `HH:MM` in local time. */
  readonly minute: string
  readonly requests: number
  readonly errorRate: number
  readonly p50: number
  readonly p95: number
  readonly p99: number
}

const percentile = (sorted: readonly number[], p: number): number => (sorted.length === 0 ? 0 : sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!)

/** The last `minutes` minutes (newest first) of `records`, as of `now`. */
export function minuteStats(records: readonly RequestRecord[], minutes = 10, now = Date.now()): MinuteStats[] {
  const end = Math.floor(now / 60_000)
  const buckets = new Map<number, RequestRecord[]>()
  for (const r of records) {
    const m = Math.floor(r.startedAt / 60_000)
    if (end - m < minutes) buckets.set(m, [...(buckets.get(m) ?? []), r])
  }
  const out: MinuteStats[] = []
  for (let m = end; m > end - minutes; m--) {
    const list = buckets.get(m) ?? []
    const times = list.map((r) => r.durationMs ?? 0).sort((a, b) => a - b)
    const round = (n: number) => Math.round(n * 10) / 10
    const minute = new Date(m * 60_000).toTimeString().slice(0, 5)
    out.push({ minute, requests: list.length, errorRate: list.length ? list.filter((r) => (r.status ?? 0) >= 500).length / list.length : 0, p50: round(percentile(times, 50)), p95: round(percentile(times, 95)), p99: round(percentile(times, 99)) })
  }
  return out
}
