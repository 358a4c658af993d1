/**
 * What may be compressed, and how: the content coding chosen from `Accept-Encoding` (RFC 9110
 * section 12.5.3: q-values, `*`, `q=0` refusals) and the media types worth compressing.
 */
export type Coding = 'br' | 'gzip'

/** The coding with the highest q-value; brotli wins ties (smaller output at the quality used). */
export function negotiate(accept: string | null): Coding | undefined {
  if (!accept) return undefined
  let br: number | undefined
  let gzip: number | undefined
  let any: number | undefined
  for (const part of accept.split(',')) {
    const [name, ...params] = part.split(';')
    const coding = name!.trim().toLowerCase()
    let q = 1
    for (const p of params) {
      const [k, v] = p.split('=')
      if (k!.trim().toLowerCase() === 'q') q = Number(v) || 0
    }
    if (coding === 'br') br = q
    else if (coding === 'gzip' || coding === 'x-gzip') gzip = q
    else if (coding === '*') any = q
  }
  const qBr = br ?? any ?? 0
  const qGzip = gzip ?? any ?? 0
  if (qBr <= 0 && qGzip <= 0) return undefined
  return qBr >= qGzip ? 'br' : 'gzip'
}

// Text formats shrink; images, video, fonts (woff2) and archives are compressed already.
const TEXTUAL = new Set([
  'application/json',
  'application/javascript',
  'application/xml',
  'application/yaml',
  'application/wasm',
  'application/x-ndjson',
  'image/svg+xml',
  'font/ttf',
  'font/otf',
])

export function compressibleType(contentType: string | null): boolean {
  if (!contentType) return false
  const semi = contentType.indexOf(';')
  const type = (semi === -1 ? contentType : contentType.slice(0, semi)).trim().toLowerCase()
  // Events must reach the client as they are written, not when a compressor block fills.
  if (type === 'text/event-stream') return false
  return type.startsWith('text/') || TEXTUAL.has(type) || type.endsWith('+json') || type.endsWith('+xml')
}
