/** `exists(query)`: whether any row matches, without reading one. */
import type { QueryParts } from '../query/types.ts'
import { derive } from '../query/value.ts'
import { compileSelect, type Statement } from '../query/compile.ts'
import { exec, throwRead, type RepoContext } from './context.ts'

/**
 * `SELECT EXISTS (<the query>)`: the query as compiled for `all` (so its statement cache and its
 * parameters), wrapped; PostgreSQL stops at the first matching row. Ordering is dropped (it cannot
 * change the answer); limit and offset are kept, so `exists(q.offset(10))` asks for an 11th row.
 */
export function compileExists(q: QueryParts): Statement {
  const plain = derive(q)
  plain.order = []
  plain.countRows = false
  const { sql, params } = compileSelect(plain)
  return { sql: `select exists (${sql}) as "exists"`, params }
}

/** Runs `compileExists(q)`: true when a row matches. */
export async function exists(ctx: RepoContext, q: QueryParts): Promise<boolean> {
  const { sql, params } = compileExists(q)
  try {
    const res = await exec(ctx, sql, params, 'SELECT', q.schema.table)
    return res.rows[0]!.exists === true
  } catch (e) {
    throwRead(e)
  }
}
