/**
 * Coded errors for mistakes Vela finds before serving: in the app's config, its routes, plugins,
 * stream handlers, WebSocket handlers, the Vite side's app files. Each is a `VelaError` with a
 * stable `code`, so tools (the CLI, a deploy script, a test) can tell them apart without matching
 * messages, as Fastify's `FST_ERR_*` codes allow; the message stays the one written for people,
 * naming the file, group and route. Errors met while answering a request are `HttpError`s or
 * logged 500s instead (http-error.ts, pipeline/failure.ts).
 *
 * **Choice:** as Node does for its own coded errors, the stack's first line carries the code
 * (`VelaError [VELA_ERR_DUPLICATE_ROUTE]: route GET /a is declared twice: …`) while `name` stays
 * `VelaError`. This module imports nothing: any part of Vela can throw one.
 */

/** Every code, with what it means (the table on docs/essentials/routes.md is this list). */
export const VELA_ERROR_CODES = {
  VELA_ERR_CONFIG:
    'the app config or its environment is invalid (bootstrapApplication, a server port, limit or timeout, PORT, the session secret, the Vite side: src/app.ts, the Vite config, src/repo.ts, the release profile)',
  VELA_ERR_ROUTE:
    'a route group or route is malformed (prefix, security, path, method, handler, a route module that exports no routes, a validate or responses schema that is unknown or invalid)',
  VELA_ERR_DUPLICATE_ROUTE: 'the same method and path are declared twice',
  VELA_ERR_PLUGIN: 'a plugin definition, registration or its options are invalid',
  VELA_ERR_STREAM_HANDLER: 'server.streamHandlers is invalid',
  VELA_ERR_WEBSOCKET: 'defineWebSocket was given an unknown hook, a hook that is not a function or an invalid limit',
  VELA_ERR_TELEMETRY: 'vela/telemetry was set up twice',
  VELA_ERR_JOB: 'a job definition, an enqueue or the jobs tables are invalid or missing (vela/jobs)',
  VELA_ERR_MAIL: 'a mailer or a message is invalid, or its template is missing (vela/mail)',
} as const

/** The code of a `VelaError`, one `VELA_ERR_*` per kind of mistake (config, route, plugin, …). */
export type VelaErrorCode = keyof typeof VELA_ERROR_CODES

/**
 * A mistake Vela found before serving, with a stable `code` (`VELA_ERR_CONFIG`, …).
 *
 * Found in the app's config, routes, plugins, stream handlers or WebSocket handlers; the code
 * tells kinds apart without matching messages.
 */
export class VelaError extends Error {
  declare readonly name: 'VelaError'
  constructor(
    readonly code: VelaErrorCode,
    message: string,
    options?: ErrorOptions,
  ) {
    super(message, options)
    // The stack is formatted on first access, with the name of that moment: put the code in it.
    Object.defineProperty(this, 'name', { value: `VelaError [${code}]`, configurable: true, writable: true })
    void this.stack
    Object.defineProperty(this, 'name', { value: 'VelaError', configurable: true, writable: true, enumerable: false })
  }
}

/**
 * Whether `value` is a `VelaError` (with that code, if given). By shape, not `instanceof`: the
 * CLI and the dev server may hold two copies of this module (the app's `vela` through Vite's
 * module runner, the tool's own), whose classes differ.
 *
 * @example
 * ```ts
 * import { createApp, isVelaError } from 'vela'
 * import config from './app.ts'
 *
 * try {
 *   createApp(config)
 * } catch (err) {
 *   if (isVelaError(err, 'VELA_ERR_DUPLICATE_ROUTE')) console.error(`fix the routes: ${err.message}`)
 *   throw err
 * }
 * ```
 */
export function isVelaError(value: unknown, code?: VelaErrorCode): value is VelaError {
  if (!(value instanceof Error) || value.name !== 'VelaError') return false
  const own = (value as { code?: unknown }).code
  return typeof own === 'string' && Object.hasOwn(VELA_ERROR_CODES, own) && (code === undefined || own === code)
}

/**
 * A coded error (`VELA_ERR_*`) from something the request needed that is not there now: `status`
 * 503 (nothing was done: try again later; a database or a file descriptor unavailable) or 504 (a
 * write was sent and its outcome is unknown). Answered with that status and its code, logged as
 * one line. By shape, like `isVelaError`: these errors live in `vela/dbl` and the static files.
 */
export function isCodedInfrastructure(err: unknown): err is Error & { status: 503 | 504; code: string } {
  const e = err as { status?: unknown; code?: unknown }
  return (
    err instanceof Error &&
    (e.status === 503 || e.status === 504) &&
    typeof e.code === 'string' &&
    e.code.startsWith('VELA_ERR_')
  )
}
