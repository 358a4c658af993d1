/**
 * The app's own metrics on `/metrics`: counters, up-down counters, gauges and histograms an app
 * records through the OpenTelemetry API (`metrics.getMeter('shop').createCounter('orders')`)
 * are read by this pull reader on each scrape and registered on the same prom-client registry
 * as Vela's HTTP metrics, so they are served by the same endpoint and, in a cluster, summed over
 * the workers the same way (cluster-metrics.ts). With OTLP metrics configured, the same meter
 * provider exports them there too.
 *
 * Names follow the OpenTelemetry-to-Prometheus rules: characters other than `[a-zA-Z0-9_:]`
 * become `_`, the unit is appended (`s` → `_seconds`, `By` → `_bytes`, `ms` →
 * `_milliseconds`), and monotonic sums (counters) end in `_total`. Attribute keys become label
 * names the same way. Vela's own OpenTelemetry instruments (meter `vela`) are skipped: the
 * registry already holds them under their Prometheus names. Exponential histograms are not
 * exposed (the text exposition has no such type).
 */
import type { Attributes } from '@opentelemetry/api'
import { diag } from '@opentelemetry/api'
import type { MetricData } from '@opentelemetry/sdk-metrics'
import { DataPointType, MetricReader } from '@opentelemetry/sdk-metrics'

type Labels = Record<string, string>

/** One metric family in prom-client's shape (what `Registry.getMetricsAsJSON` returns per metric). */
export interface PromMetric {
  readonly name: string
  readonly help: string
  readonly type: 'counter' | 'gauge' | 'histogram'
  readonly aggregator: 'sum'
  readonly values: { readonly value: number; readonly labels: Labels; readonly metricName?: string }[]
}

const UNITS: Readonly<Record<string, string>> = {
  s: 'seconds',
  ms: 'milliseconds',
  us: 'microseconds',
  ns: 'nanoseconds',
  By: 'bytes',
  KiBy: 'kibibytes',
  MiBy: 'mebibytes',
  '%': 'percent',
  '1': 'ratio',
}

/** The pull reader the meter provider feeds; `families()` reads the app's metrics now. */
export class AppMetricsReader extends MetricReader {
  protected onForceFlush(): Promise<void> {
    return Promise.resolve()
  }

  protected onShutdown(): Promise<void> {
    return Promise.resolve()
  }

  /** The app's metrics as prom-client metric families (none before the reader joins a meter provider). */
  async families(skipScope = 'vela'): Promise<PromMetric[]> {
    let collected
    try {
      collected = await this.collect()
    } catch {
      return [] // not attached to a meter provider, or shut down
    }
    for (const err of collected.errors) diag.warn('vela/telemetry: reading the app metrics:', err)
    const out: PromMetric[] = []
    for (const scope of collected.resourceMetrics.scopeMetrics) {
      if (scope.scope.name === skipScope) continue
      for (const metric of scope.metrics) {
        const family = toFamily(metric)
        if (family) out.push(family)
      }
    }
    return out
  }
}

function toFamily(metric: MetricData): PromMetric | undefined {
  const { descriptor } = metric
  const help = descriptor.description || descriptor.name
  let name = sanitize(descriptor.name)
  const unit = unitSuffix(descriptor.unit)
  if (unit && !name.endsWith(`_${unit}`)) name = `${name}_${unit}`
  if (metric.dataPointType === DataPointType.SUM && metric.isMonotonic) {
    if (!name.endsWith('_total')) name = `${name}_total`
    return {
      name,
      help,
      type: 'counter',
      aggregator: 'sum',
      values: metric.dataPoints.map((p) => ({ value: p.value, labels: labelsOf(p.attributes) })),
    }
  }
  if (metric.dataPointType === DataPointType.SUM || metric.dataPointType === DataPointType.GAUGE) {
    return {
      name,
      help,
      type: 'gauge',
      aggregator: 'sum',
      values: metric.dataPoints.map((p) => ({ value: p.value, labels: labelsOf(p.attributes) })),
    }
  }
  if (metric.dataPointType === DataPointType.HISTOGRAM) {
    const values: PromMetric['values'] = []
    for (const p of metric.dataPoints) {
      const labels = labelsOf(p.attributes)
      const { boundaries, counts } = p.value.buckets
      let cumulative = 0
      for (let i = 0; i < counts.length; i++) {
        cumulative += counts[i]!
        values.push({
          metricName: `${name}_bucket`,
          labels: { le: i < boundaries.length ? String(boundaries[i]) : '+Inf', ...labels },
          value: cumulative,
        })
      }
      values.push({ metricName: `${name}_sum`, labels, value: p.value.sum ?? 0 })
      values.push({ metricName: `${name}_count`, labels, value: p.value.count })
    }
    return { name, help, type: 'histogram', aggregator: 'sum', values }
  }
  return undefined
}

function sanitize(name: string): string {
  const s = name.replace(/[^a-zA-Z0-9_:]/g, '_')
  return /^[0-9]/.test(s) ? `_${s}` : s
}

function unitSuffix(unit: string): string | undefined {
  if (!unit || unit.startsWith('{')) return undefined
  return UNITS[unit] ?? sanitize(unit)
}

function labelsOf(attributes: Attributes): Labels {
  const labels: Labels = {}
  for (const [k, v] of Object.entries(attributes))
    if (v !== undefined) labels[sanitize(k)] = Array.isArray(v) ? v.join(',') : String(v)
  return labels
}
