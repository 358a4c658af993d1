/**
 * What the dev server answers while the app cannot run: its code failed to load when the server
 * started (nothing older to serve), or its start hook threw. Every request, and every WebSocket
 * upgrade, gets a 503: JSON `{ "error": "the app failed to load", "message": <framed error> }`
 * (`failed to start` for a start hook), or an HTML page for browsers; the framed error
 * (dev-errors.ts) only in `dev`, the environment that shows stack traces. The dev server goes on
 * watching and swaps the real app in when an edit makes it load and start.
 */
import { basename } from 'node:path'
import { toNodeHandler } from 'srvx/node'
import type { ResolvedConfig } from '../../server/app/config.ts'
import { resolveConfig } from '../../server/app/config.ts'
import type { VelaApp } from '../../server/app/create-app.ts'
import type { NodeHandler } from '../../server/stream-handlers/stream-handlers.ts'
import { escapeHtml, statusText, wantsHtml } from '../../server/errors/error-page.ts'
import { createTopics } from '../../server/websocket/topics.ts'

export type FailureKind = 'load' | 'start'

/**
 * `config`: the app's, when it loaded (its start hook failed); otherwise one made from the
 * environment (PORT, VELA_ENV) alone, named after the app's folder.
 */
export function failureApp(kind: FailureKind, framed: string, root: string, config?: ResolvedConfig): VelaApp {
  const resolved = config ?? resolveConfig({ bootstrapApplication: basename(root), routes: {} })
  const error = `the app failed to ${kind}`
  const detail = resolved.environment === 'dev' ? framed : undefined
  // Nothing subscribes while the app cannot run: in-process topics, never a broker.
  const topics = createTopics()
  const answer = (request: Request): Response => {
    const status = 503
    if (wantsHtml(request.headers.get('accept'))) {
      const title = `${status} ${statusText(status)}`
      const html =
        `<!doctype html><html><head><meta charset="utf-8"><title>${title}</title></head><body><h1>${title}</h1>` +
        `<p>The app failed to ${kind}; the dev server is waiting for an edit that fixes it.</p>` +
        (detail ? `<pre>${escapeHtml(detail)}</pre>` : '') +
        '</body></html>'
      return new Response(html, { status, headers: { 'content-type': 'text/html; charset=utf-8' } })
    }
    return Response.json(detail ? { error, message: detail } : { error }, { status })
  }
  // It never starts: readiness says `starting` until shutdown begins.
  let draining = false
  return {
    config: resolved,
    routeTable: { routes: [], groups: [], globalPre: [], globalPost: [] },
    get state() {
      return draining ? 'draining' : 'starting'
    },
    drain: () => void (draining = true),
    fetch: async (request) => answer(request),
    upgrade: async (request) => ({ accept: false, response: answer(request) }),
    handleNode: toNodeHandler(async (request: Request) => answer(request)) as NodeHandler,
    publish: topics.publish,
    topics,
    start: async () => {},
    stop: async () => {},
  }
}
