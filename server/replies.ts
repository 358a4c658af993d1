/**
 * Reply helpers: what handlers return. A reply is a plain description;
 * `server/respond.ts` turns it into the HTTP response once the post-request plugins have seen it.
 * Options come last, in one object, as in the rest of the API:
 *
 * | helper                                  | effect                                                  |
 * |-----------------------------------------|---------------------------------------------------------|
 * | `json(body)`                            | 200, `application/json` (also for POST)                 |
 * | `json(body, { status, headers })`       | given status, extra headers merged over the JSON content type |
 * | `status(code)`                          | bare status, empty body                                 |
 * | `status(code, body, { headers })`       | object body JSON-encoded; string body sent as is        |
 * | `redirect(to, { status, headers })`     | 302 (or the given 3xx) with `location`                  |
 * | `redirect(to, { localOnly: true })`     | an untrusted target: a path on this site, else `fallback` |
 * | `view(vars, { status, headers })`       | renders the controller's default template               |
 * | `view(name, vars, { status, headers })` | renders the named template                              |
 * | `sendfile(path, { status, headers })`   | streams a file                                          |
 *
 * The forms before options came last (`json(status, headers, body)`, `status(code, headers, body)`,
 * `view(vars, { view })`, `redirect(to, 301)`) still work for this release and print one
 * deprecation warning each (deprecation.ts). Each helper reads its arguments as TypeScript's
 * overloads do, so the type an editor shows is the reply the server sends.
 *
 * `redirect` percent-encodes the target for the header and refuses control characters; its check
 * options against open redirects are in redirect-target.ts.
 */
import { warnDeprecated } from './deprecation.ts'
import type { RedirectOptions, RedirectStatus } from './redirect-target.ts'
import { locationFor } from './redirect-target.ts'

export type { RedirectOptions, RedirectStatus } from './redirect-target.ts'

/** Extra response headers of a reply, by name (exported as `ReplyHeaders`). */
export type Headers = Readonly<Record<string, string>>

/** Options of `json`, `view` and `sendfile`: the reply's status and extra headers. */
export interface ReplyOptions<S extends number = number> {
  /** The status (default 200). `json` keeps the literal given (`201`), which typed clients read. */
  status?: S
  /** Extra response headers, merged over the reply's own (`content-type`); names in any case. */
  headers?: Headers
}

/** Options of `status(code, body, options)`: extra headers (the status is the first argument). */
export interface StatusOptions {
  /** Extra response headers; `content-type` replaces the JSON one a body object gets. */
  headers?: Headers
}

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
 * A JSON reply: `json(body)` is a 200; `json(body, { status, headers })` gives the status and headers.
 *
 * `headers` are merged over the JSON content type. The body is encoded with the app's `jsonLib`.
 * The status keeps its literal type (`json(note, { status: 201 })` is a 201 reply), so a typed
 * client tells the replies of a route apart by status.
 *
 * @example
 * ```ts
 * import { json, type VelaRequest } from 'vela'
 *
 * export const show = (req: VelaRequest) => json({ id: req.bindings.id })
 * export const create = () => json({ id: '2' }, { status: 201, headers: { location: '/api/products/2' } })
 * ```
 */
export function json<T, const S extends number = 200>(body: T, options?: ReplyOptions<S>): JsonReply<T, S>
/**
 * The form before options came last: `json(status, headers, body)`.
 *
 * @deprecated Write `json(body, { status, headers })`: `json(201, {}, note)` → `json(note, { status: 201 })`.
 */
export function json<T, const S extends number = number>(status: S, headers: Headers, body: T): JsonReply<T, S>
export function json(...args: [unknown, ReplyOptions?] | [number, Headers, unknown]): JsonReply {
  if (args.length === 3) {
    warnDeprecated(
      'VELA_DEP_JSON_POSITIONAL',
      'json(status, headers, body) is deprecated: write json(body, { status, headers }), e.g. json(201, {}, note) → json(note, { status: 201 })',
    )
    return brand({ kind: 'json', status: args[0], headers: args[1], body: args[2] })
  }
  const options = args[1]
  return brand({ kind: 'json', status: options?.status ?? 200, headers: options?.headers, body: args[0] })
}

/** Whether `value` can be `status`'s options: absent, or an object with no key but `headers`. */
function isStatusOptions(value: unknown): value is StatusOptions | undefined {
  if (value === undefined) return true
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false
  for (const key in value) if (key !== 'headers') return false
  return true
}

/**
 * A reply with status `code` and an empty body, or with `status(code, body, { headers })` that body.
 *
 * A string body is sent as is; any other is JSON-encoded. The status keeps its literal type
 * (`status(404, { error })` is a 404 reply), which typed clients read.
 *
 * @example
 * ```ts
 * import { status } from 'vela'
 *
 * export const remove = () => status(204)
 * export const missing = () => status(404, { error: 'note not found' })
 * export const teapot = () => status(418, 'short and stout', { headers: { 'content-type': 'text/plain' } })
 * ```
 */
export function status<const S extends number>(code: S): StatusReply<undefined, S>
export function status<B, const S extends number>(code: S, body: B, options?: StatusOptions): StatusReply<B, S>
/**
 * The form before options came last: `status(code, headers, body)`.
 *
 * @deprecated Write `status(code, body, { headers })`: `status(422, {}, { errors })` → `status(422, { errors })`.
 */
