/**
 * Leaving a schema's default scopes (soft delete, a tenant filter: dbl/scopes.ts) out of one
 * query. The scopes themselves are added when the query is compiled (compile.ts), so a query
 * built before a request's tenant is known still filters by it when it runs.
 */
import type { Query, QueryParts } from './types.ts'
import type { AnySchema } from '../schema.ts'
import { derive, deriveExtras } from './value.ts'

const SOFT_DELETE = 'softDelete'

/**
 * `q` without the schema's default scopes: every one when no name is given, else the named ones
 * (added to those already left out). An unknown name throws: a typo would leave the filter on.
 *
 * @example
 * await repo.all(unscoped(from(Product)))             // every tenant's rows, deleted ones too
 * await repo.all(unscoped(from(Product), ['tenant']))  // every tenant's, deleted ones still left out
 */
export function unscoped<S extends AnySchema, R, J>(q: Query<S, R, J>, names?: readonly string[]): Query<S, R, J> {
  return unscopedQuery(q, names ?? []) as Query<S, R, J>
}

/** `unscoped` on the query's parts: no names = every scope. */
export function unscopedQuery(q: QueryParts, names: readonly string[]): QueryParts {
  if (names.length === 0) return deriveExtras(q, { skipScopes: true })
  for (const name of names) {
    if (typeof name !== 'string' || !Object.hasOwn(q.schema.scopes ?? {}, name)) {
      const known = Object.keys(q.schema.scopes ?? {})
      throw new Error(
        `unscoped(${JSON.stringify(name)}): schema ${q.schema.table} has no such scope (${known.length ? `its scopes: ${known.join(', ')}` : 'it has none'})`,
      )
    }
  }
  const skipped = q.extras?.skipScopes
  return skipped === true ? derive(q) : deriveExtras(q, { skipScopes: [...(skipped ?? []), ...names] })
}

/**
 * `q` keeping soft-deleted rows (`unscoped(q, ['softDelete'])`); throws for a schema without `softDelete`.
 *
 * @example
 * const history = await repo.all(withDeleted(from(Post)).orderBy('id'))
 */
export function withDeleted<S extends AnySchema, R, J>(q: Query<S, R, J>): Query<S, R, J>
export function withDeleted(q: QueryParts): QueryParts
export function withDeleted(q: QueryParts): QueryParts {
  if (q.schema.softDelete === undefined) throw new Error(`withDeleted: schema ${q.schema.table} has no softDelete`)
  return unscopedQuery(q, [SOFT_DELETE])
}
