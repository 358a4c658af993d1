/**
 * The types of queries, apart from the code that builds them: `Query` and its parts, the
 * conditions `where` takes, sort terms and the rows `select` gives. Every module of the query
 * builder imports them from here and this module imports none of those, so the types never tie the
 * modules into an import cycle (builder.ts loads methods.ts, which loads the operators).
 */
import type { Aggregate } from './aggregate.ts'
import type { Sql } from './fragment.ts'
import type { RankFn, Window } from './window.ts'
import type { AssocPath, JoinedBy, Joins, JoinSpec, NestedRow, NumericRef, Ref, ValueAt } from './paths.ts'
import type { AnySchema, RecordOf } from '../schema.ts'

/** A row lock: PostgreSQL's `FOR UPDATE | FOR NO KEY UPDATE | FOR SHARE | FOR KEY SHARE`. */
export type LockMode = 'for update' | 'for no key update' | 'for share' | 'for key share'
/** `skipLocked`: rows another transaction locked are left out; `noWait`: such a row fails the query at once (SQLSTATE 55P03) instead of waiting. */
export interface LockOptions {
  readonly skipLocked?: boolean
  readonly noWait?: boolean
}

/** A `having` condition: an aggregate compared with a number. */
export interface HavingCond {
  readonly aggregate: Aggregate
  readonly op: CompareOp
  readonly value: number
}

/** What a query holds: the parts of its SELECT. */
export interface QueryParts<S extends AnySchema = AnySchema> {
  readonly kind: 'vela.query'
  readonly schema: S
  /** INNER / LEFT joins through associations, parents before children. */
  readonly joins: readonly JoinSpec[]
  /** The `where` conditions, AND-ed together. */
  readonly conds: readonly Cond[]
  /** `[reference, direction]`; a reference may also be an output name of the object form of `select`, or a `sql` fragment. */
  readonly order: readonly (readonly [string | Sql, Direction])[]
  /** `limit`; undefined = none. */
  readonly maxRows: number | undefined
  /** `offset`; undefined = none. */
  readonly skipRows: number | undefined
  /** Selected field references, list form (joined ones come back nested); undefined = every field of the schema. */
  readonly columns: readonly string[] | undefined
  /** Selected fields, aggregates and window functions by output name, object form (rows come back flat). */
  readonly columnsAs: Readonly<Record<string, string | Aggregate | Window | Sql>> | undefined
  readonly groups: readonly string[]
  /** The `having` conditions, AND-ed together. */
  readonly havings: readonly HavingCond[]
  readonly isDistinct: boolean
  readonly rowLock: { readonly mode: LockMode; readonly skipLocked: boolean; readonly noWait: boolean } | undefined
  /** The rows are counted (`repo.count`): one `{ count }` row. */
  readonly countRows: boolean
  /** Whether a condition holds a subquery: columns are then qualified by their table. */
  readonly subqueries: boolean
  /**
   * The clauses most queries never use, in one part so that every query built (most of them on
   * every request) copies one field for them, not one each; undefined = none of them.
   */
  readonly extras: QueryExtras | undefined
}

/** The rarely used clauses of a query (`QueryParts.extras`). */
export interface QueryExtras {
  /** The schema's default scopes this query leaves out: all (`true`) or these names; undefined = none. */
  readonly skipScopes?: true | readonly string[]
  /** Queries combined with this one (`union`, `intersect`, `except`), in order; its order, limit and offset then apply to the whole. */
  readonly setOps?: readonly SetOp[]
  /** Whether the object form of `select` holds a `sql` fragment (whose values the walk must push). */
  readonly selectsFragment?: boolean
  /** `DISTINCT ON (…)` (PostgreSQL): one row per distinct combination of these fields, the first by `orderBy`. */
  readonly distinctFields?: readonly string[]
}

/** How `union` and its kin combine two queries' rows. */
export type SetOpKind = 'union' | 'union all' | 'intersect' | 'except'
/** One query combined with the ones before it. */
export interface SetOp {
  readonly op: SetOpKind
  readonly query: QueryParts
}

