/**
 * `staticDir(dir)`: serves the files under `dir` behind a `[...]` route (`['/docs/[...]',
 * staticDir('priv/assets')]`). GET and HEAD, content types by extension, ETag and Last-Modified
 * with 304s, byte ranges (206, 416, `If-Range`: ranges.ts), `index.html` for a directory (and for
 * the route's own path). Files up to 64 KiB are read whole in the handler; larger ones are sent as
 * a file body that opens its descriptor only when it is sent and always closes it (file-body.ts).
 * A process out of descriptors gets a logged 503, never a crash or a 404.
 *
 * **Choice:** a relative `dir` is resolved against the *app root* of the app that serves the route
 * (`createApp`'s `root`: the Vite root in dev, `dist/` in a built server), not the working
 * directory: `staticDir` runs when the route file is evaluated, before any app exists, so it
 * returns a handler that each app binds to its root (`staticHandlerAt`). Used without an app
 * (`.handle` directly), it resolves against the working directory. An absolute `dir` is kept.
 *
 * Containment, in layers, so that no spelling of a path reaches a file outside `dir`:
 * - the router hands over `req.pathInfo` decoded exactly once (`%252e` stays the literal `%2e`);
 * - NUL bytes and backslashes are refused, and so is every segment starting with a dot (`.`,
 *   `..`, dotfiles such as `.env`);
 * - the joined path must still lie under `dir`, and so must its `realpath`, so a symlink (or a
 *   symlinked `index.html`) leading out of `dir` is a 404 like a missing file.
 */
import { readFile, realpath, stat } from 'node:fs/promises'
import type { Stats } from 'node:fs'
import { join, resolve, sep } from 'node:path'
import { FastResponse } from 'srvx'
import { httpError } from '../errors/http-error.ts'
import type { VelaRequest } from '../request.ts'
import type { Handler, StaticRouteHandler } from '../contracts/routes.ts'
import { fileBody, fileError } from './file-body.ts'
import { contentTypeFor } from './mime.ts'
import { byteRange, notModified, rangeStillApplies } from './ranges.ts'

/** Options of `staticDir`. */
export interface StaticDirOptions {
  /** File served for a directory (default `index.html`); `false` makes directories 404. */
  index?: string | false
  /** Adds `cache-control: public, max-age=<seconds>`. */
  maxAge?: number
}

// Files up to this size are read in one call; larger ones are streamed.
const READ_WHOLE = 64 * 1024

const inside = (root: string, path: string) => path === root || path.startsWith(root.endsWith(sep) ? root : root + sep)

// The handler of a `staticDir` for a given app root (set by `staticDir`, read by `staticHandlerAt`).
const kAtRoot = Symbol('vela.static.atRoot')
type Rootable = StaticRouteHandler & { readonly [kAtRoot]?: (appRoot: string) => Handler }

/**
 * The handler of a static route: the files under `dir` (relative to the app root), for a route
 * whose path ends in `[...]`. GET and HEAD, with content types, ETags, 304s and byte ranges.
 *
 * @example
 * ```ts
 * import { defineRoutes, staticDir } from 'vela'
 *
 * export default defineRoutes({
 *   prefix: '',
 *   security: false,
 *   routes: [['/assets/[...]', staticDir('priv/assets', { maxAge: 3600 })]],
 * })
 * ```
 */
export function staticDir(dir: string, opts: StaticDirOptions = {}): StaticRouteHandler {
  const handler: Rootable = {
    kind: 'vela.static',
    handle: serveDir(resolve(dir), opts),
    [kAtRoot]: (appRoot) => serveDir(resolve(appRoot, dir), opts),
  }
  return handler
}

/** The request handler of a static route in an app whose root is `appRoot` (other static handlers: their own `handle`). */
export function staticHandlerAt(handler: StaticRouteHandler, appRoot: string): Handler {
  return (handler as Rootable)[kAtRoot]?.(appRoot) ?? handler.handle
}

