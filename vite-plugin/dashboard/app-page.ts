/**
 * The app page's data: the route table as `vela routes` and `vela plugins` describe it, the
 * audit's findings, the configuration with defaults marked (`vela config`), and the figures of
 * the last minutes over the recorded requests.
 */
import type { VelaApp } from '../../server/app/create-app.ts'
import type { RequestRecord } from '../../server/dashboard/record.ts'
import { audit } from '../cli/commands/audit.ts'
import { configEntries } from '../cli/commands/config.ts'
import { describePlugins } from '../cli/commands/plugins.ts'
import { minuteStats } from './stats.ts'

/** Everything the app page shows of `app`; `records` feed the figures. */
export function appPage(app: VelaApp, records: readonly RequestRecord[] = []) {
  const pipelines = describePlugins(app.routeTable)
  const groups = pipelines.groups.map((g) => ({
    ...g,
    label: g.prefix === '' ? '""' : g.prefix,
    routes: g.routes.map((r) => ({ ...r, methodLabel: r.methods === 'all' ? '*' : r.methods.join(',') })),
    plugins: g.plugins.map((p) => ({ ...p, optionsText: JSON.stringify(p.options) })),
  }))
  const findings = audit(app.routeTable)
  const config = configEntries(app.config).map((e) => ({
    ...e,
    valueText: typeof e.value === 'string' ? e.value : JSON.stringify(e.value),
  }))
  return { groups, global: pipelines.global, findings, config, minutes: minuteStats(records) }
}
