/**
 * Response compression (`server.options.compress`): bodies of textual types at or above the
 * threshold (default 1 KiB) are sent gzip- or brotli-encoded when `Accept-Encoding` allows, with
 * `Vary: Accept-Encoding`. Never twice (a `content-encoding` already set is left alone), never for
 * HEAD, 1xx/204/206/304, `cache-control: no-transform` or already-compressed media types.
 *
 * Applied to the outcome of routing (`compressing`), inside the observers of stream handlers, so
 * metrics count the bytes actually sent; on every exchange, so node's requests keep their direct
 * path. With `compress` off it is not in the chain at all.
 *
 * A body of unknown length is read up to the threshold first: a short one goes out as is, a long
 * one is compressed as a stream (the first bytes wait until the threshold is reached or the body
 * ends).
 */
import { Readable } from 'node:stream'
import zlib from 'node:zlib'
import { promisify } from 'node:util'
import type { CompressOptions } from '../contracts/config.ts'
import type { FetchHandler } from '../contracts/handlers.ts'
import type { Serve } from '../exchange/route.ts'
import { asResponse, writableResponse } from '../respond.ts'
import type { Coding } from './negotiate.ts'
import { compressibleType, negotiate } from './negotiate.ts'

export type { CompressOptions }

// Quality 4 is brotli's usual setting for dynamic content: better than gzip -6 at a similar cost.
const BROTLI = { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 4 } }
const brotliAsync = promisify(zlib.brotliCompress)
const gzipAsync = promisify(zlib.gzip)
// Below this a synchronous call is cheaper than a trip to the thread pool.
const SYNC_MAX = 64 * 1024

function compressBuffer(coding: Coding, data: Uint8Array): Uint8Array | Promise<Uint8Array> {
  if (data.byteLength <= SYNC_MAX) return coding === 'br' ? zlib.brotliCompressSync(data, BROTLI) : zlib.gzipSync(data)
  return coding === 'br' ? brotliAsync(data, BROTLI) : gzipAsync(data)
}

function compressStream(
  coding: Coding,
  head: Uint8Array[],
  rest: ReadableStreamDefaultReader<Uint8Array>,
): ReadableStream {
  const z = coding === 'br' ? zlib.createBrotliCompress(BROTLI) : zlib.createGzip()
  async function* source() {
    yield* head
    for (;;) {
      const { done, value } = await rest.read()
      if (done) return
      yield value
    }
  }
  const input = Readable.from(source())
  input.on('error', (err) => z.destroy(err))
  z.on('close', () => !input.readableEnded && (input.destroy(), rest.cancel().catch(() => {})))
  return Readable.toWeb(input.pipe(z)) as unknown as ReadableStream
}

function addVary(headers: Headers) {
  const vary = headers.get('vary')
  if (!vary) headers.set('vary', 'Accept-Encoding')
  else if (vary !== '*' && !/(^|,)\s*accept-encoding\s*(,|$)/i.test(vary))
    headers.set('vary', `${vary}, Accept-Encoding`)
}

function encodedHeaders(res: Response, coding: Coding, length?: number): Headers {
  const headers = new Headers(res.headers)
  headers.set('content-encoding', coding)
  if (length === undefined) headers.delete('content-length')
  else headers.set('content-length', String(length))
  // The encoded bytes differ: a strong validator may no longer claim byte equality.
  const etag = headers.get('etag')
  if (etag && !etag.startsWith('W/')) headers.set('etag', `W/${etag}`)
  addVary(headers)
  return headers
}

function concat(chunks: Uint8Array[], total: number): Uint8Array {
  if (chunks.length === 1) return chunks[0]!
  const out = new Uint8Array(total)
  let at = 0
  for (const c of chunks) out.set(c, (at += c.byteLength) - c.byteLength)
  return out
}

/** Routing's outcome, compressed when the request and the response allow it. */
export function compressing(serve: Serve, opts: CompressOptions = {}): Serve {
  const threshold = opts.threshold ?? 1024
  return (x) =>
    Promise.resolve(serve(x)).then((outcome) =>
      compressResponse(asResponse(outcome), x.method, x.header('accept-encoding'), threshold),
    )
}

/** The same around a fetch handler. */
export function withCompression(next: FetchHandler, opts: CompressOptions = {}): FetchHandler {
  const threshold = opts.threshold ?? 1024
  return async (request) =>
    compressResponse(await next(request), request.method, request.headers.get('accept-encoding'), threshold)
}

async function compressResponse(
  res: Response,
  method: string,
  acceptEncoding: string | null | undefined,
  threshold: number,
): Promise<Response> {
  const status = res.status
  if (method === 'HEAD' || status < 200 || status === 204 || status === 206 || status === 304 || !res.body) return res
  const h = res.headers
  if (
    h.has('content-encoding') ||
    !compressibleType(h.get('content-type')) ||
    h.get('cache-control')?.includes('no-transform')
  )
    return res
  const known = h.get('content-length')
  if (known !== null && Number(known) < threshold) return res
  // From here the representation depends on Accept-Encoding.
  const coding = negotiate(acceptEncoding ?? null)
  if (!coding) return varied(res)
  if (known !== null) {
    const out = await compressBuffer(coding, new Uint8Array(await res.arrayBuffer()))
    return new Response(out as BodyInit, {
      status,
      statusText: res.statusText,
      headers: encodedHeaders(res, coding, out.byteLength),
    })
  }
  // Unknown length: read until the threshold or the end, whichever comes first.
  const reader = res.body.getReader()
  const head: Uint8Array[] = []
  let total = 0
  for (;;) {
    const r = await reader.read()
    if (r.done) {
      const body = concat(head, total)
      if (total < threshold) {
        const headers = new Headers(h)
        headers.set('content-length', String(total))
        addVary(headers)
        return new Response(body as BodyInit, { status, statusText: res.statusText, headers })
      }
      const out = await compressBuffer(coding, body)
      return new Response(out as BodyInit, {
        status,
        statusText: res.statusText,
        headers: encodedHeaders(res, coding, out.byteLength),
      })
    }
    head.push(r.value)
    total += r.value.byteLength
    if (total >= threshold) break
  }
  return new Response(compressStream(coding, head, reader), {
    status,
    statusText: res.statusText,
    headers: encodedHeaders(res, coding),
  })
}

/** The same response with `Vary: Accept-Encoding`, copied when its headers are immutable. */
function varied(res: Response): Response {
  const target = writableResponse(res)
  addVary(target.headers)
  return target
}
