/**
 * Unsealed sessions by sealed cookie value. Unsealing derives two keys with PBKDF2 (8192
 * iterations each, h3's default, there to protect guessable secrets), several milliseconds per
 * request; a browser sends the same cookie until the session changes, so the result is kept.
 * The key is the whole sealed value, HMAC included: only a cookie that unsealed before can hit.
 * Bounded (least recently used out first), and an entry past `maxAge` is never served.
 */
export interface CachedSession {
  readonly id: string
  readonly createdAt: number
  /** JSON of the data: every hit gets its own copy to change. */
  readonly json: string
}

export class SessionCache {
  readonly #entries = new Map<string, CachedSession>()

  constructor(
    readonly maxEntries = 10_000,
    /** Seconds, as the session option; entries older than this are misses. */
    readonly maxAge: number | undefined = undefined,
  ) {}

  get size(): number {
    return this.#entries.size
  }

  get(sealed: string, now = Date.now()): { id: string; createdAt: number; data: Record<string, unknown> } | undefined {
    const hit = this.#entries.get(sealed)
    if (!hit) return undefined
    this.#entries.delete(sealed)
    if (this.maxAge !== undefined && now - hit.createdAt > this.maxAge * 1000) return undefined
    this.#entries.set(sealed, hit) // most recently used goes last
    return { id: hit.id, createdAt: hit.createdAt, data: JSON.parse(hit.json) as Record<string, unknown> }
  }

  set(sealed: string, session: { id: string; createdAt: number; data: unknown }): void {
    this.#entries.delete(sealed)
    this.#entries.set(sealed, { id: session.id, createdAt: session.createdAt, json: JSON.stringify(session.data) })
    if (this.#entries.size > this.maxEntries) this.#entries.delete(this.#entries.keys().next().value!)
  }
}
