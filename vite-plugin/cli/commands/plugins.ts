/**
 * `vela plugins` (also `vela middleware`, its older name): the plugin pipelines. First the global plugins, then per route group (in
 * declaration order) its prefix, security callback (function name, or `false`), its plugin list —
 * `(inherits global)` when the group sets none — its routes and its status routes.
 *
 *   Global plugins
 *     pre_request  request 1.0.0  {"json":true}
 *
 *   Group /api  (declared in src/routes/api.ts group 0)
 *     security  false
 *     plugins   (inherits global)
 *     routes
 *       GET   /api/products      products_controller.index
 *       POST  /api/products      products_controller.create
 *     status
 *       404   routes/api.anonymous
 *
 * A plugin line is phase, plugin name and version (`info.version`, left out without one),
 * options as JSON; a plugin registered in both phases has a line per phase. `(none)`
 * marks an empty list (a group with `plugins: []` runs no plugins). `--json`:
 * `{ "global": [Plugin], "groups": [{ prefix, source, security: string | false, inheritsGlobal,
 * plugins: [Plugin] (the list in effect), routes: [{ methods, path, controller, action, kind }],
 * statusRoutes: [{ status, controller, action }] }] }` with
 * `Plugin = { phase, plugin, version, title, options }`.
 *
 * Option values whose key names a secret (`secret`, `password`, `token`, `key`…; the exact rule is
 * in redact.ts) show as `[redacted]`, in text and JSON: `{"secret":"[redacted]","maxAge":3600}`.
 */
import type { PluginStep } from '../../../server/pipeline/registration.ts'
import type { CompiledGroup, RouteTable } from '../../../server/router/compile.ts'
import type { PluginDescription } from './describe.ts'
import { align, describePlugin, handlerLabel, methodLabel, pluginLine, securityName } from './describe.ts'
import { prefixLabel } from './routes.ts'

export interface GroupDescription {
  readonly prefix: string
  readonly source: string
  readonly security: string | false
  readonly inheritsGlobal: boolean
  readonly plugins: readonly PluginDescription[]
  readonly routes: readonly {
    methods: readonly string[] | 'all'
    path: string
    controller: string
    action: string
    kind: string
  }[]
  readonly statusRoutes: readonly { status: number; controller: string; action: string }[]
}

export interface PluginsReport {
  readonly global: readonly PluginDescription[]
  readonly groups: readonly GroupDescription[]
}

const stepsOf = (pre: readonly PluginStep[], post: readonly PluginStep[]) => [...pre, ...post].map(describePlugin)

export function describePlugins(table: RouteTable): PluginsReport {
  const groups = table.groups.map(
    (g: CompiledGroup): GroupDescription => ({
      prefix: g.prefix,
      source: g.source,
      security: securityName(g.security),
      inheritsGlobal: g.ownPlugins === undefined,
      plugins: stepsOf(g.pre, g.post),
      routes: table.routes
        .filter((r) => r.group === g)
        .map((r) => ({
          methods: r.methods,
          path: r.path,
          controller: r.info.controller,
          action: r.info.action,
          kind: r.kind,
        })),
      statusRoutes: [...g.statusRoutes].map(([status, s]) => ({ status, ...s.identity })),
    }),
  )
  return { global: stepsOf(table.globalPre, table.globalPost), groups }
}

const pluginLines = (plugins: readonly PluginDescription[], indent: string) =>
  plugins.length ? align(plugins.map(pluginLine), indent) : [`${indent}(none)`]

export function formatPlugins(table: RouteTable): string {
  const report = describePlugins(table)
  const out = ['Global plugins', ...pluginLines(report.global, '  ')]
  table.groups.forEach((g, i) => {
    const d = report.groups[i]!
    out.push('', `Group ${prefixLabel(d.prefix)}  (declared in ${d.source.replace(/ \(prefix .*\)$/, '')})`)
    out.push(`  security  ${d.security === false ? 'false' : d.security}`)
    if (d.inheritsGlobal) out.push('  plugins   (inherits global)')
    else out.push('  plugins', ...pluginLines(d.plugins, '    '))
    const routes = table.routes.filter((r) => r.group === g)
    out.push('  routes')
    if (routes.length)
      out.push(
        ...align(
          routes.map((r) => [methodLabel(r), r.path, handlerLabel(r) + (r.kind === 'http' ? '' : ` (${r.kind})`)]),
          '    ',
        ),
      )
    else out.push('    (none)')
    if (d.statusRoutes.length) {
      out.push(
        '  status',
        ...align(
          d.statusRoutes.map((s) => [String(s.status), `${s.controller}.${s.action}`]),
          '    ',
        ),
      )
    }
  })
  return out.join('\n')
}
