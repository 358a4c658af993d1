/**
 * The development dashboard's request store: the last `limit` requests (default 500), in memory,
 * bounded in bytes too (default 8 MiB): the oldest go first when either bound is passed. Listeners
 * hear each request once it has been answered (the dashboard's live updates).
 */
import type { RequestRecord } from './record.ts'

/** The store's bounds. */
export interface RequestStoreOptions {
  /** Requests kept (default 500). */
  limit?: number
  /** Bytes the kept requests may hold together (default 8 MiB), as each record counts itself. */
  maxBytes?: number
}

/** The last requests, newest last, bounded by count and by bytes. */
export class RequestStore {
  readonly limit: number
  readonly maxBytes: number
  #records: RequestRecord[] = []
  #byId = new Map<string, RequestRecord>()
  #bytes = 0
  #listeners = new Set<(record: RequestRecord) => void>()

  constructor(opts: RequestStoreOptions = {}) {
    this.limit = opts.limit ?? 500
    this.maxBytes = opts.maxBytes ?? 8 * 1024 * 1024
  }

  /** Bytes held now. */
  get bytes(): number {
    return this.#bytes
  }

  get size(): number {
    return this.#records.length
  }

  /** Keeps an answered request, dropping the oldest past either bound, and tells the listeners. */
  add(record: RequestRecord): void {
    this.#records.push(record)
    this.#byId.set(record.id, record)
    this.#bytes += record.bytes
    while (this.#records.length > this.limit || (this.#bytes > this.maxBytes && this.#records.length > 0)) {
      const old = this.#records.shift()!
      this.#byId.delete(old.id)
      this.#bytes -= old.bytes
    }
    for (const listener of this.#listeners) listener(record)
  }

  get(id: string): RequestRecord | undefined {
    return this.#byId.get(id)
  }

  /** Newest first. */
  list(): RequestRecord[] {
    return this.#records.slice().reverse()
  }

  /** Calls `listener` with each request added from now on; returns the unsubscribe function. */
  subscribe(listener: (record: RequestRecord) => void): () => void {
    this.#listeners.add(listener)
    return () => this.#listeners.delete(listener)
  }

  clear(): void {
    this.#records = []
    this.#byId.clear()
    this.#bytes = 0
  }
}