function serveDir(root: string, opts: StaticDirOptions): Handler {
  const index = opts.index ?? 'index.html'
  const cacheControl = opts.maxAge !== undefined ? `public, max-age=${opts.maxAge}` : undefined
  // The directory may be created after start-up (generated assets): resolve it on first use.
  let realRoot: Promise<string> | undefined
  // Requested path → its real path, checked to lie under the root, reused for one second: a busy
  // file costs one realpath a second instead of one a request, and a symlink swapped in later is
  // seen within that second. A vanished file fails its stat and is forgotten. Bounded.
  const realPaths = new Map<string, { real: string; checkedAt: number }>()
  const realpathInside = async (file: string, base: string) => {
    const now = Date.now()
    const cached = realPaths.get(file)
    if (cached && now - cached.checkedAt < 1000) return cached.real
    // Missing or unreadable is a 404; out of descriptors is not (file-body.ts).
    const real = await realpath(file).catch((err: unknown) => exhausted(err, file))
    if (!real || !inside(base, real)) return (realPaths.delete(file), undefined)
    if (realPaths.size >= 1000) realPaths.clear()
    realPaths.set(file, { real, checkedAt: now })
    return real
  }

  /** The real path of a regular file under the root, or undefined. */
  async function locate(segments: string[]): Promise<{ file: string; info: Stats } | undefined> {
    const base = await (realRoot ??= realpath(root).catch((err) => ((realRoot = undefined), Promise.reject(err))))
    let file = join(root, ...segments)
    if (!inside(root, file)) return undefined
    for (let hop = 0; hop < 2; hop++) {
      const real = await realpathInside(file, base)
      if (!real) return undefined
      const info = await stat(real).catch((err) => (realPaths.delete(file), Promise.reject(err)))
      if (info.isFile()) return { file: real, info }
      if (!info.isDirectory() || index === false || hop === 1) return undefined
      file = join(real, index)
    }
    return undefined
  }

  async function handle(req: VelaRequest): Promise<Response> {
    const method = req.method
    if (method !== 'GET' && method !== 'HEAD') throw httpError(405, undefined, { headers: { allow: 'GET, HEAD' } })
    const rel = req.pathInfo ?? ''
    if (rel.includes('\0') || rel.includes('\\')) throw httpError(404)
    const segments = rel.split('/').filter((s) => s !== '')
    if (segments.some((s) => s.startsWith('.'))) throw httpError(404)
    const found = await locate(segments).catch((err: unknown) => exhausted(err, rel))
    if (!found) throw httpError(404)
    const { file, info } = found
    const size = info.size
    // Strong, as nginx makes it: the same size and modification time (ms) are taken as the same bytes.
    const etag = `"${size.toString(16)}-${Math.floor(info.mtimeMs).toString(16)}"`
    const lastModified = info.mtime.toUTCString()
    const headers: Record<string, string> = { etag, 'last-modified': lastModified, 'accept-ranges': 'bytes' }
    if (cacheControl) headers['cache-control'] = cacheControl
    if (notModified(req.header('if-none-match'), req.header('if-modified-since'), etag, info.mtime)) {
      return new FastResponse(null, { status: 304, headers })
    }
    headers['content-type'] = contentTypeFor(file)
    // Ranges are for GET only; an If-Range naming another version asks for the whole file.
    const ranged = method === 'GET' && rangeStillApplies(req.header('if-range'), etag, lastModified)
    const range = ranged ? byteRange(req.header('range'), size) : WHOLE
    if (range.kind === 'unsatisfiable')
      throw httpError(416, undefined, { headers: { 'content-range': `bytes */${size}`, 'accept-ranges': 'bytes' } })
    const [status, start, end] = range.kind === 'part' ? [206, range.start, range.end] : [200, 0, size - 1]
    if (status === 206) headers['content-range'] = `bytes ${start}-${end}/${size}`
    headers['content-length'] = String(end + 1 - start)
    if (method === 'HEAD') return new FastResponse(null, { status, headers })
    const body = size <= READ_WHOLE ? (await readWhole(file)).subarray(start, end + 1) : fileBody(file, start, end)
    return new FastResponse(body, { status, headers })
  }

  return handle
}

const WHOLE = { kind: 'whole' } as const

const readWhole = (file: string) => readFile(file).catch((err: unknown) => Promise.reject(fileError(err, file)))

/** A lookup that failed: undefined (a 404) unless the process is out of descriptors (a 503). */
function exhausted(err: unknown, path: string): undefined {
  const mapped = fileError(err, path)
  if (mapped !== err) throw mapped
  return undefined
}
