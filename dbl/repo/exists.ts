/** `exists(query)`: whether any row matches, without reading one. */
import type { DbError } from '../db-error.ts'
import type { Query } from '../query.ts'
import { compileSelect, type Statement } from '../query-compile.ts'
import { ok, type Result } from '../result.ts'
import type { AnySchema } from '../schema.ts'
import { exec, readFailure, type RepoContext } from './context.ts'

/**
 * `SELECT EXISTS (<the query>)`: the query as compiled for `all` (so its statement cache and its
 * parameters), wrapped; PostgreSQL stops at the first matching row. Ordering is dropped (it cannot
 * change the answer); limit and offset are kept, so `exists(offset(q, 10))` asks for an 11th row.
 */
export function compileExists(q: Query<AnySchema, unknown>): Statement {
  const { sql, params } = compileSelect({ ...q, orderBy: [], count: false })
  return { sql: `select exists (${sql}) as "exists"`, params }
}

/** Runs `compileExists(q)`: `ok(true)` when a row matches. */
export async function exists<S extends AnySchema, R>(
  ctx: RepoContext,
  q: Query<S, R>,
): Promise<Result<boolean, DbError>> {
  const { sql, params } = compileExists(q as Query<AnySchema, unknown>)
  try {
    const res = await exec(ctx, sql, params, `SELECT ${q.schema.table}`)
    return ok(res.rows[0]!.exists === true)
  } catch (e) {
    return readFailure(e)
  }
}
