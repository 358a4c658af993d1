/**
 * `repo.stream(q, { batchSize })`: the rows of a query as an async iterator, read `batchSize` at a
 * time, so a large result never sits in memory whole. Each batch is loaded as `repo.all` loads
 * rows (embedded fields, enums checked, joined fields nested) and, with `preload`, preloaded as
 * `repo.preload` does (one query per association per batch).
 *
 * How the rows are read:
 * - On PostgreSQL, and inside `repo.transaction` on either backend: a server-side cursor,
 *   `DECLARE … NO SCROLL CURSOR FOR <the query>` then `FETCH FORWARD batchSize`. Outside a
 *   transaction the stream takes one pooled connection and opens a transaction on it (a cursor
 *   lives in one); inside one it uses the transaction's connection. **Choice:** an SQL cursor
 *   rather than `pg-cursor`: every statement goes through the adapter like any other (deadlines,
 *   errors classified, query events and spans), it is the same code on PGlite, and an SQL cursor
 *   interleaves with other statements on its connection, so the loop may read and write through
 *   the repo inside the transaction it streams in (`pg-cursor` holds the client's query queue
 *   until it closes: such a loop would wait on itself).
 * - On PGlite outside a transaction: keyset batches (query/keyset.ts), each its own statement,
 *   ordered by the query's ordering with the primary key added. **Choice:** not LIMIT / OFFSET in a
 *   transaction: PGlite has one connection, and a transaction held for the whole loop would make
 *   every repo call in the loop body wait for it (and fail after `acquireTimeoutMs`). Keyset
 *   batches leave the connection free between batches, and a row updated or deleted by the loop
 *   never makes a later batch skip or repeat one. The rows must hold the order-by fields and the
 *   primary key, and the query must not be grouped; such a query can be streamed inside
 *   `repo.transaction`.
 *
 * The connection is given back (the cursor closed, the transaction ended) when the loop ends,
 * when it breaks early (`for await` calls `return()`), and when it or the loop body throws. An
 * iterator stepped by hand with `next()` and then dropped keeps its connection: call `return()`.
 */
import type { Adapter, Connection } from '../adapters/adapter.ts'
import { afterCond, keyOf, keysetOf } from '../query/keyset.ts'
import { compileSelect } from '../query/compile.ts'
import { limit, where } from '../query/operators.ts'
import type { Query } from '../query/types.ts'
import { derive } from '../query/value.ts'
import type { AnySchema } from '../schema.ts'
import { readAdapter, throwRead, type RepoContext } from './context.ts'
import { preload } from './preload.ts'
import type { PreloadSpec } from './preload-spec.ts'
import { all, typedRows } from './read.ts'

/** `repo.stream`'s options. */
export interface StreamOptions<P = never> {
  /** Rows read per round trip (default 500, at most 100000). */
  readonly batchSize?: number
  /** Associations to load for each batch, as `repo.preload` takes them (rows must be whole records). */
  readonly preload?: P
}

type Row = Record<string, unknown>
const DEFAULT_BATCH = 500
const MAX_BATCH = 100_000
let cursors = 0

/** The rows of `q`, batch after batch, loaded and (with `opts.preload`) preloaded. */
export async function* stream<S extends AnySchema, R, J>(
  ctx: RepoContext,
  q: Query<S, R, J>,
  opts: StreamOptions<PreloadSpec<S>> = {},
): AsyncGenerator<R, void, undefined> {
  const size = opts.batchSize ?? DEFAULT_BATCH
  if (!Number.isSafeInteger(size) || size < 1 || size > MAX_BATCH)
    throw new Error(`repo.stream: batchSize must be a whole number from 1 to ${MAX_BATCH}, got ${String(size)}`)
  if (opts.preload !== undefined && (q.columns || q.columnsAs))
    throw new Error('repo.stream: preload needs whole records; drop the select, or preload the rows yourself')
  const tx = ctx.tx.getStore()
  const adapter = tx ? undefined : readAdapter(ctx, ctx.adapter ?? (await ctx.start()))
  const batches = tx
    ? cursorBatches(ctx, tx.conn, q, size)
    : adapter!.kind === 'pg'
      ? heldCursorBatches(ctx, adapter!, q, size)
      : keysetBatches(ctx, q, size)
  for await (const batch of batches) {
    const records = opts.preload === undefined ? batch : await preload(ctx, q.schema, batch as never, opts.preload)
    yield* records as R[]
  }
}

