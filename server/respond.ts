/**
 * Turns a reply into the HTTP response. Runs after the post-request plugins, so they see (and may
 * replace) the reply first. Bodies of HEAD, 204 and 304 responses are dropped.
 */
import { stat } from 'node:fs/promises'
import { FastResponse } from 'srvx'
import type { JsonLib } from './contracts/primitives.ts'
import type { Reply, ViewReply } from './replies.ts'
import { fileBody } from './static/file-body.ts'
import { contentTypeFor } from './static/mime.ts'
import type { VelaRequest } from './request.ts'

export interface RespondContext {
  readonly jsonLib: JsonLib
  /** Renders a view reply to HTML; supplied by the views module. */
  renderView?: (reply: ViewReply, req: VelaRequest) => Promise<string>
}

const JSON_TYPE = 'application/json; charset=utf-8'
const JSON_HEADERS: Readonly<Record<string, string>> = Object.freeze({ 'content-type': JSON_TYPE })
// Without a length node would answer an empty body with chunked encoding.
const EMPTY_HEADERS: Readonly<Record<string, string>> = Object.freeze({ 'content-length': '0' })
const HTML_HEADERS: Readonly<Record<string, string>> = Object.freeze({ 'content-type': 'text/html; charset=utf-8' })
const NO_HEADERS: Readonly<Record<string, string>> = Object.freeze({})

// What node's writeHead refuses (ERR_HTTP_INVALID_STATUS_CODE, ERR_INVALID_HTTP_TOKEN,
// ERR_INVALID_CHAR) and a web Response or Headers too. A reply is checked as it is encoded: what
// the wire cannot carry is the handler's error (its 500, logged with the route), on every path,
// not a connection dropped at the write (node) or a Response that throws when read (web).
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/
const BAD_VALUE_CHAR = /[^\t\x20-\x7e\x80-\xff]/

/** A header of the reply's own (or set by an `onResponse` hook), checked (above): the value, or a TypeError naming the fault. */
export function userHeader(name: string, value: string): string {
  if (!HEADER_NAME.test(name))
    throw new TypeError(`reply header name ${JSON.stringify(name)} is not a valid HTTP header name`)
  const bad = typeof value === 'string' ? BAD_VALUE_CHAR.exec(value) : null
  if (bad) {
    const code = `U+${bad[0].codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`
    throw new TypeError(
      `reply header ${name}: its value has ${code} at index ${bad.index}, which a header cannot carry (only Latin-1 text without control characters); percent-encode it (encodeURIComponent)`,
    )
  }
  return value
}

/** User headers may be any case; the wire wants one entry per name. */
function merge(base: Readonly<Record<string, string>>, extra: Readonly<Record<string, string>> | undefined) {
  let out: Record<string, string> | undefined
  for (const k in extra) (out ??= { ...base })[k.toLowerCase()] = userHeader(k, extra[k]!)
  return out ?? base
}

function emptyBodyHeaders(status: number, headers: Readonly<Record<string, string>> | undefined) {
  return merge(status === 204 || status === 304 || status < 200 ? NO_HEADERS : EMPTY_HEADERS, headers)
}

const noBody = (method: string, status: number) => method === 'HEAD' || status === 204 || status === 304

/** A reply encoded without I/O: what goes on the wire. `body: null` means none. */
export interface EncodedReply {
  readonly status: number
  /** Lowercase names; `content-length` is set whenever there is a body. */
  readonly headers: Readonly<Record<string, string>> | undefined
  readonly body: string | Uint8Array | null
}

const byteLength = (body: string | Uint8Array) =>
  String(typeof body === 'string' ? Buffer.byteLength(body) : body.byteLength)

/** Headers for a body: the base, the user's headers (lowercased) and the body's length. */
function sized(
  base: Readonly<Record<string, string>>,
  extra: Readonly<Record<string, string>> | undefined,
  body: string | Uint8Array,
) {
  const out: Record<string, string> = { ...base }
  for (const k in extra) out[k.toLowerCase()] = userHeader(k, extra[k]!)
  out['content-length'] = byteLength(body)
  return out
}

function isEmpty(headers: Readonly<Record<string, string>> | undefined): boolean {
  for (const _ in headers) return false
  return true
}

function encodedJson(
  status: number,
  headers: Readonly<Record<string, string>> | undefined,
  body: string,
): EncodedReply {
  // The common case, a JSON reply without headers of its own, is one literal: nothing to copy.
  if (isEmpty(headers))
    return { status, headers: { 'content-type': JSON_TYPE, 'content-length': byteLength(body) }, body }
  return { status, headers: sized(JSON_HEADERS, headers, body), body }
}

