/**
 * The two texts `/metrics` answers: the Prometheus text format (`text/plain; version=0.0.4`), and
 * the OpenMetrics text format (`application/openmetrics-text; version=1.0.0`, ending `# EOF`) for
 * a scraper whose Accept asks for it (Prometheus does by default). Only the OpenMetrics text
 * carries exemplars: the trace of a sampled request on its duration's bucket (series.ts).
 *
 * Both are printed by prom-client. The OpenMetrics text comes from the registry's JSON (the values
 * `getMetricsAsJSON()` gives, which a cluster's primary also sums) through a registry of the
 * OpenMetrics content type holding stand-ins. Why stand-ins: printing OpenMetrics, prom-client
 * renames each counter it prints (the family loses its `_total`); done on the app's own metric
 * objects, the next Prometheus text would lose the suffix too.
 */
import type { OpenMetricsContentType } from 'prom-client'
import { Registry } from 'prom-client'

/** The exposition formats of `/metrics`: the Prometheus text format, or OpenMetrics (with exemplars). */
export type MetricsFormat = 'prometheus' | 'openmetrics'

/** What `Registry.getMetricsAsJSON()` gives: metric families with their values. */
export type MetricsJson = Awaited<ReturnType<Registry['getMetricsAsJSON']>>

/** The `content-type` of each format. */
export const CONTENT_TYPES: Readonly<Record<MetricsFormat, string>> = {
  prometheus: Registry.PROMETHEUS_CONTENT_TYPE,
  openmetrics: Registry.OPENMETRICS_CONTENT_TYPE,
}

/** One value of a family as prom-client gives it, with the fields the declared type leaves out. */
interface Value {
  readonly value: number
  readonly labels: Readonly<Record<string, string | number | undefined>>
  readonly metricName?: string
  readonly exemplar?: { readonly timestamp: number }
}

/** `registry`'s exposition in `format`. */
export async function exposition(registry: Registry, format: MetricsFormat): Promise<string> {
  return format === 'openmetrics' ? openMetricsText(await registry.getMetricsAsJSON()) : registry.metrics()
}

/** The OpenMetrics text of metric families (from `getMetricsAsJSON()`, or a cluster's sum). */
export function openMetricsText(families: MetricsJson): Promise<string> {
  const registry = new Registry<OpenMetricsContentType>()
  registry.setContentType(Registry.OPENMETRICS_CONTENT_TYPE)
  for (const family of families) {
    const standIn = {
      name: family.name,
      help: family.help,
      type: family.type,
      aggregator: family.aggregator,
      get: () => ({ ...family, name: standIn.name }),
    }
    registry.registerMetric(standIn as never)
  }
  return registry.metrics()
}

/**
 * `summed` (the sum of `parts`, which prom-client's aggregation gives without exemplars) with, on
 * each value, the latest exemplar any part had on it: of several workers, the most recent trace.
 */
export function withLatestExemplars(summed: MetricsJson, parts: readonly MetricsJson[]): MetricsJson {
  const latest = new Map<string, Value['exemplar']>()
  for (const families of parts) {
    for (const family of families) {
      for (const value of family.values as Value[]) {
        const exemplar = value.exemplar
        if (exemplar === undefined) continue
        const key = valueKey(family.name, value)
        const known = latest.get(key)
        if (known === undefined || exemplar.timestamp > known.timestamp) latest.set(key, exemplar)
      }
    }
  }
  if (latest.size === 0) return summed
  return summed.map((family) => ({
    ...family,
    values: (family.values as Value[]).map((value) => {
      const exemplar = latest.get(valueKey(family.name, value))
      return exemplar === undefined ? value : { ...value, exemplar }
    }),
  }))
}

/** Identifies a value within the families: its family, its sample name, its labels in any order. */
function valueKey(family: string, value: Value): string {
  const labels = Object.entries(value.labels).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
  return JSON.stringify([family, value.metricName ?? '', labels])
}
