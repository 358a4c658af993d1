/**
 * The dashboard's pages, rendered with liquidjs (the engine of Vela's views) from the templates in
 * `assets/`: the request list (filtered by status class or code, route and text), a request's
 * detail with its waterfall, plugins, security verdict and response headers, and the app page. Values are escaped on output.
 */
import { fileURLToPath } from 'node:url'
import { Liquid } from 'liquidjs'
import type { RequestRecord, StepOutcome } from '../../server/dashboard/record.ts'

/** Where the templates, the script and the stylesheet are. */
export const ASSETS = fileURLToPath(new URL('./assets/', import.meta.url))

const engine = new Liquid({
  root: ASSETS,
  extname: '.liquid',
  outputEscape: 'escape',
  cache: true,
  relativeReference: false,
})

/** Renders the template `name` with `data`. */
export const render = (name: string, data: Record<string, unknown>): Promise<string> =>
  engine.renderFile(name, data) as Promise<string>

/** The list's filters, as given in the page's query string. */
export interface RequestFilter {
  status: string
  route: string
  text: string
}

/** Whether `record` passes `filter`: status `5xx`/`4xx`… or an exact code; route and text as substrings. */
export function matches(record: RequestRecord, filter: RequestFilter): boolean {
  const status = filter.status.trim().toLowerCase()
  if (status) {
    const code = String(record.status ?? '')
    if (/^[1-5]xx$/.test(status) ? code[0] !== status[0] : code !== status) return false
  }
  if (filter.route && !(record.route?.path ?? '').includes(filter.route)) return false
  const text = filter.text.trim().toLowerCase()
  if (text) {
    const haystack = [
      record.method,
      record.path,
      record.query ?? '',
      record.route?.path ?? '',
      record.error?.message ?? '',
      ...record.logs.map((l) => l.message),
      ...record.spans.map((s) => s.sql ?? ''),
    ]
    if (!haystack.some((h) => h.toLowerCase().includes(text))) return false
  }
  return true
}

/** What a list row shows (also what the event stream sends). */
export function summary(r: RequestRecord) {
  return {
    id: r.id,
    time: new Date(r.startedAt).toTimeString().slice(0, 8),
    method: r.method,
    path: r.path,
    route: r.route?.path ?? '',
    status: r.status ?? 0,
    statusClass: `s${String(r.status ?? 0)[0]}`,
    duration: (r.durationMs ?? 0).toFixed(1),
    size: r.size ?? 0,
    client: r.client ?? '',
    queries: r.spans.filter((s) => s.kind === 'query').length,
    error: r.error?.message ?? '',
  }
}

/** The detail page's waterfall: each span with its offset and width in percent of the request. */
export function waterfall(r: RequestRecord) {
  const total = Math.max(r.durationMs ?? 0, ...r.spans.map((s) => s.startMs + s.durationMs), 0.001)
  return r.spans.map((s, i) => ({
    ...s,
    index: i,
    y: i * 22,
    left: ((s.startMs / total) * 100).toFixed(2),
    width: Math.max((s.durationMs / total) * 100, 0.4).toFixed(2),
    start: s.startMs.toFixed(2),
    duration: s.durationMs.toFixed(2),
  }))
}

/** What a plugin step or the security callback came to, in words, and its row's class. */
function outcomeText(o: StepOutcome): { text: string; outcome: string } {
  switch (o.kind) {
    case 'continued':
      return { text: 'continued', outcome: 'continued' }
    case 'ended-phase':
      return { text: 'ended its phase', outcome: 'continued' }
    case 'replied':
      return { text: `replied ${o.status}`, outcome: 'replied' }
    case 'failed':
      return { text: `failed: ${o.message}`, outcome: 'failed' }
    case 'threw':
      return { text: `threw ${o.message}`, outcome: 'failed' }
  }
}

/** The detail page's pipeline: each plugin that ran, then the security callback, in the order they ran. */
export function pipelineSteps(r: RequestRecord) {
  const plugins = r.plugins.map((p) => ({
    kind: 'plugin',
    name: p.name,
    phase: p.phase === 'pre_request' ? 'pre' : 'post',
    startMs: p.startMs,
    duration: p.durationMs.toFixed(2),
    ...outcomeText(p.outcome),
  }))
  const s = r.security
  if (!s) return plugins
  const verdict =
    s.verdict === 'allowed'
      ? { text: s.authData ? 'allowed (auth data)' : 'allowed', outcome: 'continued' }
      : s.verdict === 'denied'
        ? { text: `denied ${s.status}`, outcome: 'denied' }
        : s.verdict === 'replied'
          ? { text: `replied ${s.status}`, outcome: 'replied' }
          : { text: `threw ${s.message ?? ''}`, outcome: 'failed' }
  const security = {
    kind: 'security',
    name: s.callback,
    phase: 'security',
    startMs: s.startMs,
    duration: s.durationMs.toFixed(2),
    ...verdict,
  }
  return [...plugins, security].sort((a, b) => a.startMs - b.startMs)
}