/**
 * Rows with the columns of `R`, each of any type: what `union` and its kin take from the other
 * query (a column null on one side only is fine; the combined rows' type is the union).
 */
export type SameColumns<R> = { readonly [K in keyof R]: unknown }

/** A query whose rows are `R`s, whatever its schema: what `union` and its kin take. */
export type QueryOfRows<R> = Query<any, R, any> // eslint-disable-line @typescript-eslint/no-explicit-any

/**
 * A SELECT over a schema, and what it joined. `R` is the row type the repository gives back; `J`
 * (type level only) the joined association paths, so joined fields can be named and typed. Every
 * method returns a new query; the free functions of the same names do the same.
 */
export interface Query<S extends AnySchema = AnySchema, R = RecordOf<S>, J = unknown> extends QueryParts<S> {
  /** Phantom: the row type the repository returns for this query. */
  readonly '~row'?: R
  /** Phantom: the joined paths. */
  readonly '~joins'?: J

  /**
   * Adds a condition (AND-ed with earlier ones): `field, op, value`, an equality map, or a
   * `cond` / `and` / `or` / `not` / `exists`. See `where`.
   *
   * @example
   * from(Product).where('price', '>', 100).where({ description: null })
   */
  where<K extends Ref<S, J>>(field: K, op: CompareOp, value: NonNullable<ValueAt<S, J, K>>): Query<S, R, J>
  where<K extends Ref<S, J>>(
    field: K,
    op: InOp,
    value: readonly NonNullable<ValueAt<S, J, K>>[] | Subquery<NonNullable<ValueAt<S, J, K>>>,
  ): Query<S, R, J>
  where<K extends Ref<S, J>>(field: K, op: LikeOp, pattern: string | LikeText): Query<S, R, J>
  where<K extends Ref<S, J>>(field: K, op: NullOp): Query<S, R, J>
  where(clauses: Clauses<S, J> | Cond<Ref<S, J>>): Query<S, R, J>
  /**
   * Appends sort terms: `'name'`, `['name', 'desc']`, or lists of them. See `orderBy`.
   *
   * @example
   * from(Product).orderBy(['price', 'desc'], 'name')
   */
  orderBy(
    ...terms: (
      | OrderTerm<Ref<S, J> | (keyof R & string) | SqlOf<S, J>>
      | readonly OrderTerm<Ref<S, J> | (keyof R & string) | SqlOf<S, J>>[]
    )[]
  ): Query<S, R, J>
  /**
   * At most `n` rows.
   *
   * @example
   * from(Product).orderBy('id').limit(20)
   */
  limit(n: number): Query<S, R, J>
  /**
   * Skips the first `n` rows.
   *
   * @example
   * from(Product).orderBy('id').limit(20).offset(40)   // the third page of 20
   */
  offset(n: number): Query<S, R, J>
  /**
   * Only these columns: a list of field references (joined ones nested in the rows), or
   * `{ outputName: field | aggregate }` (rows flat). See `select`.
   *
   * @example
   * from(WorkOrder).join('customer').select(['id', 'customer.name'])   // rows { id, customer: { name } }
   * from(LineItem).select({ n: count(), avg: avg('quantity') })
   */
  select<const K extends Ref<S, J>>(fields: readonly K[]): Query<S, Simplify<NestedRow<S, J, K>>, J>
  select<const M extends Record<string, Ref<S, J> | AggregateOf<S, J> | CountAll | WindowOf<S, J> | SqlOf<S, J>>>(
    columns: M,
  ): Query<S, SelectedRow<S, J, M>, J>
  /**
   * INNER JOIN through an association path; name joined fields by path afterwards. See `join`.
   *
   * @example
   * from(WorkOrder).join('customer').where('customer.tier', '=', 'pro')
   */
  join<const P extends AssocPath<S>>(path: P): Query<S, R, J & JoinedBy<S, J, P, false>>
  /**
   * LEFT JOIN through an association path: rows without a match are kept. See `leftJoin`.
   *
   * @example
   * from(Customer).leftJoin('work_orders').groupBy(['id']).select({ id: 'id', orders: count('work_orders.id') })
   */
  leftJoin<const P extends AssocPath<S>>(path: P): Query<S, R, J & JoinedBy<S, J, P, true>>
  /**
   * GROUP BY these fields. See `groupBy`.
   *
   * @example
   * from(WorkOrder).groupBy(['status']).select({ status: 'status', n: count() })
   */
  groupBy(fields: readonly Ref<S, J>[]): Query<S, R, J>
  /**
   * HAVING: keeps the groups whose aggregate compares so with `value`. See `having`.
   *
   * @example
   * from(WorkOrder).groupBy(['customer_id']).having(count(), '>', 1)
   */
  having(aggregate: AggregateOf<S, J> | CountAll, op: CompareOp, value: number): Query<S, R, J>
  /**
   * SELECT DISTINCT. See `distinct`.
   *
   * @example
   * from(WorkOrder).select(['status']).distinct()
   */
  distinct(): Query<S, R, J>
  /**
   * SELECT DISTINCT ON (PostgreSQL): the first row by `orderBy` of each combination of `fields`. See `distinctOn`.
   *
   * @example
   * from(WorkOrder).distinctOn(['customer_id']).orderBy('customer_id', ['id', 'desc'])
   */
  distinctOn(fields: readonly Ref<S, J>[]): Query<S, R, J>
  /**
   * Locks the rows read until the transaction ends. See `lock`.
   *
   * @example
   * from(Job).where({ state: 'queued' }).lock('for update', { skipLocked: true }).limit(1)
   */
  lock(mode: LockMode, opts?: LockOptions): Query<S, R, J>
  /**
   * Leaves the schema's default scopes out: all of them, or the named ones. See `unscoped`.
   *
   * @example
   * from(Product).unscoped()            // every row, deleted and every tenant's
   * from(Product).unscoped('tenant')    // every tenant's rows, deleted ones still left out
   */
  unscoped(...names: string[]): Query<S, R, J>
  /**
   * Keeps soft-deleted rows (`unscoped('softDelete')`). See `withDeleted`.
   *
   * @example
   * const all = await repo.all(from(Post).withDeleted())
   */
  withDeleted(): Query<S, R, J>
  /**
   * UNION: this query's rows and `other`'s, duplicates once. See `union`.
   *
   * @example
   * from(Customer).select(['name']).union(from(Label).select(['name'])).orderBy('name')
   */
  union<R2 extends SameColumns<R>>(other: QueryOfRows<R2>): Query<S, R | R2, J>
  /**
   * UNION ALL: this query's rows, then `other`'s, duplicates kept. See `unionAll`.
   *
   * @example
   * from(Customer).select(['name']).unionAll(from(Label).select(['name']))
   */
  unionAll<R2 extends SameColumns<R>>(other: QueryOfRows<R2>): Query<S, R | R2, J>
  /**
   * INTERSECT: the rows both queries give. See `intersect`.
   *
   * @example
   * from(Customer).select(['id']).intersect(from(WorkOrder).select({ id: 'customer_id' }))
   */
  intersect<R2 extends SameColumns<R>>(other: QueryOfRows<R2>): Query<S, R, J>
  /**
   * EXCEPT: this query's rows that `other` does not give. See `except`.
   *
   * @example
   * from(Customer).select(['id']).except(from(WorkOrder).select({ id: 'customer_id' }))
   */
  except<R2 extends SameColumns<R>>(other: QueryOfRows<R2>): Query<S, R, J>
}

