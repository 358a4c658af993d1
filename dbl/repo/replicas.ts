/**
 * Read replicas (`defineRepo({ replicas: [...] })`): copies of the primary that serve reads. A read
 * outside a transaction (`all`, `one`, `get`, `getBy`, `count`, `exists`, `paginate`, `stream`,
 * `preload`) goes to the next replica in turn (round robin); writes, raw `repo.query`, and
 * everything inside `transaction` go to the primary, as do reads inside `repo.onPrimary(fn)`, for
 * a read that must see a write just made (a replica lags behind the primary).
 *
 * **Choice:** PGlite has no replicas, and a repo on PGlite with replicas is refused when it is
 * defined rather than ignored: a replica set that silently does nothing would hide a wrong
 * configuration until production. An app that has replicas only in some environments leaves the
 * list empty elsewhere (`replicas: url ? [{ url }] : []`).
 */
import { AsyncLocalStorage } from 'node:async_hooks'
import type { Adapter } from '../adapters/adapter.ts'
import { createPgAdapter, type PgAdapterOptions } from '../adapters/pg.ts'
import type { ReadReplicas } from './context.ts'

/** A read replica: where it is (like the primary: a URL or the separate fields), its pool and deadlines; or a ready adapter. */
export type ReplicaConfig = PgAdapterOptions | Adapter

function isAdapter(r: ReplicaConfig): r is Adapter {
  return typeof (r as Adapter).query === 'function'
}

/** Throws for replicas a repo cannot have (on PGlite, or not a list); called by `defineRepo`. */
export function checkReplicas(replicas: unknown, backend: 'pg' | 'pglite', name: string): void {
  if (replicas === undefined) return
  if (!Array.isArray(replicas))
    throw new Error(`defineRepo ${name}: replicas must be a list of connection configs ({ url } or hostname, …)`)
  if (replicas.length === 0) return
  if (backend !== 'pg')
    throw new Error(
      `defineRepo ${name}: read replicas need PostgreSQL (give url or hostname); embedded PGlite is one database in this process and has none. Leave replicas empty where there are none (replicas: url ? [{ url }] : [])`,
    )
  for (const r of replicas) {
    if (typeof r !== 'object' || r === null || (!isAdapter(r) && !r.url && !r.hostname))
      throw new Error(`defineRepo ${name}: each replica needs a url or a hostname (or is an adapter)`)
    if (isAdapter(r) && r.kind !== 'pg') throw new Error(`defineRepo ${name}: a replica adapter must be PostgreSQL's`)
  }
}

/** The replicas' adapters (pools connect on their first query), or undefined for none. */
export function openReplicas(
  replicas: readonly ReplicaConfig[] | undefined,
  primary: PgAdapterOptions,
): ReadReplicas | undefined {
  if (!replicas?.length) return undefined
  const adapters = replicas.map((r) =>
    isAdapter(r)
      ? r
      : createPgAdapter({
          // Deadlines and pool size follow the primary's unless the replica gives its own.
          connectTimeoutMs: primary.connectTimeoutMs,
          acquireTimeoutMs: primary.acquireTimeoutMs,
          statementTimeoutMs: primary.statementTimeoutMs,
          idleTimeoutMs: primary.idleTimeoutMs,
          poolSize: primary.poolSize,
          ...r,
        }),
  )
  return { adapters, next: 0, primary: new AsyncLocalStorage<true>() }
}

/** Closes the adapters `openReplicas` made (not those given ready: their owner closes them). */
export async function closeReplicas(
  r: ReadReplicas | undefined,
  given: readonly ReplicaConfig[] | undefined,
): Promise<void> {
  if (!r) return
  await Promise.all(r.adapters.filter((a) => !given?.includes(a)).map((a) => a.close()))
}
