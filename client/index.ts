/**
 * `vela/client`: `createClient<Routes>(baseUrl)`, a small fetch wrapper whose calls the compiler
 * checks against the app's routes (the `Routes` the Vite plugin generates into
 * `.vela/routes.d.ts`, imported from `virtual:vela/routes`), plus the types of the virtual
 * modules `vela/vite` serves (`"types": ["vela/client"]` in the app's tsconfig.json).
 *
 * A call fills the path's `:params`, appends the query (arrays as repeated keys), sends `body` as
 * JSON, and resolves to `{ status, body, headers }` for whatever status the server answers (it
 * does not throw for 4xx/5xx: the status is part of the type). A JSON reply's body is parsed, any
 * other reply's body is its text, and an empty one is `undefined`. Network failures reject.
 */
/// <reference path="../vite-plugin/client.d.ts" preserve="true" />
import { fillPath, queryString } from './query.ts'
import type { QueryValue, RouteEntry } from './route-types.ts'

export type {
  HandlerResponses,
  PathGet,
  QueryValue,
  ReplyToResponse,
  RouteEntry,
  RouteMap,
  SchemaInput,
  SchemaOutput,
  ValidationErrors,
  WithDeclared,
} from './route-types.ts'

/** The methods a client has, uppercase as in the route keys (`'GET /api/products'`). */
export type ClientMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE'

/** Headers to send with every call: a fixed set, or a function called before each call (a fresh token). */
export type ClientHeaders = HeadersInit | (() => HeadersInit | Promise<HeadersInit>)

/** `createClient`'s options. */
export interface ClientOptions {
  /** The fetch to use (default: the global one): a test app's, one with a cookie jar, … */
  readonly fetch?: (input: Request) => Promise<Response>
  /** Sent with every call, before each call's own `headers`. */
  readonly headers?: ClientHeaders
}

/** The paths of `R` for one method: `'/api/products/:id'` for the key `'GET /api/products/:id'`. */
export type PathsOf<R, M extends ClientMethod> = { [K in keyof R]: K extends `${M} ${infer P}` ? P : never }[keyof R]

/** The entry of `R` for a method and a path. */
export type EntryOf<R, M extends ClientMethod, P extends string> = R[`${M} ${P}` & keyof R] extends infer E extends
  RouteEntry
  ? E
  : never

type ParamsPart<E extends RouteEntry> = keyof E['params'] extends never
  ? { params?: Record<string, never> }
  : { params: E['params'] }
type QueryPart<E extends RouteEntry> = {} extends E['query'] ? { query?: E['query'] } : { query: E['query'] }
type BodyPart<E extends RouteEntry> = unknown extends E['body']
  ? { body?: unknown }
  : [E['body']] extends [undefined]
    ? { body?: undefined }
    : { body: E['body'] }

/** What one call takes: `params` when the path has some, `query`, `body` as the route declares them, extra `headers`. */
export type CallOptions<E extends RouteEntry> = ParamsPart<E> & QueryPart<E> & BodyPart<E> & { headers?: HeadersInit }

type CallArgs<E extends RouteEntry> = {} extends CallOptions<E> ? [options?: CallOptions<E>] : [options: CallOptions<E>]

/** A call's outcome: one of the route's `{ status, body }` replies, with the reply's headers. */
export type ClientResponse<E extends RouteEntry> = E['responses'] & { readonly headers: Headers }

type MethodCall<R, M extends ClientMethod> = <P extends PathsOf<R, M> & string>(
  path: P,
  ...args: CallArgs<EntryOf<R, M, P>>
) => Promise<ClientResponse<EntryOf<R, M, P>>>

/** A typed client for the routes `R`: one function per method. */
export interface Client<R> {
  get: MethodCall<R, 'GET'>
  post: MethodCall<R, 'POST'>
  put: MethodCall<R, 'PUT'>
  patch: MethodCall<R, 'PATCH'>
  delete: MethodCall<R, 'DELETE'>
}

/** What an untyped call takes: any params, query, body and headers. */
export interface UntypedCallOptions {
  params?: Record<string, string | number>
  query?: Record<string, QueryValue>
  body?: unknown
  headers?: HeadersInit
}

/** An untyped call: any path; the reply's body is `any`, as `JSON.parse` gives it. */
export type UntypedCall = (
  path: string,
  options?: UntypedCallOptions,
  // biome-ignore lint/suspicious/noExplicitAny: a reply body nothing describes yet, as JSON.parse types it
) => Promise<{ status: number; body: any; readonly headers: Headers }>

/** The client before the app's routes are known: every method takes any path. */
export interface UntypedClient {
  get: UntypedCall
  post: UntypedCall
  put: UntypedCall
  patch: UntypedCall
  delete: UntypedCall
}

/**
 * The client `createClient<R>` gives: typed by `R`, or untyped while `R` has no routes, which is
 * what `Routes` is before `.vela/routes.d.ts` has been written (a fresh checkout, before the
 * first `vite`, `vitest` or `vela types`), so the app compiles then and is checked once it exists.
 */
export type ClientFor<R> = [keyof R] extends [never] ? UntypedClient : Client<R>

interface AnyCall {
  params?: Record<string, unknown>
  query?: Record<string, never>
  body?: unknown
  headers?: HeadersInit
}

async function readBody(res: Response): Promise<unknown> {
  const text = await res.text()
  if (text === '') return undefined
  return /[/+]json\b/i.test(res.headers.get('content-type') ?? '') ? JSON.parse(text) : text
}

/**
 * A client for the app at `baseUrl`, typed by the app's generated `Routes`. Until the Vite plugin
 * (or `vela types`) has written `.vela/routes.d.ts`, `Routes` is empty and the client takes any
 * path (`ClientFor`): a fresh checkout compiles, and its calls are checked once the file exists.
 *
 * @example
 * import { createClient } from 'vela/client'
 * import type { Routes } from 'virtual:vela/routes'
 *
 * const api = createClient<Routes>('http://localhost:8080')
 * const res = await api.get('/api/products/:id', { params: { id: 1 } })
 * if (res.status === 200) console.log(res.body.name)
 */
export function createClient<R>(baseUrl: string | URL, options: ClientOptions = {}): ClientFor<R> {
  const base = String(baseUrl).replace(/\/+$/, '')
  const send = async (method: ClientMethod, path: string, call: AnyCall = {}) => {
    const headers = new Headers(typeof options.headers === 'function' ? await options.headers() : options.headers)
    for (const [k, v] of new Headers(call.headers)) headers.set(k, v)
    if (!headers.has('accept')) headers.set('accept', 'application/json')
    const hasBody = call.body !== undefined
    if (hasBody && !headers.has('content-type')) headers.set('content-type', 'application/json')
    const url = base + fillPath(path, call.params) + queryString(call.query)
    const request = new Request(url, { method, headers, body: hasBody ? JSON.stringify(call.body) : undefined })
    const res = await (options.fetch ?? fetch)(request)
    return { status: res.status, body: await readBody(res), headers: res.headers }
  }
  const method = (m: ClientMethod) => (path: string, call?: AnyCall) => send(m, path, call)
  return {
    get: method('GET'),
    post: method('POST'),
    put: method('PUT'),
    patch: method('PATCH'),
    delete: method('DELETE'),
  } as unknown as ClientFor<R>
}