/** Comparison operators of `where` and `having`. */
export type CompareOp = '=' | '!=' | '<>' | '<' | '<=' | '>' | '>='
export type LikeOp = 'like' | 'not like' | 'ilike' | 'not ilike'
export type InOp = 'in' | 'not in'
export type NullOp = 'is null' | 'is not null'
/** Every operator `where` / `cond` take. */
export type Op = CompareOp | LikeOp | InOp | NullOp

/** Literal text for a LIKE operator: every character matches itself. */
export type LikeText = { readonly contains: string } | { readonly startsWith: string } | { readonly endsWith: string }

/**
 * A condition `where`, `and`, `or` and `not` take, as `cond` and `exists` build it. `F` is the
 * set of field references it uses, so `where` can check them against the query's type. `exists` holds a subquery (`correlate`: [outer field, inner field] made equal); the
 * value of `in` / `not in` may be a one-column subquery.
 */
export type Cond<F extends string = string> =
  | { readonly '~cond': 'op'; readonly field: F; readonly op: Op; readonly value: unknown }
  | { readonly '~cond': 'and' | 'or'; readonly conds: readonly Cond<F>[] }
  | { readonly '~cond': 'not'; readonly cond: Cond<F> }
  | Sql<unknown, F>
  | {
      readonly '~cond': 'between'
      readonly field: F
      readonly low: unknown
      readonly high: unknown
      readonly negated: boolean
    }
  | {
      readonly '~cond': 'exists'
      readonly query: Query<AnySchema, unknown, Joins>
      readonly correlate: readonly [F, string] | undefined
    }

