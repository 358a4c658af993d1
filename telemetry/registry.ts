/**
 * The prom-client registry `/metrics` serves: Vela's HTTP metrics, metrics an app registers on
 * it with prom-client, and (app-metrics.ts) what the app records through the OpenTelemetry API,
 * read afresh on each exposition (`metrics()`) and each JSON read (`getMetricsAsJSON()`, what a
 * cluster worker sends the primary), so every way of reading it sees the same families.
 */
import { diag } from '@opentelemetry/api'
import { Registry } from 'prom-client'
import type { AppMetricsReader, PromMetric } from './app-metrics.ts'

/** A registered stand-in for one OpenTelemetry metric: `get()` answers its last reading. */
interface Bridged {
  readonly name: string
  readonly help: string
  readonly type: PromMetric['type']
  readonly aggregator: 'sum'
  current: PromMetric
  get(): PromMetric
}

export class TelemetryRegistry extends Registry {
  readonly #bridged = new Map<string, Bridged>()
  readonly #clashes = new Set<string>()

  constructor(private readonly app: AppMetricsReader | undefined) {
    super()
  }

  /** Reads the app's OpenTelemetry metrics and registers any family not seen before. */
  async #refresh(): Promise<void> {
    if (!this.app) return
    for (const family of await this.app.families()) {
      const known = this.#bridged.get(family.name)
      if (known) {
        known.current = family
        continue
      }
      if (this.#clashes.has(family.name)) continue
      const bridged: Bridged = {
        name: family.name,
        help: family.help,
        type: family.type,
        aggregator: 'sum',
        current: family,
        get: () => bridged.current,
      }
      try {
        this.registerMetric(bridged as never)
        this.#bridged.set(family.name, bridged)
      } catch {
        // A prom-client metric of the same name was registered first: it keeps the name.
        this.#clashes.add(family.name)
        diag.warn(
          `vela/telemetry: the OpenTelemetry metric ${family.name} is not exposed: a metric of that name is already registered`,
        )
      }
    }
  }

  override async metrics(): Promise<string> {
    await this.#refresh()
    return super.metrics()
  }

  override async getMetricsAsJSON(): ReturnType<Registry['getMetricsAsJSON']> {
    await this.#refresh()
    return super.getMetricsAsJSON()
  }
}
