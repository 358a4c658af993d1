import type { VelaRequest } from 'vela'

/** A message for the next page the browser shows: after a redirect, the page it lands on. */
export interface Flash {
  readonly kind: 'notice' | 'error'
  readonly text: string
}

/**
 * Keeps `text` in the session for the next page (the session cookie carries it across the
 * redirect). Writes `req.session`, so call it on a route whose group lists `sessionPlugin`.
 */
export function flash(req: VelaRequest, text: string, kind: Flash['kind'] = 'notice'): void {
  req.session = { ...req.session, flash: { kind, text } }
}

/** The message kept for this page, if any, removed from the session: it shows once. */
export function takeFlash(req: VelaRequest): Flash | undefined {
  const { flash: kept, ...rest } = req.session ?? {}
  if (kept === undefined) return undefined
  req.session = rest
  return kept as Flash
}
