/**
 * `sql` fragments: the SQL the builder has no method for, written as a tagged template. In the
 * template, `field('name')` (a field reference, joined paths too) becomes the quoted column, a
 * nested fragment its SQL, and anything else a parameter: a value is never written into the text.
 * A fragment is a condition (`where`, `and`, `or`, `not`), a `select` column (object form, its
 * value typed by `sql<T>`) and an `orderBy` term. Its fields are checked against the query that
 * takes it, as any field reference is.
 *
 *   from(Customer).where(sql`lower(${field('name')}) = ${name.toLowerCase()}`)
 *
 * The template's literal text is the program's own (a template's strings cannot come from input),
 * so it is part of the statement's shape: the statement is cached per template, not per value.
 */

/** A field reference inside a `sql` template: written as its quoted (and qualified) column. */
export interface FieldRef<F extends string = string> {
  readonly kind: 'vela.field'
  readonly ref: F
}

/**
 * A piece of SQL whose value is a `T`, over field references `F`: the template's strings and, between
 * them, field references, nested fragments and values.
 */
export interface Sql<T = unknown, F extends string = string> {
  /** A fragment is also a condition: `where(sql\`…\`)`. */
  readonly '~cond': 'sql'
  readonly kind: 'vela.sql'
  readonly parts: readonly string[]
  readonly args: readonly unknown[]
  /** Phantom: the value the fragment gives. */
  readonly '~type'?: T
  /** Phantom: the field references used. */
  readonly '~refs'?: F
}

/** The field references among a template's arguments (a nested fragment's too). */
export type RefsIn<A> = A extends readonly (infer E)[]
  ? E extends FieldRef<infer F>
    ? F
    : E extends Sql<unknown, infer F>
      ? F
      : never
  : never

/**
 * A field reference for a `sql` template: written as the field's quoted column (`"orders"."title"`).
 * Joined paths work as elsewhere (`field('customer.name')`).
 *
 * @example
 * from(Customer).where(sql`lower(${field('name')}) = ${'acme'}`)
 */
export function field<const F extends string>(ref: F): FieldRef<F> {
  if (typeof ref !== 'string' || ref === '') throw new Error('field: give a field name')
  return { kind: 'vela.field', ref }
}

/**
 * A SQL fragment: `field(…)` in the template becomes a quoted column, a nested fragment its SQL,
 * any other value a parameter (`$n`). `sql<T>` types the value the fragment gives, for `select`.
 * Use it in `where`, `select`'s object form and `orderBy`.
 *
 * @example
 * from(Customer).where(sql`lower(${field('name')}) = ${name}`)
 * from(WorkOrder).select({ id: 'id', upper: sql<string>`upper(${field('title')})` })
 * from(WorkOrder).orderBy([sql`coalesce(${field('estimate_minutes')}, 0)`, 'desc'])
 */
export function sql<T = unknown, const A extends readonly unknown[] = readonly unknown[]>(
  strings: TemplateStringsArray,
  ...args: A
): Sql<T, RefsIn<A>> {
  if (!Array.isArray(strings) || !Array.isArray((strings as { raw?: unknown }).raw))
    throw new Error('sql: use it as a template tag: sql`…`')
  for (const a of args)
    if (a === undefined) throw new Error(`sql\`${strings.join('…')}\`: a value is undefined (use null for NULL)`)
  return { '~cond': 'sql', kind: 'vela.sql', parts: strings, args }
}

/**
 * Whether `value` is a `sql` fragment.
 *
 * @example
 * isSql(sql`now()`)   // true
 */
export function isSql(value: unknown): value is Sql {
  return typeof value === 'object' && value !== null && (value as { kind?: unknown }).kind === 'vela.sql'
}

/** Whether `value` is a `field(…)` reference. */
export function isFieldRef(value: unknown): value is FieldRef {
  return typeof value === 'object' && value !== null && (value as { kind?: unknown }).kind === 'vela.field'
}

/** The field references a fragment uses, nested ones included. */
export function fragmentRefs(f: Sql): string[] {
  const out: string[] = []
  for (const a of f.args) {
    if (isFieldRef(a)) out.push(a.ref)
    else if (isSql(a)) out.push(...fragmentRefs(a))
  }
  return out
}
