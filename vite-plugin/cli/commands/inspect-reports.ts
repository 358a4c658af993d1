/**
 * What the inspection commands print, made in one go from an app's config and route table: for
 * `vela routes`, `plugins`, `audit` and `config`, the text report, the `--json` one (as
 * printed), and the exit status. The commands print these; the inspection cache stores them
 * (inspect-cache.ts), so a cached run prints exactly what a loaded one would.
 */
import type { ResolvedConfig } from '../../../server/app/config.ts'
import type { RouteTable } from '../../../server/router/compile.ts'
import { audit, auditExitCode, formatAudit } from './audit.ts'
import { configEntries, formatConfig } from './config.ts'
import { describePlugins, formatPlugins } from './plugins.ts'
import { formatRoutes, listRoutes } from './routes.ts'

/** One command's output. */
export interface Report {
  readonly text: string
  /** The `--json` output, as printed. */
  readonly json: string
  readonly exitCode: number
}

export type ReportName = 'routes' | 'plugins' | 'audit' | 'config'

export type Reports = Readonly<Record<ReportName, Report>>

/** The environment variables the reports themselves read (`vela config` marks values taken from them). */
export const REPORT_ENV = ['VELA_ENV', 'PORT', 'VELA_TRUST_PROXY'] as const

const report = (text: string, data: unknown, exitCode = 0): Report => ({
  text,
  json: JSON.stringify(data, null, 2),
  exitCode,
})

/** Every inspection report of the app that `config` and `table` describe. */
export function inspectReports(
  config: ResolvedConfig,
  table: RouteTable,
  env: NodeJS.ProcessEnv = process.env,
): Reports {
  const findings = audit(table)
  return {
    routes: report(formatRoutes(table), listRoutes(table)),
    plugins: report(formatPlugins(table), describePlugins(table)),
    audit: report(formatAudit(findings), findings, auditExitCode(findings)),
    config: report(formatConfig(config, env), { config: configEntries(config, env) }),
  }
}
