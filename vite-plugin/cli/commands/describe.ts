/**
 * Helpers shared by the inspection commands: how a route's methods, a security callback, a plugin
 * registration and a config value are named in text and JSON output (secrets redacted: redact.ts),
 * and column alignment.
 */
import type { CompiledRoute } from '../../../server/router/compile.ts'
import type { PluginStep } from '../../../server/pipeline/registration.ts'
import { REDACTED, isSecretKey } from './redact.ts'

/** `GET,POST`, or `*` for every method. */
export const methodLabel = (route: CompiledRoute): string => (route.methods === 'all' ? '*' : route.methods.join(','))

/** `products_controller.show`. */
export const handlerLabel = (route: CompiledRoute): string => `${route.info.controller}.${route.info.action}`

/**
 * A security callback's function name, or `false`. An inline arrow (`security: (req) => …`) gets
 * the name `security` from its property key; that one, like an unnamed function, is `anonymous`.
 */
export function securityName(security: false | ((...args: never[]) => unknown)): string | false {
  if (security === false) return false
  return security.name && security.name !== 'security' ? security.name : 'anonymous'
}

export interface PluginDescription {
  readonly phase: string
  readonly plugin: string
  readonly version: string
  readonly title: string
  readonly options: unknown
}

export function describePlugin(step: Pick<PluginStep, 'phase' | 'plugin' | 'options'>): PluginDescription {
  return {
    phase: step.phase,
    plugin: step.plugin.name,
    version: step.plugin.info?.version ?? '',
    // A plugin without `info` is shown by its name.
    title: step.plugin.info?.title ?? step.plugin.name,
    options: toJsonValue(step.options),
  }
}

/** `pre_request  request 1.0.0  {"json":true}`. */
export const pluginLine = (p: PluginDescription): string[] => [
  p.phase,
  `${p.plugin}${p.version ? ` ${p.version}` : ''}`,
  JSON.stringify(p.options),
]

/**
 * A value made JSON-safe: functions become `<function name>`, other objects are walked. Values
 * under a key naming a secret (redact.ts), or all of it when `secret` is set, become `[redacted]`.
 */
export function toJsonValue(value: unknown, secret = false, seen = new Set<unknown>()): unknown {
  if (typeof value === 'function') return `<function ${value.name || 'anonymous'}>`
  if (value === undefined || value === null) return null
  if (typeof value !== 'object') return secret ? REDACTED : typeof value === 'bigint' ? value.toString() : value
  if (seen.has(value)) return '<circular>'
  seen.add(value)
  if (Array.isArray(value)) return value.map((v) => toJsonValue(v, secret, seen))
  const proto = Object.getPrototypeOf(value)
  if (proto !== Object.prototype && proto !== null)
    return secret ? REDACTED : `<${proto?.constructor?.name ?? 'object'}>`
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, toJsonValue(v, secret || isSecretKey(k), seen)]))
}

/** Pads every column but the last to its widest cell, two spaces apart. */
export function align(rows: readonly (readonly string[])[], indent = ''): string[] {
  const widths: number[] = []
  for (const row of rows) row.forEach((cell, i) => (widths[i] = Math.max(widths[i] ?? 0, cell.length)))
  return rows.map(
    (row) =>
      indent +
      row
        .map((cell, i) => (i === row.length - 1 ? cell : cell.padEnd(widths[i]!)))
        .join('  ')
        .trimEnd(),
  )
}
