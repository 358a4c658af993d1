/**
 * Common table expressions: `cte(name, query)` names a query so another can select from it, as
 * from a table (`WITH name AS (…) SELECT … FROM name`). The CTE is a schema whose fields are the
 * query's output columns, so `from(cte)` takes `where`, `orderBy`, `select`, aggregates and the
 * rest, checked and typed as for any schema. A query over a CTE writes its `WITH` in front of its
 * own SELECT, wherever it stands (at the top, in a subquery, inside another CTE), so the values of
 * the CTE's query come first among the statement's parameters.
 *
 *   const busy = cte('busy', from(WorkOrder).groupBy(['customer_id']).select({ customer_id: 'customer_id', n: count() }))
 *   await repo.all(from(busy).where('n', '>', 1))
 */
import { isAggregate, type Aggregate } from './aggregate.ts'
import { resolveRef } from './paths.ts'
import type { QueryOfRows, QueryParts } from './types.ts'
import { isQuery } from './value.ts'
import { isWindow } from './window.ts'
import type { Field, FieldType, Schema } from '../schema.ts'

/** The field type whose values are `V`s (numbers, text, booleans, dates, enums, lists; anything else jsonb). */
type FieldTypeOf<V> = [V] extends [number]
  ? 'float'
  : [V] extends [boolean]
    ? 'boolean'
    : [V] extends [Date]
      ? 'utc_datetime'
      : [V] extends [string]
        ? string extends V
          ? 'text'
          : { readonly enum: readonly V[] }
        : [V] extends [readonly (infer E)[]]
          ? { readonly array: FieldTypeOf<E> }
          : 'jsonb'

/** The field definitions whose records are `R`s: how a CTE's row type becomes a schema's. */
export type FieldsOfRow<R> = {
  readonly [K in keyof R & string]: null extends R[K]
    ? { readonly type: FieldTypeOf<NonNullable<R[K]>>; readonly nullable: true }
    : { readonly type: FieldTypeOf<R[K]>; readonly nullable: false }
}

/** A named query, selectable with `from` as a table whose records are `R`s. */
export type Cte<R> = Schema<FieldsOfRow<R>, {}> // eslint-disable-line @typescript-eslint/no-empty-object-type

/** What a CTE's schema carries besides a table's: the query it names. */
interface CteParts {
  readonly '~cte': QueryParts
}

/** The query a schema names when it is a CTE, else undefined. */
export function cteQuery(schema: object): QueryParts | undefined {
  return (schema as Partial<CteParts>)['~cte']
}

function field(name: string, type: FieldType, nullable: boolean): Field {
  return {
    name,
    column: name,
    type,
    primaryKey: false,
    nullable,
    default: undefined,
    size: undefined,
    renamedFrom: undefined,
    virtual: false,
  }
}

/** The field an aggregate's output column is. */
function aggregateField(q: QueryParts, name: string, a: Aggregate): Field {
  if (a.fn === 'count') return field(name, 'integer', false)
  if (a.fn === 'sum' || a.fn === 'avg' || typeof a.arg !== 'string') return field(name, 'float', true)
  return field(name, resolveRef(q.schema, q.joins, a.arg).field.type, true)
}

/** The fields of a query's output columns, in order. */
function outputFields(q: QueryParts, name: string): Field[] {
  if (q.columnsAs) {
    return Object.entries(q.columnsAs).map(([out, v]) => {
      // The query reads each value back under its output name: that is the CTE's column.
      if (typeof v === 'string')
        return { ...resolveRef(q.schema, q.joins, v).field, name: out, column: out, primaryKey: false }
      if (isAggregate(v)) return aggregateField(q, out, v)
      if (isWindow(v)) return typeof v.fn === 'string' ? field(out, 'integer', false) : aggregateField(q, out, v.fn)
      // An expression (a `sql` fragment): values pass to the driver as they are.
      return field(out, 'text', true)
    })
  }
  if (q.columns) {
    return q.columns.map((ref) => {
      if (ref.indexOf('.') >= 0)
        throw new Error(
          `cte ${name}: select joined fields with select's object form (select({ name: '${ref}' })), so each column has a name`,
        )
      return { ...resolveRef(q.schema, q.joins, ref).field, column: ref, primaryKey: false }
    })
  }
  return q.schema.fields.filter((f) => !f.virtual).map((f) => ({ ...f, column: f.name, primaryKey: false }))
}

/**
 * Names `query` as a common table expression: `from(cte(…))` selects from it as from a table
 * (`WITH "name" AS (…) SELECT … FROM "name"`), its fields being the query's output columns, typed
 * by its row type. `name` must be letters, digits and `_`.
 *
 * @example
 * const totals = cte('totals', from(LineItem).groupBy(['work_order_id']).select({ work_order_id: 'work_order_id', total: sum('quantity') }))
 * await repo.all(from(totals).where('total', '>', 2).orderBy(['total', 'desc']))   // { work_order_id: number; total: number | null }[]
 */
export function cte<R>(name: string, query: QueryOfRows<R>): Cte<R> {
  if (typeof name !== 'string' || !/^[A-Za-z_][A-Za-z0-9_]*$/.test(name))
    throw new Error(`cte: the name ${JSON.stringify(name)} must be letters, digits and _`)
  if (!isQuery(query)) throw new Error(`cte ${name}: give a query (from(…))`)
  if (query.countRows) throw new Error(`cte ${name}: count the rows of a query over the CTE instead`)
  if (query.rowLock) throw new Error(`cte ${name}: a CTE cannot lock rows; lock in the query over it`)
  const fields = outputFields(query, name)
  const fieldsByName: Record<string, Field> = {}
  for (const f of fields) fieldsByName[f.name] = f
  const schema: Schema & CteParts = {
    kind: 'vela.schema',
    table: name,
    primaryKey: '',
    primaryKeys: [],
    fields,
    fieldsByName,
    columnNames: undefined,
    associations: {},
    indexes: [],
    checks: [],
    embedded: false,
    // A CTE is read as its query made it: the query applied its schema's scopes already.
    softDelete: undefined,
    scopes: undefined,
    // Never written: a CTE has no table.
    lifecycle: undefined,
    '~cte': query,
  }
  return schema as unknown as Cte<R>
}