/** Batches through a cursor on `conn`, which is in a transaction; the cursor is closed however the loop ends. */
async function* cursorBatches<S extends AnySchema, R, J>(
  ctx: RepoContext,
  conn: Connection,
  q: Query<S, R, J>,
  size: number,
): AsyncGenerator<R[], void, undefined> {
  const { sql, params, shape } = compileSelect(q)
  const name = `vela_stream_${++cursors}`
  const table = q.schema.table
  const run = async (text: string, values: unknown[]) => {
    try {
      return (await ctx.run(conn, text, values, 'SELECT', table)).rows
    } catch (e) {
      throwRead(e)
    }
  }
  await run(`declare ${name} no scroll cursor for ${sql}`, params)
  try {
    for (;;) {
      const raw = await run(`fetch forward ${size} from ${name}`, [])
      if (raw.length === 0) return
      yield typedRows(q, raw, shape)
      if (raw.length < size) return
    }
  } finally {
    // In a transaction that failed meanwhile CLOSE fails too; ending the transaction closes it.
    await ctx.run(conn, `close ${name}`, [], 'SELECT', table).catch(() => {})
  }
}

/**
 * Batches through a cursor on a connection of its own, in a transaction held open for the loop:
 * the adapter's `transaction`, whose function waits until the loop is over. A failure while
 * reading rolls it back; otherwise it commits (it only read).
 */
async function* heldCursorBatches<S extends AnySchema, R, J>(
  ctx: RepoContext,
  adapter: Adapter,
  q: Query<S, R, J>,
  size: number,
): AsyncGenerator<R[], void, undefined> {
  let end!: (error?: unknown) => void
  const over = new Promise<void>((resolve, reject) => (end = (...e) => (e.length ? reject(e[0]) : resolve())))
  let opened!: (conn: Connection) => void
  const conn = new Promise<Connection>((resolve) => (opened = resolve))
  const done = adapter.transaction(async (c) => {
    opened(c)
    await over
  })
  // Whichever settles first: the connection, or the failure to get one.
  const c = await Promise.race([conn, done.then(() => conn)])
  let failed = false
  try {
    yield* cursorBatches(ctx, c, q, size)
  } catch (e) {
    failed = true
    end(e)
    throw e
  } finally {
    if (!failed) end()
    // A failure's own error is what the caller sees, not the rollback's rethrow of it.
    await done.catch((e) => {
      if (!failed) throw e
    })
  }
}

/** Batches by keyset, each its own statement (PGlite outside a transaction). */
async function* keysetBatches<S extends AnySchema, R, J>(
  ctx: RepoContext,
  q: Query<S, R, J>,
  size: number,
): AsyncGenerator<R[], void, undefined> {
  const ks = keysetOf(q, 'repo.stream on PGlite (outside repo.transaction)', true)
  const ordered = derive(q)
  ordered.order = ks.order
  // The query's own limit bounds the whole stream, its offset the first batch only.
  let left = q.maxRows ?? Number.POSITIVE_INFINITY
  const rest = derive(ordered)
  rest.skipRows = undefined
  let page = ordered as unknown as Query<S, R, J>
  while (left > 0) {
    const n = Math.min(size, left)
    const rows = await all(ctx, limit(page, n))
    if (rows.length) yield rows
    if (rows.length < n) return
    left -= n
    page = where(rest as unknown as Query<S, R, J>, afterCond(ks, keyOf(ks, rows[n - 1] as Row)) as never)
  }
}
