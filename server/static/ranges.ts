/**
 * Conditional and range requests for `staticDir`, as any static file server answers them:
 * - `If-None-Match` (weak comparison, `*`), else `If-Modified-Since`: a 304 when the client's copy
 *   is current. This is checked first, so a `Range` on a current copy is a 304 too;
 * - `Range: bytes=a-b`, `bytes=a-`, `bytes=-n` (GET only): a 206 of those bytes, or a 416 when the
 *   range starts past the end (or asks for the last 0 bytes);
 * - `If-Range` with the ETag (compared strongly) or the Last-Modified date: the range is served
 *   only if the file is still that version, else the whole file (200).
 *
 * **Choice:** several ranges in one request (`bytes=0-9,20-29`) are answered with the whole file
 * (200), which RFC 9110 allows, rather than a `multipart/byteranges` body: browsers, media players
 * and download resumers ask for one range, and a multi-part answer is where range servers have had
 * their denial-of-service bugs (many overlapping ranges). A header that is not a valid byte range
 * is ignored the same way. No library: one range is a regular expression, and `range-parser`'s
 * value, combining several, is what is not served.
 */

/** What a `Range` asks of a file of `size` bytes. */
export type RangeAnswer =
  | { readonly kind: 'whole' }
  | { readonly kind: 'part'; readonly start: number; readonly end: number }
  | { readonly kind: 'unsatisfiable' }

const WHOLE: RangeAnswer = { kind: 'whole' }
const UNSATISFIABLE: RangeAnswer = { kind: 'unsatisfiable' }
const ONE_RANGE = /^bytes=[ \t]*(\d*)[ \t]*-[ \t]*(\d*)[ \t]*$/i

/** The part of a `size`-byte file that `range` (the header, if sent) asks for; `end` inclusive. */
export function byteRange(range: string | undefined, size: number): RangeAnswer {
  if (range === undefined) return WHOLE
  const m = ONE_RANGE.exec(range)
  if (!m) return WHOLE
  const [, first, last] = m as unknown as [string, string, string]
  if (first === '') {
    if (last === '') return WHOLE
    const suffix = Number(last)
    if (suffix === 0 || size === 0) return UNSATISFIABLE
    return { kind: 'part', start: Math.max(0, size - suffix), end: size - 1 }
  }
  const start = Number(first)
  const end = last === '' ? Infinity : Number(last)
  if (end < start) return WHOLE
  if (start >= size) return UNSATISFIABLE
  return { kind: 'part', start, end: Math.min(end, size - 1) }
}

/** Whether `If-Range` (absent: true) still names this version: the exact strong ETag, or the Last-Modified date. */
export function rangeStillApplies(ifRange: string | undefined, etag: string, lastModified: string): boolean {
  if (ifRange === undefined) return true
  const value = ifRange.trim()
  if (value.startsWith('"') || value.startsWith('W/')) return !etag.startsWith('W/') && value === etag
  const date = Date.parse(value)
  return !Number.isNaN(date) && date === Date.parse(lastModified)
}

/** If-None-Match wins over If-Modified-Since; ETags compare weakly (a `W/` prefix is ignored). */
export function notModified(inm: string | undefined, ims: string | undefined, etag: string, mtime: Date): boolean {
  if (inm !== undefined) {
    const bare = etag.replace(/^W\//, '')
    return inm.split(',').some((t) => {
      const tag = t.trim()
      return tag === '*' || tag.replace(/^W\//, '') === bare
    })
  }
  if (ims === undefined) return false
  const since = Date.parse(ims)
  return !Number.isNaN(since) && Math.floor(mtime.getTime() / 1000) * 1000 <= since
}
