/**
 * The direct node path of `app.handleNode` (see VelaApp.handleNode): a plain route hit runs
 * straight from node's request, and its reply is written with one `end()`. Anything else (escapes
 * to check, 404/405/OPTIONS, absolute-form targets, long URLs) goes to `fallback`, the `fetch`
 * path through srvx's node adapter, which answers it exactly as in-process requests are.
 */
import type { IncomingMessage, ServerResponse } from 'node:http'
import { FastResponse, sendNodeResponse } from 'srvx/node'
import type { EncodedReply } from '../respond.ts'
import type { Matcher } from '../router/dispatch.ts'
import { NO_BINDINGS, decodeParams } from '../router/dispatch.ts'
import type { Target } from './create-app.ts'
import type { NodeHandler } from '../stream-handlers/stream-handlers.ts'

export function createNodeHandler(opts: {
  match: Matcher<Target>
  maxUrlLength: number
  fallback: NodeHandler
  log: (message: string, error: unknown) => void
}): NodeHandler {
  const { match, maxUrlLength, fallback, log } = opts
  return function handleNode(req: IncomingMessage, res: ServerResponse): void {
    const raw = req.url ?? ''
    const q = raw.indexOf('?')
    const path = q === -1 ? raw : raw.slice(0, q)
    // Absolute-form targets, escapes to check or canonicalise, 404/405/OPTIONS and long URLs take
    // the full path, which answers them exactly as fetch() does.
    if (raw.charCodeAt(0) !== 47 || path.includes('%') || raw.length > maxUrlLength) return fallback(req, res)
    const found = match(path)
    const target = found?.data.byMethod[req.method!]
    if (!target) return fallback(req, res)
    // No escapes on this path: unless a `[...]` rest needs splitting off, rou3's params (a fresh
    // object per match) are the bindings as they are.
    const decoded = found!.data.wildcard ? decodeParams(found!) : undefined
    // The route runner never throws or rejects (it answers errors itself); writing can fail (client gone).
    const outcome = target.run.node({ req, res, path }, decoded ? decoded.bindings : (found!.params ?? NO_BINDINGS), decoded?.pathInfo)
    if (outcome instanceof Promise) outcome.then((o) => send(req, res, o), (err: unknown) => failedToSend(req, res, err))
    else send(req, res, outcome)
  }

  function send(req: IncomingMessage, res: ServerResponse, outcome: Response | EncodedReply): void {
    try {
      const sending = outcome instanceof Response ? writeNodeResponse(res, outcome) : writeEncoded(res, outcome)
      if (sending) sending.catch((err) => failedToSend(req, res, err))
    } catch (err) {
      failedToSend(req, res, err)
    }
  }

  function failedToSend(req: IncomingMessage, res: ServerResponse, err: unknown) {
    log(`failed to answer ${req.method} ${req.url}`, err)
    res.destroy()
  }
}

type NodeShaped = { status: number; statusText?: string; headers: string[]; body: unknown }

/**
 * Writes a response to node: a string or bytes body goes out with `end(body)` (node sends the
 * head and the body in one write); streams and native Responses go through srvx.
 */
function writeNodeResponse(res: ServerResponse, response: Response): void | Promise<void> {
  const toNode = (response as Response & { _toNodeResponse?: () => NodeShaped })._toNodeResponse
  if (!toNode) return sendNodeResponse(res, response)
  const out = toNode.call(response)
  const body = out.body
  if (body == null || typeof body === 'string' || body instanceof Uint8Array) {
    res.writeHead(out.status, out.headers)
    res.end(body ?? undefined)
    return
  }
  return sendNodeResponse(res, new FastResponse(body as BodyInit, { status: out.status, headers: pairs(out.headers) }))
}

/** An encoded reply, as node writes it fastest: the head and the body in one `end()`. */
function writeEncoded(res: ServerResponse, e: EncodedReply): void {
  res.writeHead(e.status, e.headers)
  res.end(e.body ?? undefined)
}

function pairs(flat: string[]): [string, string][] {
  const out: [string, string][] = []
  for (let i = 0; i < flat.length; i += 2) out.push([flat[i]!, flat[i + 1]!])
  return out
}

