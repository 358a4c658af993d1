/**
 * The query methods: each operator of operators.ts and join.ts on the query's prototype, so
 * `q.where(…)` is `where(q, …)`. The types are declared on `Query` (builder.ts). Each method passes
 * its arguments on one by one rather than spreading them: a query is built on every request.
 */
import { distinct, groupBy, having, join, leftJoin, lock } from './join.ts'
import { limit, offset, orderByTerms, select, where } from './operators.ts'
import { QueryValue } from './value.ts'

// The operators' overloads are checked on `Query`'s methods; here they are called as plain functions.
type Plain = (...args: unknown[]) => unknown
const call = (f: unknown) => f as Plain

const methods = {
  where(this: QueryValue, a: unknown, op?: unknown, value?: unknown) {
    return call(where)(this, a, op, value)
  },
  orderBy(this: QueryValue, ...terms: unknown[]) {
    return orderByTerms(this, terms)
  },
  limit(this: QueryValue, n: number) {
    return call(limit)(this, n)
  },
  offset(this: QueryValue, n: number) {
    return call(offset)(this, n)
  },
  select(this: QueryValue, spec: unknown) {
    return call(select)(this, spec)
  },
  join(this: QueryValue, path: string) {
    return call(join)(this, path)
  },
  leftJoin(this: QueryValue, path: string) {
    return call(leftJoin)(this, path)
  },
  groupBy(this: QueryValue, fields: unknown) {
    return call(groupBy)(this, fields)
  },
  having(this: QueryValue, aggregate: unknown, op: unknown, value: unknown) {
    return call(having)(this, aggregate, op, value)
  },
  distinct(this: QueryValue) {
    return call(distinct)(this)
  },
  lock(this: QueryValue, mode: unknown, opts?: unknown) {
    return call(lock)(this, mode, opts)
  },
}

for (const name of Object.keys(methods) as (keyof typeof methods)[]) {
  Object.defineProperty(QueryValue.prototype, name, { value: methods[name], writable: true, configurable: true })
}