export function status<B, const S extends number = number>(code: S, headers: Headers, body: B): StatusReply<B, S>
export function status(code: number, ...rest: unknown[]): StatusReply {
  // Three arguments whose last cannot be options are the old form (as the overloads read them).
  if (rest.length >= 2 && !isStatusOptions(rest[1])) {
    warnDeprecated(
      'VELA_DEP_STATUS_POSITIONAL',
      'status(code, headers, body) is deprecated: write status(code, body, { headers }), e.g. status(422, {}, { errors }) → status(422, { errors })',
    )
    return brand({ kind: 'status', status: code, headers: rest[0] as Headers, body: rest[1] })
  }
  const options = rest[1] as StatusOptions | undefined
  return brand({ kind: 'status', status: code, headers: options?.headers, body: rest[0] })
}

/**
 * A redirect to `to`, percent-encoded for the `Location` header (`/日本` → `/%E6%97%A5%E6%9C%AC`;
 * existing `%XX` escapes kept): 302, or `options.status`. A target with CR, LF or another control
 * character throws a TypeError (the handler's 500). For a target from the request, pass
 * `{ localOnly: true }` (or `allowHosts`): anything but a path on this site then goes to
 * `fallback` (default `/`). `headers` are sent with it; `location` is always the checked target.
 *
 * @example
 * ```ts
 * import { redirect, type VelaRequest } from 'vela'
 *
 * export const legacy = () => redirect('/api/products', { status: 301 })
 * // After login: follow ?next= only to a path on this site, else go to /notes.
 * export function afterLogin(req: VelaRequest) {
 *   const next = req.query.next
 *   return redirect(typeof next === 'string' ? next : '/', { localOnly: true, fallback: '/notes', status: 303 })
 * }
 * ```
 */
export function redirect(to: string, options?: RedirectOptions): RedirectReply
/**
 * The form with the status alone: `redirect(to, 301)`.
 *
 * @deprecated Write `redirect(to, { status })`: `redirect('/new', 301)` → `redirect('/new', { status: 301 })`.
 */
export function redirect(to: string, code: RedirectStatus): RedirectReply
export function redirect(to: string, codeOrOptions?: RedirectStatus | RedirectOptions): RedirectReply {
  let options: RedirectOptions | undefined
  if (typeof codeOrOptions === 'number') {
    warnDeprecated(
      'VELA_DEP_REDIRECT_STATUS',
      "redirect(to, code) is deprecated: write redirect(to, { status: code }), e.g. redirect('/new', 301) → redirect('/new', { status: 301 })",
    )
    options = { status: codeOrOptions }
  } else {
    options = codeOrOptions
  }
  return brand({
    kind: 'redirect',
    status: options?.status ?? 302,
    headers: options?.headers,
    location: locationFor(to, options),
    body: undefined,
  })
}

/** Options of `view(vars, options)` and `view(name, vars, options)`: the reply's status and headers. */
export interface ViewOptions extends ReplyOptions {
  /**
   * Template name in `src/views/` without `.liquid`.
   *
   * @deprecated Name the template first: `view(vars, { view: 'notes_edit' })` → `view('notes_edit', vars)`.
   */
  view?: string
}

/** A view's variables: what the template reads (`{{ title }}`). */
type ViewVars = Readonly<Record<string, unknown>>

/**
 * A reply rendering a Liquid template of `src/views/` with `vars`: `view(name, vars, options)`
 * renders `src/views/<name>.liquid`; `view(vars, options)` the controller's own
 * (`notes.liquid` for `notes_controller.ts`). `options` give the status (default 200) and headers.
 *
 * @example
 * ```ts
 * import { view } from 'vela'
 *
 * export const index = () => view({ title: 'Products' })
 * export const missing = () => view('not_found', { title: 'Not found' }, { status: 404 })
 * ```
 */
export function view(name: string, vars?: ViewVars, options?: ReplyOptions): ViewReply
export function view(vars?: ViewVars, options?: ViewOptions): ViewReply
export function view(first?: string | ViewVars, second?: ViewVars | ViewOptions, third?: ReplyOptions): ViewReply {
  let name: string | undefined
  let vars: ViewVars | undefined
  let options: ViewOptions | undefined
  if (typeof first === 'string') {
    name = first
    vars = second as ViewVars | undefined
    options = third
  } else {
    vars = first
    options = second as ViewOptions | undefined
    if (options?.view !== undefined) {
      warnDeprecated(
        'VELA_DEP_VIEW_OPTION',
        "view(vars, { view: name }) is deprecated: write view(name, vars, { status, headers }), e.g. view(vars, { view: 'notes_edit' }) → view('notes_edit', vars)",
      )
      name = options.view
    }
  }
  return brand({
    kind: 'view',
    status: options?.status ?? 200,
    headers: options?.headers,
    vars: vars ?? {},
    view: name,
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
export function sendfile(path: string, opts: ReplyOptions = {}): FileReply {
  return brand({ kind: 'file', status: opts.status ?? 200, headers: opts.headers, path, body: undefined })
}
