/**
 * `vela audit`: routes left open. Only routes of groups whose `security` is
 * `false` are looked at — a group with a security callback produces no findings.
 *
 * - WARNING: a POST, PUT, DELETE or PATCH route; an `ALL` route (it answers every method, so it
 *   is reported once with the method `*`).
 * - INFO: a GET route. HEAD and OPTIONS (safe methods like GET) are INFO too; a WebSocket route is
 *   INFO with the method `WS` (its upgrade is a GET); a static-files route is a GET route
 *   (`staticDir` answers GET and HEAD only).
 *
 * A route listing several methods gives one line per method. Text output:
 *
 *   WARNINGS
 *   POST /api/products (products_controller) has no security
 *   * /legacy (routes/legacy) has no security
 *   INFO
 *   GET /api/products (products_controller) has no security
 *   Summary: 2 warning(s), 1 info(s)
 *
 * (a section heading is left out when it has no lines). `--json`:
 * `{ "warnings": [Finding], "info": [Finding], "summary": { "warnings": n, "info": m } }` with
 * `Finding = { method, path, controller, action, reason }`, `reason` one of `unsafe-method`,
 * `wildcard-methods`, `safe-method`.
 *
 * Exit code: 1 when there is at least one warning (like a linter, so CI can gate on it), else 0;
 * 2 when the audit cannot run (bad flags, an app that does not load: cli.ts), never 1.
 */
import type { RouteTable } from '../../../server/router/compile.ts'

export interface Finding {
  readonly method: string
  readonly path: string
  readonly controller: string
  readonly action: string
  readonly reason: 'unsafe-method' | 'wildcard-methods' | 'safe-method'
}

export interface AuditReport {
  readonly warnings: readonly Finding[]
  readonly info: readonly Finding[]
  readonly summary: { readonly warnings: number; readonly info: number }
}

const UNSAFE = new Set(['POST', 'PUT', 'DELETE', 'PATCH'])

export function audit(table: RouteTable): AuditReport {
  const warnings: Finding[] = []
  const info: Finding[] = []
  for (const route of table.routes) {
    if (route.group.security !== false) continue
    const base = { path: route.path, controller: route.info.controller, action: route.info.action }
    if (route.kind === 'ws') {
      info.push({ method: 'WS', ...base, reason: 'safe-method' })
    } else if (route.methods === 'all') {
      warnings.push({ method: '*', ...base, reason: 'wildcard-methods' })
    } else {
      for (const method of route.methods) {
        if (UNSAFE.has(method)) warnings.push({ method, ...base, reason: 'unsafe-method' })
        else info.push({ method, ...base, reason: 'safe-method' })
      }
    }
  }
  return { warnings, info, summary: { warnings: warnings.length, info: info.length } }
}

export const findingLine = (f: Finding): string => `${f.method} ${f.path} (${f.controller}) has no security`

export function formatAudit(report: AuditReport): string {
  const lines: string[] = []
  if (report.warnings.length) lines.push('WARNINGS', ...report.warnings.map(findingLine))
  if (report.info.length) lines.push('INFO', ...report.info.map(findingLine))
  lines.push(`Summary: ${report.summary.warnings} warning(s), ${report.summary.info} info(s)`)
  return lines.join('\n')
}

/** The process exit code for a report: 1 with warnings, 0 without. */
export const auditExitCode = (report: AuditReport): number => (report.warnings.length > 0 ? 1 : 0)
