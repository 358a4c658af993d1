import pg from 'pg'
import type { Adapter, Connection, QueryResult, Row } from './adapter.ts'

export interface PgAdapterOptions {
  /** `postgres://user:pass@host:port/db`; wins over the separate fields. */
  url?: string
  database?: string
  hostname?: string
  port?: number
  username?: string
  password?: string
  /** Pool size (default 10). */
  poolSize?: number
}

// Return bigint (count(*), bigserial) as numbers and NUMERIC as strings only when needed: ids are
// 'id' = BIGSERIAL in our migrations, and JS code expects numbers for them.
pg.types.setTypeParser(20, (v: string) => Number(v))
// DATE stays a 'YYYY-MM-DD' string instead of a local-midnight Date.
pg.types.setTypeParser(1082, (v: string) => v)

export function createPgAdapter(opts: PgAdapterOptions): Adapter {
  const pool = new pg.Pool(
    opts.url
      ? { connectionString: opts.url, max: opts.poolSize ?? 10 }
      : {
          host: opts.hostname ?? '127.0.0.1',
          port: opts.port ?? 5432,
          database: opts.database,
          user: opts.username,
          password: opts.password,
          max: opts.poolSize ?? 10,
        },
  )
  // An idle client losing its connection must not crash the process; the pool replaces it.
  pool.on('error', () => {})

  const run = async <R extends Row>(client: pg.Pool | pg.PoolClient, sql: string, params?: readonly unknown[]) => {
    const res = await client.query(sql, params as unknown[] | undefined)
    return { rows: res.rows as R[], rowCount: res.rowCount ?? res.rows.length } satisfies QueryResult<R>
  }
  const connectionOf = (client: pg.PoolClient): Connection => ({ query: (sql, params) => run(client, sql, params) })

  return {
    kind: 'pg',
    query: (sql, params) => run(pool, sql, params),
    async transaction(fn) {
      const client = await pool.connect()
      try {
        await client.query('BEGIN')
        const value = await fn(connectionOf(client))
        await client.query('COMMIT')
        return value
      } catch (err) {
        await client.query('ROLLBACK').catch(() => {})
        throw err
      } finally {
        client.release()
      }
    },
    async session(fn) {
      const client = await pool.connect()
      try {
        return await fn(connectionOf(client))
      } finally {
        client.release()
      }
    },
    close: () => pool.end(),
  }
}