/** Equality map: a value means `=`, `null` means IS NULL, a list means IN. Keys are fields or joined paths (`'customer.tier'`). */
export type Clauses<S extends AnySchema, J = unknown> = {
  readonly [K in Ref<S, J>]?: ValueAt<S, J, K> | readonly NonNullable<ValueAt<S, J, K>>[] | null
}

/** A one-column subquery whose values are `V`s: the value `in` / `not in` may take. */
export type Subquery<V> = Query<any, { readonly [column: string]: V | null }, any> // eslint-disable-line @typescript-eslint/no-explicit-any

/** Sort direction of an `orderBy` term. */
export type Direction = 'asc' | 'desc'
/** A sort term: a reference (or a `sql` fragment), ascending, or with its direction. */
export type OrderTerm<F> = F | readonly [F, Direction]

/** Which aggregates a query may compute: `sum` / `avg` and arithmetic over numeric fields, `count`, `min`, `max` over any. */
export type AggregateOf<S, J> =
  | Aggregate<'count', Ref<S, J>>
  | Aggregate<'sum' | 'avg', NumericRef<S, J>>
  | Aggregate<'min' | 'max', Ref<S, J>>

/** Which window functions a query may compute: rankings, and its aggregates over a window, over its fields. */
export type WindowOf<S, J> = Window<RankFn | AggregateOf<S, J> | CountAll, Ref<S, J>>

/** A `sql` fragment over a query's fields. */
export type SqlOf<S, J> = Sql<unknown, Ref<S, J>>

/** The value an aggregate gives in a row. */
export type AggregateValue<S, J, A> =
  A extends Aggregate<'count', infer _F>
    ? number
    : A extends Aggregate<'sum' | 'avg', infer _F>
      ? number | null
      : A extends Aggregate<'min' | 'max', infer F>
        ? (string extends F ? number : F extends Ref<S, J> ? NonNullable<ValueAt<S, J, F>> : number) | null
        : never

export type Simplify<T> = { [K in keyof T]: T[K] } & {}

/** The row of `select`'s object form. */
export type SelectedRow<S, J, M> = Simplify<{
  readonly [K in keyof M]: M[K] extends Aggregate
    ? AggregateValue<S, J, M[K]>
    : M[K] extends Sql<infer T>
      ? T
      : M[K] extends Window<infer A>
        ? A extends Aggregate
          ? AggregateValue<S, J, A>
          : number
        : M[K] extends string
          ? ValueAt<S, J, M[K]>
          : never
}>

/** A `count()` that has no field, so it matches any query. */
export type CountAll = Aggregate<'count', never>
