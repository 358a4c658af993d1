/**
 * Built-in error pages: JSON `{ "error": message }` when the client accepts JSON or sends no
 * `Accept`, an HTML page otherwise. Stack traces only with `useStacktrace`. A coded error's
 * `code` (`VELA_ERR_DB_OUTCOME_UNKNOWN`) is in the JSON too, so a client can tell it from the
 * same status sent by a proxy.
 */
import { STATUS_CODES } from 'node:http'
import { FastResponse } from 'srvx'
import type { JsonLib } from '../app/config.ts'

export interface ErrorPageContext {
  readonly jsonLib: JsonLib
  readonly useStacktrace: boolean
}

export function statusText(status: number): string {
  return STATUS_CODES[status] ?? `Status ${status}`
}

/** Browsers ask for text/html; API clients ask for JSON, `*\/*` or nothing. */
export function wantsHtml(accept: string | null): boolean {
  if (!accept) return false
  if (accept.includes('text/html')) return true
  return !accept.includes('json') && !accept.includes('*/*')
}

const escapes: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' }
export const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => escapes[c]!)

export function errorPage(
  ctx: ErrorPageContext,
  accept: string | null,
  status: number,
  message: string = statusText(status),
  error?: unknown,
  extraHeaders?: Readonly<Record<string, string>>,
  code?: string,
): Response {
  const stack =
    ctx.useStacktrace && error instanceof Error && error.stack
      ? error.stack.split('\n').map((l) => l.trim())
      : undefined
  if (wantsHtml(accept)) {
    const title = `${status} ${statusText(status)}`
    const html =
      `<!doctype html><html><head><meta charset="utf-8"><title>${escapeHtml(title)}</title></head>` +
      `<body><h1>${escapeHtml(title)}</h1>${message === statusText(status) ? '' : `<p>${escapeHtml(message)}</p>`}` +
      (stack ? `<pre>${escapeHtml(stack.join('\n'))}</pre>` : '') +
      '</body></html>'
    return new FastResponse(html, { status, headers: withExtra('text/html; charset=utf-8', extraHeaders) })
  }
  const body = { error: message, ...(code && { code }), ...(stack && { stack }) }
  return new FastResponse(ctx.jsonLib.encode(body), {
    status,
    headers: withExtra('application/json; charset=utf-8', extraHeaders),
  })
}

/**
 * The page's content type and the extra headers (an `httpError`'s), by lowercase name: a
 * `Content-Type` given there replaces the page's own instead of being sent beside it.
 */
function withExtra(type: string, extra: Readonly<Record<string, string>> | undefined): Record<string, string> {
  const headers: Record<string, string> = { 'content-type': type }
  for (const name in extra) headers[name.toLowerCase()] = extra[name]!
  return headers
}
