/**
 * Joins, grouping and row locks for queries (builder.ts): `join` / `leftJoin` through declared
 * associations, `groupBy` / `having`, `distinct`, `distinctOn`, `lock`. Each returns a new query.
 *
 * A join follows an association: belongsTo joins the related table on its primary key = our
 * foreign key, hasOne / hasMany on its foreign key = our primary key, manyToMany through its join
 * table (two joins). Joined fields are then named by path (`'customer.name'`). Joining a nested
 * path (`'work_orders.line_items'`) joins the paths leading to it too, the same way, unless they
 * are joined already.
 */
import type { Aggregate } from './aggregate.ts'
import { checkAggregateIn, checkRef } from './operators.ts'
import { joinAt, resolveJoinPath, type AssocPath, type JoinedBy, type JoinSpec, type Ref } from './paths.ts'
import type { AggregateOf, CompareOp, LockMode, LockOptions, Query, QueryParts } from './types.ts'
import { derive, deriveExtras } from './value.ts'
import type { AnySchema } from '../schema.ts'

function addJoin(q: QueryParts, path: unknown, kind: 'inner' | 'left'): QueryParts {
  if (typeof path !== 'string' || path === '')
    throw new Error(`join: ${JSON.stringify(path)} is not an association path`)
  let joins = q.joins
  // Each prefix of the path in turn (`a`, `a.b`, …), joined once.
  for (let end = path.indexOf('.'); ; end = path.indexOf('.', end + 1)) {
    const last = end < 0
    const p = last ? path : path.slice(0, end)
    const existing = joinAt(joins, p)
    if (existing) {
      if (last && existing.kind !== kind)
        throw new Error(`join ${path}: already joined as ${existing.kind === 'left' ? 'leftJoin' : 'join'}`)
    } else {
      const { assoc, through } = resolveJoinPath(q.schema, joins, p)
      const spec: JoinSpec = { path: p, kind, assoc, through }
      joins = [...joins, spec]
    }
    if (last) break
  }
  const n = derive(q)
  n.joins = joins
  return n
}

/**
 * INNER JOIN through association path `path`: rows without a match are left out. Name the joined
 * fields by path afterwards (`q.where('customer.tier', '=', 'pro')`, `q.select(['customer.name'])`).
 *
 * @example
 * const q = from(WorkOrder).join('customer').where('customer.tier', '=', 'pro')
 * await repo.all(q.select(['id', 'title', 'customer.name']))   // [{ id, title, customer: { name } }]
 */
export function join<S extends AnySchema, R, J, const P extends AssocPath<S>>(
  q: Query<S, R, J>,
  path: P,
): Query<S, R, J & JoinedBy<S, J, P, false>> {
  return addJoin(q, path, 'inner') as unknown as Query<S, R, J & JoinedBy<S, J, P, false>>
}

/**
 * LEFT JOIN through association path `path`: rows without a match are kept, their joined fields null.
 *
 * @example
 * // every customer, with the number of its work orders (0 for none)
 * from(Customer).leftJoin('work_orders').groupBy(['id']).select({ id: 'id', orders: count('work_orders.id') })
 */
export function leftJoin<S extends AnySchema, R, J, const P extends AssocPath<S>>(
  q: Query<S, R, J>,
  path: P,
): Query<S, R, J & JoinedBy<S, J, P, true>> {
  return addJoin(q, path, 'left') as unknown as Query<S, R, J & JoinedBy<S, J, P, true>>
}

/**
 * GROUP BY these fields: one row per distinct combination; select them and aggregates.
 *
 * @example
 * from(WorkOrder).groupBy(['status']).select({ status: 'status', n: count() })
 */
export function groupBy<S extends AnySchema, R, J>(q: Query<S, R, J>, fields: readonly Ref<S, J>[]): Query<S, R, J> {
  if (!Array.isArray(fields) || fields.length === 0) throw new Error('groupBy: give at least one field')
  for (const f of fields) checkRef(q, f)
  const n = derive(q)
  n.groups = [...q.groups, ...fields]
  return n as unknown as Query<S, R, J>
}

const compareOps: ReadonlySet<string> = new Set<CompareOp>(['=', '!=', '<>', '<', '<=', '>', '>='])

/**
 * HAVING: keeps the groups whose aggregate compares so with `value` (AND-ed with earlier ones).
 *
 * @example
 * from(WorkOrder).groupBy(['customer_id']).having(count(), '>', 1)   // customers with several orders
 */
export function having<S extends AnySchema, R, J>(
  q: Query<S, R, J>,
  aggregate: AggregateOf<S, J> | Aggregate<'count', never>,
  op: CompareOp,
  value: number,
): Query<S, R, J> {
  checkAggregateIn(q, aggregate)
  if (!compareOps.has(op)) throw new Error(`having: unknown operator ${JSON.stringify(op)}`)
  if (typeof value !== 'number' || !Number.isFinite(value))
    throw new Error(`having: the value must be a finite number, got ${String(value)}`)
  const n = derive(q)
  n.havings = [...q.havings, { aggregate, op, value }]
  return n as unknown as Query<S, R, J>
}

/**
 * SELECT DISTINCT: duplicate rows come back once.
 *
 * @example
 * await repo.all(from(WorkOrder).select(['status']).distinct())   // [{ status: 'done' }, { status: 'open' }]
 */
export function distinct<S extends AnySchema, R, J>(q: Query<S, R, J>): Query<S, R, J> {
  const n = derive(q)
  n.isDistinct = true
  return n as unknown as Query<S, R, J>
}

/**
 * SELECT DISTINCT ON (PostgreSQL): one row per distinct combination of `fields`, the first of each
 * by the query's `orderBy`, which must start with the same fields (PostgreSQL refuses the query
 * otherwise).
 *
 * @example
 * // each customer's latest work order
 * await repo.all(from(WorkOrder).distinctOn(['customer_id']).orderBy('customer_id', ['id', 'desc']))
 */
export function distinctOn<S extends AnySchema, R, J>(q: Query<S, R, J>, fields: readonly Ref<S, J>[]): Query<S, R, J> {
  if (!Array.isArray(fields) || fields.length === 0) throw new Error('distinctOn: give at least one field')
  for (const f of fields) checkRef(q, f)
  return deriveExtras(q, { distinctFields: [...fields] }) as unknown as Query<S, R, J>
}

const lockModes: ReadonlySet<string> = new Set<LockMode>([
  'for update',
  'for no key update',
  'for share',
  'for key share',
])

/**
 * Locks the rows the query reads until the transaction ends; use inside `repo.transaction`
 * (outside one, the lock ends with the statement). `skipLocked` leaves out rows another
 * transaction holds (a work queue); `noWait` fails at once instead of waiting for them.
 *
 * @example
 * await repo.transaction(async () => {
 *   const job = await repo.one(from(Job).where({ state: 'queued' }).lock('for update', { skipLocked: true }).limit(1))
 * })
 */
export function lock<S extends AnySchema, R, J>(
  q: Query<S, R, J>,
  mode: LockMode,
  opts: LockOptions = {},
): Query<S, R, J> {
  if (!lockModes.has(mode))
    throw new Error(
      `lock: unknown mode ${JSON.stringify(mode)} (for update, for no key update, for share, for key share)`,
    )
  if (opts.skipLocked && opts.noWait) throw new Error('lock: skipLocked and noWait exclude each other')
  const n = derive(q)
  n.rowLock = { mode, skipLocked: opts.skipLocked === true, noWait: opts.noWait === true }
  return n as unknown as Query<S, R, J>
}
