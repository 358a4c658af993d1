/**
 * Field paths over joined associations: `'customer.name'` is field `name` of the schema that
 * association path `customer` leads to. The types say which paths a query may name (its own
 * fields, and the fields of what it joined) and what value each has; `resolveRef` does the same
 * when the query is built, so a wrong path throws there too.
 *
 * **Choice:** association paths go at most three associations deep (`'a.b.c'`): deeper template
 * literal types slow editors down for every query, and a query that deep is rare.
 */
import { resolveAssoc, type ResolvedAssoc } from '../assoc.ts'
import type { AnySchema, Association, AssociationsOf, Field, JoinThrough, RecordOf } from '../schema.ts'

type AssocName<S> = keyof AssociationsOf<S> & string
/** The schema association `K` of `S` leads to. */
export type RelatedOf<S, K> =
  AssociationsOf<S>[K & keyof AssociationsOf<S>] extends Association<infer _K, infer T> ? T : never

type Prev = [never, 0, 1, 2]
/** Association paths from `S`: `'customer'`, `'work_orders.line_items'`, up to `D` associations deep. */
export type AssocPath<S, D extends number = 3> = [D] extends [never]
  ? never
  : { [A in AssocName<S>]: A | `${A}.${AssocPath<RelatedOf<S, A>, Prev[D]>}` }[AssocName<S>]

/** The schema at the end of association path `P` from `S`. */
export type SchemaAt<S, P extends string> = P extends `${infer A}.${infer Rest}`
  ? SchemaAt<RelatedOf<S, A>, Rest>
  : RelatedOf<S, P>

/** What a query joined at one path: the schema there, and whether the join keeps rows without a match (LEFT). */
export interface Joined<T = AnySchema, L extends boolean = boolean> {
  readonly schema: T
  readonly left: L
}
/** A query's joined paths (type level only). */
export type Joins = { readonly [path: string]: Joined }

type Prefixes<P extends string, Acc extends string = ''> = P extends `${infer H}.${infer T}`
  ? `${Acc}${H}` | Prefixes<T, `${Acc}${H}.`>
  : `${Acc}${P}`
/** The paths `join(q, P)` adds: `P` and each path leading to it, unless already joined. */
export type JoinedBy<S, J, P extends string, L extends boolean> = {
  readonly [K in Exclude<Prefixes<P>, keyof J>]: Joined<SchemaAt<S, K>, L>
}

type FieldOf<S> = keyof RecordOf<S> & string
/** A field a query may name: one of its own, or `'<joined path>.<field there>'`. */
export type Ref<S, J> =
  | FieldOf<S>
  | { [P in keyof J & string]: J[P] extends Joined<infer T> ? `${P}.${FieldOf<T>}` : never }[keyof J & string]

/** The value field reference `F` has in a row (a field reached through a LEFT JOIN may be null). */
export type ValueAt<S, J, F extends string> =
  F extends FieldOf<S>
    ? RecordOf<S>[F]
    : {
        [P in keyof J & string]: F extends `${P}.${infer X}`
          ? J[P] extends Joined<infer T, infer L>
            ? X extends FieldOf<T>
              ? RecordOf<T>[X] | (L extends true ? null : never)
              : never
            : never
          : never
      }[keyof J & string]

// A cut association (AnySchema) has any field, of unknown type: let it through.
type NumericField<S> =
  string extends FieldOf<S>
    ? string
    : { [K in FieldOf<S>]: NonNullable<RecordOf<S>[K]> extends number ? K : never }[FieldOf<S>]
/** The references whose values are numbers: what `sum` and `avg` take. */
export type NumericRef<S, J> =
  | NumericField<S>
  | { [P in keyof J & string]: J[P] extends Joined<infer T> ? `${P}.${NumericField<T>}` : never }[keyof J & string]

type First<K extends string> = K extends `${infer H}.${string}` ? H : K
type Rest<K extends string, H extends string> = K extends `${H}.${infer T}` ? T : never
/** The row `select(q, [...refs])` gives: own fields at the top, joined ones nested by path (`{ customer: { name } }`). */
export type NestedRow<S, J, K extends string, Pre extends string = ''> = {
  readonly [H in First<K>]: H extends K ? ValueAt<S, J, `${Pre}${H}`> : NestedRow<S, J, Rest<K, H>, `${Pre}${H}.`>
}

/** One join of a query: the association path, INNER or LEFT, and the association it follows. */
export interface JoinSpec {
  readonly path: string
  readonly kind: 'inner' | 'left'
  /** The association from the schema at the parent path (the query's own schema for a top-level path). */
  readonly assoc: ResolvedAssoc
  /** manyToMany: the join table the join goes through (two joins). */
  readonly through: JoinThrough | undefined
}

/** A field reference resolved: the join path it is read through (undefined: the query's own table) and the field. */
export interface ResolvedRef {
  readonly path: string | undefined
  readonly field: Field
}

/** Resolves a join path against `schema` and the joins made so far; throws for an unknown association. */
export function resolveJoinPath(
  schema: AnySchema,
  joins: readonly JoinSpec[],
  path: string,
): { assoc: ResolvedAssoc; through: JoinThrough | undefined } {
  const dot = path.lastIndexOf('.')
  const parent = dot < 0 ? undefined : path.slice(0, dot)
  const owner = parent === undefined ? schema : joinAt(joins, parent)?.assoc.related
  if (!owner) throw new Error(`join ${path}: ${parent} is not joined`)
  const name = path.slice(dot + 1)
  if (!Object.hasOwn(owner.associations, name))
    throw new Error(`join ${path}: schema ${owner.table} has no association "${name}"`)
  // A manyToMany association carries its join table (`through`): joined in two steps.
  const assoc = resolveAssoc(owner, name)
  return { assoc, through: assoc.through }
}

/**
 * The join of `joins` at `path`, if any. A loop rather than `find`: it runs for every joined
 * reference of every query built, and a callback per call costs more than the search.
 */
export function joinAt(joins: readonly JoinSpec[], path: string): JoinSpec | undefined {
  for (let i = 0; i < joins.length; i++) if (joins[i]!.path === path) return joins[i]
  return undefined
}

/** Resolves `ref` (`'title'` or `'customer.name'`) against a query's schema and joins; throws for anything else. */
export function resolveRef(schema: AnySchema, joins: readonly JoinSpec[], ref: unknown): ResolvedRef {
  const found = findRef(schema, joins, ref)
  // A virtual field is cast and validated but never stored: no query can name it.
  if (found.field.virtual)
    throw new Error(`field ${JSON.stringify(ref)} is virtual (never stored), so a query cannot use it`)
  return found
}

function findRef(schema: AnySchema, joins: readonly JoinSpec[], ref: unknown): ResolvedRef {
  if (typeof ref === 'string') {
    const dot = ref.lastIndexOf('.')
    if (dot < 0) {
      if (Object.hasOwn(schema.fieldsByName, ref)) return { path: undefined, field: schema.fieldsByName[ref]! }
    } else {
      const path = ref.slice(0, dot)
      const name = ref.slice(dot + 1)
      const join = joinAt(joins, path)
      if (!join) throw new Error(`field ${ref}: join '${path}' first (join or leftJoin)`)
      const related = join.assoc.related
      if (Object.hasOwn(related.fieldsByName, name)) return { path, field: related.fieldsByName[name]! }
      throw new Error(`field ${ref}: schema ${related.table} has no field ${JSON.stringify(name)}`)
    }
  }
  throw new Error(`schema ${schema.table} has no field ${JSON.stringify(ref)}`)
}
