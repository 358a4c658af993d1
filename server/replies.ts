/**
 * Reply helpers: what handlers return. A reply is a plain description;
 * `server/respond.ts` turns it into the HTTP response once the post-request plugins have seen it.
 *
 * | helper                             | effect                                                     |
 * |------------------------------------|------------------------------------------------------------|
 * | `json(data)`                       | 200, `application/json` (also for POST: use the 3-arg form for 201) |
 * | `json(status, headers, body)`      | given status, extra headers merged over the JSON content type |
 * | `status(code)`                     | bare status, empty body                                    |
 * | `status(code, headers, body)`      | object body JSON-encoded; string body sent as is           |
 * | `redirect(path)`                   | 302 with `location` (or the given 3xx status)              |
 * | `redirect(to, { localOnly: true })`| an untrusted target: a path on this site, else `fallback`  |
 * | `view(vars, opts?)`                | renders a Liquid template (see the views module)           |
 * | `sendfile(path, opts?)`            | streams a file                                             |
 *
 * `redirect` percent-encodes the target for the header and refuses control characters; its check
 * options against open redirects are in redirect-target.ts.
 */
import type { RedirectOptions, RedirectStatus } from './redirect-target.ts'
import { locationFor } from './redirect-target.ts'

export type { RedirectOptions, RedirectStatus } from './redirect-target.ts'

/** Extra response headers of a reply, by name (exported as `ReplyHeaders`). */
export type Headers = Readonly<Record<string, string>>

interface ReplyBase<S extends number = number> {
  /** The HTTP status; `json` and `status` keep the literal given (`404`), which typed clients read. */
  readonly status: S
  readonly headers: Headers | undefined
}

/** A JSON reply (`json(...)`): `body` encoded with the app's `jsonLib`, `content-type: application/json`. */
export interface JsonReply<T = unknown, S extends number = number> extends ReplyBase<S> {
  readonly kind: 'json'
  readonly body: T
}
/** A bare status (`status(...)`), with an optional body: a string as is, anything else JSON. */
export interface StatusReply<B = unknown, S extends number = number> extends ReplyBase<S> {
  readonly kind: 'status'
  /** `undefined` = empty body; a string is sent as is; anything else is JSON-encoded. */
  readonly body: B
}
/** A redirect (`redirect(...)`): its 3xx status and the encoded `Location`. */
export interface RedirectReply extends ReplyBase {
  readonly kind: 'redirect'
  readonly location: string
  readonly body: undefined
}
/** A rendered template (`view(...)`): the variables and the template name. */
export interface ViewReply extends ReplyBase {
  readonly kind: 'view'
  readonly vars: Readonly<Record<string, unknown>>
  /** Template name without `.liquid`; `undefined` = the controller's default view. */
  readonly view: string | undefined
  readonly body: undefined
}
/** A file streamed from disk (`sendfile(...)`). */
export interface FileReply extends ReplyBase {
  readonly kind: 'file'
  readonly path: string
  readonly body: undefined
}

/** Any value a reply helper returns: what a handler, a plugin's `stop` or a hook may answer with. */
export type Reply = JsonReply | StatusReply | RedirectReply | ViewReply | FileReply

/** Marks reply objects so that a security callback's auth data can never be mistaken for one. */
const kReply: unique symbol = Symbol.for('vela.reply')

function brand<R extends Reply>(reply: R): R {
  ;(reply as unknown as Record<symbol, true>)[kReply] = true
  return reply
}

/**
 * Whether `value` is a reply made by a reply helper (`json`, `status`, `redirect`, `view`, `sendfile`).
 *
 * A plain object shaped like one is not.
 *
 * @example
 * ```ts
 * import { isReply, json } from 'vela'
 *
 * isReply(json({ ok: true })) // true
 * isReply({ kind: 'json', status: 200, body: {} }) // false
 * ```
 */
export function isReply(value: unknown): value is Reply {
  return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[kReply] === true
}

/**
 * A JSON reply: `json(data)` is a 200; `json(status, headers, body)` gives the status and headers.
 *
 * `headers` are merged over the JSON content type. The body is encoded with the app's `jsonLib`.
 *
 * @example
 * ```ts
 * import { json, type VelaRequest } from 'vela'
 *
 * export const show = (req: VelaRequest) => json({ id: req.bindings.id })
 * export const create = () => json(201, { location: '/api/products/2' }, { id: '2' })
 * ```
 */
