/**
 * Unsealed sessions by sealed cookie value. Unsealing derives two keys and checks an HMAC, work
 * a browser would make the server repeat on every request with the same cookie, so the result is
 * kept. The key is the whole sealed value, HMAC included: only a cookie that unsealed before can hit.
 * Bounded (least recently used out first). An entry is never served at or after its `expiresAt`
 * (the session's own end of life), and the cache knows nothing of revocation: the plugin asks its
 * store about every session, cached or not.
 */
export interface UnsealedSession {
  readonly id: string
  readonly createdAt: number
  readonly seenAt: number
  readonly data: Record<string, unknown>
}

interface Entry {
  readonly id: string
  readonly createdAt: number
  readonly seenAt: number
  readonly expiresAt: number
  /** JSON of the data: every hit gets its own copy to change. */
  readonly json: string
}

export class SessionCache {
  readonly #entries = new Map<string, Entry>()

  constructor(readonly maxEntries = 10_000) {}

  get size(): number {
    return this.#entries.size
  }

  get(sealed: string, now = Date.now()): UnsealedSession | undefined {
    const hit = this.#entries.get(sealed)
    if (!hit) return undefined
    this.#entries.delete(sealed)
    if (now >= hit.expiresAt) return undefined
    this.#entries.set(sealed, hit) // most recently used goes last
    return {
      id: hit.id,
      createdAt: hit.createdAt,
      seenAt: hit.seenAt,
      data: JSON.parse(hit.json) as Record<string, unknown>,
    }
  }

  /** Keeps `session` for `sealed` until `expiresAt` (epoch ms). */
  set(sealed: string, session: UnsealedSession, expiresAt: number): void {
    this.#entries.delete(sealed)
    this.#entries.set(sealed, {
      id: session.id,
      createdAt: session.createdAt,
      seenAt: session.seenAt,
      expiresAt,
      json: JSON.stringify(session.data),
    })
    if (this.#entries.size > this.maxEntries) this.#entries.delete(this.#entries.keys().next().value!)
  }
}
