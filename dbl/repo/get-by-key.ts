/**
 * `repo.get` for a schema with a composite primary key: the key is an object naming every key
 * field (`{ order_id: 1, line_no: 2 }`). Anything else is a programming error and throws, since
 * guessing (a scalar for the first field, a partial key) could return a row the caller did not mean.
 */
import { and, cond } from '../query/conditions.ts'
import { from } from '../query/builder.ts'
import { compileSelect } from '../query/compile.ts'
import type { AnySchema } from '../schema.ts'
import { columnOf } from '../column-names.ts'
import { compiled, kx, loadKnex, marker, paramsFor, sqlOf, type Compiled } from '../sql.ts'
import { exec, throwRead, type RepoContext } from './context.ts'
import { loadRows } from './load-rows.ts'

const statements = new WeakMap<AnySchema, Compiled>()

/** The rows whose key is `values` (zero or one), through a statement kept per schema as `get`'s is. */
export async function rowsByCompositeKey(
  ctx: RepoContext,
  schema: AnySchema,
  values: readonly unknown[],
): Promise<Record<string, unknown>[]> {
  const keys = schema.primaryKeys
  let c = statements.get(schema)
  if (!c && schema.scopes === undefined) {
    if (!kx) await loadKnex()
    c = compiled(`get ${schema.table}`, () => {
      const b = kx(schema.table).select(sqlOf(schema).selectList)
      keys.forEach((k, i) => b.where(columnOf(schema, k), marker(i)))
      return b
    })
    statements.set(schema, c)
  }
  try {
    if (c) return loadRows(schema, (await exec(ctx, c.sql, paramsFor(c, [...values]), 'SELECT', schema.table)).rows)
    // Scoped rows are filtered as every query is: through the query compiler.
    const q = from(schema).where(and(...keys.map((k, i) => cond(k, '=', values[i]))) as never)
    const { sql, params } = compileSelect(q)
    return loadRows(schema, (await exec(ctx, sql, params, 'SELECT', schema.table)).rows)
  } catch (e) {
    throwRead(e)
  }
}