export function json<T>(data: T): JsonReply<T, 200>
export function json<T, S extends number = number>(status: S, headers: Headers, body: T): JsonReply<T, S>
export function json(...args: [unknown] | [number, Headers, unknown]): JsonReply {
  if (args.length === 1) return brand({ kind: 'json', status: 200, headers: undefined, body: args[0] })
  return brand({ kind: 'json', status: args[0], headers: args[1], body: args[2] })
}

/**
 * A reply with status `code` and an empty body, or with `status(code, headers, body)` that body.
 *
 * A string body is sent as is; any other is JSON-encoded.
 *
 * @example
 * ```ts
 * import { status } from 'vela'
 *
 * export const remove = () => status(204)
 * export const teapot = () => status(418, { 'content-type': 'text/plain' }, 'short and stout')
 * ```
 */
export function status<S extends number>(code: S): StatusReply<undefined, S>
export function status<B, S extends number = number>(code: S, headers: Headers, body: B): StatusReply<B, S>
export function status(code: number, headers?: Headers, body?: unknown): StatusReply {
  return brand({ kind: 'status', status: code, headers, body })
}

/**
 * A redirect to `to`, percent-encoded for the `Location` header (`/日本` → `/%E6%97%A5%E6%9C%AC`;
 * existing `%XX` escapes kept). A target with CR, LF or another control character throws a
 * TypeError (the handler's 500). For a target from the request, pass `{ localOnly: true }` (or
 * `allowHosts`): anything but a path on this site then goes to `fallback` (default `/`).
 *
 * @example
 * ```ts
 * import { redirect, type VelaRequest } from 'vela'
 *
 * export const legacy = () => redirect('/api/products', 301)
 * // After login: follow ?next= only to a path on this site, else go to /notes.
 * export function afterLogin(req: VelaRequest) {
 *   const next = req.query.next
 *   return redirect(typeof next === 'string' ? next : '/', { localOnly: true, fallback: '/notes' })
 * }
 * ```
 */
export function redirect(to: string, code?: RedirectStatus): RedirectReply
export function redirect(to: string, options: RedirectOptions): RedirectReply
export function redirect(to: string, codeOrOptions: RedirectStatus | RedirectOptions = 302): RedirectReply {
  const options = typeof codeOrOptions === 'number' ? undefined : codeOrOptions
  const code = typeof codeOrOptions === 'number' ? codeOrOptions : (codeOrOptions.status ?? 302)
  return brand({
    kind: 'redirect',
    status: code,
    headers: undefined,
    location: locationFor(to, options),
    body: undefined,
  })
}

/** Options of `view(vars, opts)`: which template, and the reply's status and headers. */
export interface ViewOptions {
  /** Template name in `src/views/` without `.liquid`. */
  view?: string
  /** The status (default 200). */
  status?: number
  /** Extra response headers. */
  headers?: Headers
}

/**
 * A reply rendering a Liquid template of `src/views/` with `vars`.
 *
 * The template is `opts.view`, or by default the controller's own (`notes.liquid` for
 * `notes_controller.ts`).
 *
 * @example
 * ```ts
 * import { view } from 'vela'
 *
 * export const index = () => view({ title: 'Products' })
 * export const missing = () => view({ title: 'Not found' }, { view: 'not_found', status: 404 })
 * ```
 */
export function view(vars: Readonly<Record<string, unknown>> = {}, opts: ViewOptions = {}): ViewReply {
  return brand({
    kind: 'view',
    status: opts.status ?? 200,
    headers: opts.headers,
    vars,
    view: opts.view,
    body: undefined,
  })
}

/**
 * A reply streaming the file at `path` (relative to the app root), with the given status
 * (default 200) and headers.
 *
 * @example
 * ```ts
 * import { sendfile } from 'vela'
 *
 * export const brochure = () => sendfile('priv/brochure.pdf', { headers: { 'content-type': 'application/pdf' } })
 * ```
 */
export function sendfile(path: string, opts: { status?: number; headers?: Headers } = {}): FileReply {
  return brand({ kind: 'file', status: opts.status ?? 200, headers: opts.headers, path, body: undefined })
}
