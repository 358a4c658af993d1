/**
 * `vela audit`: routes left open, and what guards the others. Findings come only from routes of
 * groups whose `security` is `false`; a route of a group with a security callback is listed under
 * SECURED with its callback's name (and the OpenAPI scheme it documents, if any), never a finding.
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
 *   SECURED
 *   GET /users/settings (user_settings_controller) requireUser, scheme userSession
 *   Summary: 2 warning(s), 1 info(s), 1 secured
 *
 * (a section heading is left out when it has no lines). `--json`:
 * `{ "warnings": [Finding], "info": [Finding], "secured": [SecuredRoute], "summary": { "warnings": n,
 * "info": m, "secured": k } }` with `Finding = { method, path, controller, action, reason }`, `reason`
 * one of `unsafe-method`, `wildcard-methods`, `safe-method`, and `SecuredRoute = { method, path,
 * controller, action, security, scheme? }`.
 *
 * Exit code: 1 when there is at least one warning (like a linter, so CI can gate on it), else 0;
 * 2 when the audit cannot run (bad flags, an app that does not load: cli.ts), never 1.
 */
import type { RouteTable } from '../../../server/router/compile.ts'
import { securityName } from './describe.ts'

export interface Finding {
  readonly method: string
  readonly path: string
  readonly controller: string
  readonly action: string
  readonly reason: 'unsafe-method' | 'wildcard-methods' | 'safe-method'
}

/** A route a security callback guards: the callback's name, and its OpenAPI scheme's name if it has one. */
export interface SecuredRoute {
  readonly method: string
  readonly path: string
  readonly controller: string
  readonly action: string
  readonly security: string
  readonly scheme?: string
}

export interface AuditReport {
  readonly warnings: readonly Finding[]
  readonly info: readonly Finding[]
  readonly secured: readonly SecuredRoute[]
  readonly summary: { readonly warnings: number; readonly info: number; readonly secured: number }
}

const UNSAFE = new Set(['POST', 'PUT', 'DELETE', 'PATCH'])

export function audit(table: RouteTable): AuditReport {
  const warnings: Finding[] = []
  const info: Finding[] = []
  const secured: SecuredRoute[] = []
  for (const route of table.routes) {
    const base = { path: route.path, controller: route.info.controller, action: route.info.action }
    const { security, securityScheme } = route.group
    if (security !== false) {
      const guard = { security: securityName(security) || 'anonymous', scheme: securityScheme?.name }
      const methods = route.kind === 'ws' ? ['WS'] : route.methods === 'all' ? ['*'] : route.methods
      for (const method of methods) secured.push({ method, ...base, ...guard })
      continue
    }
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
  return {
    warnings,
    info,
    secured,
    summary: { warnings: warnings.length, info: info.length, secured: secured.length },
  }
}

export const findingLine = (f: Finding): string => `${f.method} ${f.path} (${f.controller}) has no security`

export const securedLine = (r: SecuredRoute): string =>
  `${r.method} ${r.path} (${r.controller}) ${r.security}${r.scheme ? `, scheme ${r.scheme}` : ''}`

export function formatAudit(report: AuditReport): string {
  const lines: string[] = []
  if (report.warnings.length) lines.push('WARNINGS', ...report.warnings.map(findingLine))
  if (report.info.length) lines.push('INFO', ...report.info.map(findingLine))
  if (report.secured.length) lines.push('SECURED', ...report.secured.map(securedLine))
  const { summary } = report
  lines.push(`Summary: ${summary.warnings} warning(s), ${summary.info} info(s), ${summary.secured} secured`)
  return lines.join('\n')
}

/** The process exit code for a report: 1 with warnings, 0 without. */
export const auditExitCode = (report: AuditReport): number => (report.warnings.length > 0 ? 1 : 0)
