/**
 * The query methods: each operator of operators.ts and join.ts on the query's prototype, so
 * `q.where(…)` is `where(q, …)`. The types are declared on `Query` (types.ts). Each method passes
 * its arguments on one by one rather than spreading them: a query is built on every request.
 */
import { distinct, distinctOn, groupBy, having, join, leftJoin, lock } from './join.ts'
import { limit, offset, orderByTerms, select, where } from './operators.ts'
import { unscopedQuery, withDeleted } from './scoped.ts'
import { except, intersect, union, unionAll } from './set-ops.ts'
import { QueryValue } from './value.ts'

// The operators' overloads are checked on `Query`'s methods; here they are called as plain
// functions, each bound once to a constant so every method makes one direct call.
type Plain = (...args: unknown[]) => unknown
const whereOp = where as Plain
const limitOp = limit as Plain
const offsetOp = offset as Plain
const selectOp = select as Plain
const joinOp = join as Plain
const leftJoinOp = leftJoin as Plain
const groupByOp = groupBy as Plain
const havingOp = having as Plain
const distinctOp = distinct as Plain
const lockOp = lock as Plain
const distinctOnOp = distinctOn as Plain
const unionOp = union as Plain
const unionAllOp = unionAll as Plain
const intersectOp = intersect as Plain
const exceptOp = except as Plain

const methods = {
  where(this: QueryValue, a: unknown, op?: unknown, value?: unknown) {
    return whereOp(this, a, op, value)
  },
  orderBy(this: QueryValue, ...terms: unknown[]) {
    return orderByTerms(this, terms)
  },
  limit(this: QueryValue, n: number) {
    return limitOp(this, n)
  },
  offset(this: QueryValue, n: number) {
    return offsetOp(this, n)
  },
  select(this: QueryValue, spec: unknown) {
    return selectOp(this, spec)
  },
  join(this: QueryValue, path: string) {
    return joinOp(this, path)
  },
  leftJoin(this: QueryValue, path: string) {
    return leftJoinOp(this, path)
  },
  groupBy(this: QueryValue, fields: unknown) {
    return groupByOp(this, fields)
  },
  having(this: QueryValue, aggregate: unknown, op: unknown, value: unknown) {
    return havingOp(this, aggregate, op, value)
  },
  distinct(this: QueryValue) {
    return distinctOp(this)
  },
  distinctOn(this: QueryValue, fields: unknown) {
    return distinctOnOp(this, fields)
  },
  lock(this: QueryValue, mode: unknown, opts?: unknown) {
    return lockOp(this, mode, opts)
  },
  unscoped(this: QueryValue, ...names: string[]) {
    return unscopedQuery(this, names)
  },
  withDeleted(this: QueryValue) {
    return withDeleted(this)
  },
  union(this: QueryValue, other: unknown) {
    return unionOp(this, other)
  },
  unionAll(this: QueryValue, other: unknown) {
    return unionAllOp(this, other)
  },
  intersect(this: QueryValue, other: unknown) {
    return intersectOp(this, other)
  },
  except(this: QueryValue, other: unknown) {
    return exceptOp(this, other)
  },
}

for (const name of Object.keys(methods) as (keyof typeof methods)[]) {
  Object.defineProperty(QueryValue.prototype, name, { value: methods[name], writable: true, configurable: true })
}