/** Encodes json, status and redirect replies; `undefined` for views and files, which need I/O. */
export function encodeReply(reply: Reply, method: string, ctx: RespondContext): EncodedReply | undefined {
  const code = reply.status
  // 101 is the WebSocket route's "let the upgrade through" (server/websocket/upgrade.ts).
  if (!(Number.isInteger(code) && ((code >= 200 && code <= 599) || code === 101))) {
    throw new TypeError(
      `reply status ${String(code)} is not one a response can have: give a whole number from 200 to 599`,
    )
  }
  switch (reply.kind) {
    case 'json':
      if (noBody(method, reply.status))
        return { status: reply.status, headers: merge(JSON_HEADERS, reply.headers), body: null }
      return encodedJson(reply.status, reply.headers, ctx.jsonLib.encode(reply.body))
    case 'status': {
      const b = reply.body
      if (b === undefined || b === null || noBody(method, reply.status)) {
        return { status: reply.status, headers: emptyBodyHeaders(reply.status, reply.headers), body: null }
      }
      if (typeof b === 'string' || b instanceof Uint8Array)
        return { status: reply.status, headers: sized(NO_HEADERS, reply.headers, b), body: b }
      return encodedJson(reply.status, reply.headers, ctx.jsonLib.encode(b))
    }
    case 'redirect': {
      const own = { location: reply.location, 'content-length': '0' }
      if (isEmpty(reply.headers)) return { status: reply.status, headers: own, body: null }
      // The checked target and the empty body's length win over the reply's own headers of those names.
      return { status: reply.status, headers: { ...merge(NO_HEADERS, reply.headers), ...own }, body: null }
    }
    default:
      return undefined
  }
}

export const toResponse = (e: EncodedReply): Response =>
  new FastResponse(e.body as BodyInit | null, { status: e.status, headers: e.headers })

/** What a request comes to: a ready `Response`, or an encoded reply not yet turned into one (node writes it as it is). */
export type Outcome = Response | EncodedReply

/**
 * The outcome is an encoded reply, not a `Response`: an encoded reply is a plain object, without
 * the methods every `Response` has. On the hot path one property read costs less than
 * `instanceof Response`, which under callgrind went through V8's generic `instanceof` (a property
 * lookup and a call) on every request, or `Object.getPrototypeOf`, a call into V8's runtime.
 */
export const isEncoded = (outcome: Outcome): outcome is EncodedReply =>
  typeof (outcome as Partial<Response>).clone !== 'function'

export const asResponse = (outcome: Outcome): Response => (outcome instanceof Response ? outcome : toResponse(outcome))

export function respond(reply: Reply | Response, req: VelaRequest, ctx: RespondContext): Response | Promise<Response> {
  if (reply instanceof Response) return reply
  const encoded = encodeReply(reply, req.method, ctx)
  if (encoded) return toResponse(encoded)
  if (reply.kind === 'view') return renderView(reply, req, ctx)
  if (reply.kind === 'file') return sendFile(reply.path, reply.status, reply.headers, req.method)
  throw new Error(`unknown reply kind ${JSON.stringify((reply as { kind?: unknown }).kind)}`)
}

async function renderView(reply: ViewReply, req: VelaRequest, ctx: RespondContext): Promise<Response> {
  if (!ctx.renderView) throw new Error('a handler returned view(...) but this app has no views configured')
  const html = await ctx.renderView(reply, req)
  return new FastResponse(noBody(req.method, reply.status) ? null : html, {
    status: reply.status,
    headers: merge(HTML_HEADERS, reply.headers),
  })
}

async function sendFile(
  path: string,
  status: number,
  headers: Readonly<Record<string, string>> | undefined,
  method: string,
) {
  const info = await stat(path)
  if (!info.isFile()) throw new Error(`sendfile: ${path} is not a file`)
  const h = merge({ 'content-length': String(info.size), 'content-type': contentTypeFor(path) }, headers)
  // Opened when sent, closed whatever the client does (static/file-body.ts).
  const body = method === 'HEAD' || info.size === 0 ? null : fileBody(path, 0, info.size - 1)
  return new FastResponse(body, { status, headers: h })
}

/** The Response itself when its headers can be changed; a copy (same body) when they are immutable. */
export function writableResponse(response: Response): Response {
  try {
    // A no-op that throws on immutable headers (fetch() responses, Response.redirect()).
    response.headers.delete('x-vela-probe')
    return response
  } catch {
    return new Response(response.body, {
      status: response.status,
      statusText: response.statusText,
      headers: response.headers,
    })
  }
}
