/**
 * Declaring database constraints on a changeset (Ecto's `unique_constraint` and friends). The
 * declaration does nothing until the repository runs the changeset: if PostgreSQL then reports a
 * violation of a declared constraint, the repository returns the changeset with a field error
 * instead of a database error. A schema's unique indexes (partial ones too) and its `checks` need
 * no declaration (see `schemaUnique`, `schemaCheck`).
 * Other undeclared violations are thrown as a `DbError`.
 *
 * How a reported constraint name is matched (constraint-names.ts):
 * - a name given explicitly (`{ name }` here, `name` in a schema's index) is the only one matched;
 * - without one, a unique constraint over some columns answers to both names it can have when
 *   nobody named it: `<table>_<columns>_index` (what generated migrations create) and
 *   PostgreSQL's `<table>_<columns>_key` (an inline `UNIQUE`, or `UNIQUE (a, b)` in a hand-written
 *   migration), the latter shortened to 63 bytes as PostgreSQL shortens it;
 * - every name is compared as PostgreSQL stores it, cut to 63 bytes, so a long name still matches.
 */
import { addError, withChanges, type Changeset, type ConstraintDecl, type FieldOf } from './changeset.ts'
import { columnOf, columnsOf, fieldOfColumn } from './column-names.ts'
import { defaultUniqueNames, fkeyName, sameConstraintName } from './constraint-names.ts'
import type { DbError } from './db-error.ts'
import { foreignKeysOf, joinThroughOf, type AnySchema } from './schema.ts'

export interface ConstraintOptions {
  /** The constraint or index name in the database. */
  readonly name?: string
  readonly message?: string
}

function declare<S extends AnySchema>(cs: Changeset<S>, decl: ConstraintDecl): Changeset<S> {
  return withChanges(cs, { constraints: [...cs.constraints, decl] })
}

function fieldList(cs: Changeset, fields: string | readonly string[]): readonly string[] {
  const list = typeof fields === 'string' ? [fields] : fields
  for (const f of list) if (!cs.schema.fieldsByName[f]) throw new Error(`schema ${cs.schema.table} has no field "${f}"`)
  return list
}

/**
 * Turns a violation of the unique constraint over `fields` into "has already been taken" (or
 * `message`) on the first field, instead of a database error. The default name is Ecto's unique
 * index name `<table>_<columns>_index` (what the migration generator creates; a field with a
 * `column` of its own counts by its column); PostgreSQL's own name for an unnamed UNIQUE,
 * `<table>_<columns>_key`, is accepted too; a given `name` is the only one matched. A unique
 * index declared on the schema needs no call (it maps to "has already been taken" by itself):
 * call this for another message, or for a constraint the schema does not declare.
 *
 * @example
 * uniqueConstraint(cast(User, null, params, ['name', 'email']), 'email', { message: 'is already registered' })
 */
export function uniqueConstraint<S extends AnySchema>(
  cs: Changeset<S>,
  fields: FieldOf<S> | readonly FieldOf<S>[],
  opts: ConstraintOptions = {},
): Changeset<S> {
  const list = fieldList(cs, fields)
  const [index, key] = defaultUniqueNames(cs.schema.table, columnsOf(cs.schema, list))
  return declare(cs, {
    type: 'unique',
    constraint: opts.name ?? index,
    aliases: opts.name ? [] : [key],
    field: list[0]!,
    message: opts.message ?? 'has already been taken',
  })
}

/**
 * "does not exist" for a belongsTo column whose referenced row is missing. Default name
 * `<table>_<column>_fkey` (PostgreSQL's), the field's column.
 *
 * @example
 * const cs = foreignKeyConstraint(cast(Note, null, body, ['title', 'user_id']), 'user_id')
 * // repo.insert(cs) for a user_id no user has: { ok: false, error: cs with { user_id: ['does not exist'] } }
 */
export function foreignKeyConstraint<S extends AnySchema>(
  cs: Changeset<S>,
  field: FieldOf<S>,
  opts: ConstraintOptions = {},
): Changeset<S> {
  fieldList(cs, field)
  return declare(cs, {
    type: 'foreign_key',
    constraint: opts.name ?? fkeyName(cs.schema.table, columnOf(cs.schema, field)),
    aliases: [],
    field,
    message: opts.message ?? 'does not exist',
  })
}

/**
 * Ecto's `assoc_constraint`: "does not exist" on the belongsTo association itself (`user`, not
 * `user_id`), for forms that show the association. Default constraint `<table>_<foreign key>_fkey`,
 * the name generated migrations give it.
 *
 * @example
 * const cs = assocConstraint(cast(Note, null, body, ['title', 'user_id']), 'user')
 * // repo.insert(cs) for a user_id no user has: errorsToJson gives { user: ['does not exist'] }
 */
export function assocConstraint<S extends AnySchema>(
  cs: Changeset<S>,
  assoc: string,
  opts: ConstraintOptions = {},
): Changeset<S> {
  const a = cs.schema.associations[assoc]
  if (a?.kind !== 'belongsTo') throw new Error(`schema ${cs.schema.table} has no belongsTo association "${assoc}"`)
  // One column per key field (a composite key's each stored under its own column), as migrations name it.
  const columns = foreignKeysOf(cs.schema, assoc, a).map((f) => columnOf(cs.schema, f))
  return declare(cs, {
    type: 'foreign_key',
    constraint: opts.name ?? fkeyName(cs.schema.table, columns),
    aliases: [],
    field: assoc,
    message: opts.message ?? 'does not exist',
  })
}

/**
 * "are still associated with this entry": deleting a parent that children still reference. The
 * error goes on the association name; default constraint `<child table>_<foreign key>_fkey`
 * (manyToMany: `<join table>_<its column for this schema>_fkey`, when its onDelete is not cascade).
 *
 * @example
 * const res = await repo.delete(noAssocConstraint(change(User, user), 'notes'))
 * // while notes still point at the user: errorsToJson(res.error) is { notes: ['are still associated with this entry'] }
 */
export function noAssocConstraint<S extends AnySchema>(
  cs: Changeset<S>,
  assoc: string,
  opts: ConstraintOptions = {},
): Changeset<S> {
  const a = cs.schema.associations[assoc]
  if (!a || a.kind === 'belongsTo')
    throw new Error(`schema ${cs.schema.table} has no hasOne/hasMany/manyToMany association "${assoc}"`)
  // manyToMany: the links in the join table hold the row (an onDelete other than cascade).
  const child = a.kind === 'manyToMany' ? joinThroughOf(cs.schema, assoc).table : a.schema().table
  const keys = foreignKeysOf(cs.schema, assoc, a)
  // hasOne / hasMany: the key is fields of the child schema, which may store them under other names.
  const columns = a.kind === 'manyToMany' ? keys : keys.map((k) => columnOf(a.schema(), k))
  return declare(cs, {
    type: 'foreign_key',
    constraint: opts.name ?? fkeyName(child, columns),
    aliases: [],
    field: assoc,
    message:
      opts.message ??
      (a.kind !== 'hasOne' ? 'are still associated with this entry' : 'is still associated with this entry'),
  })
}

/**
 * "is invalid" (or `message`) on `field` for a violation of the CHECK constraint `name`, instead of
 * a database error; the name is required (PostgreSQL names checks freely). A check declared in the
 * schema's `checks` needs no call: call this for another message or field, or for a check only a
 * hand-written migration adds.
 *
 * @example
 * checkConstraint(cast(Product, null, body, ['price']), 'price', { name: 'price_must_be_positive', message: 'must be positive' })
 */
export function checkConstraint<S extends AnySchema>(
  cs: Changeset<S>,
  field: FieldOf<S>,
  opts: ConstraintOptions & { readonly name: string },
): Changeset<S> {
  fieldList(cs, field)
  return declare(cs, {
    type: 'check',
    constraint: opts.name,
    aliases: [],
    field,
    message: opts.message ?? 'is invalid',
  })
}

/**
 * "violates an exclusion constraint" for an `EXCLUDE` constraint (two bookings of one room that
 * overlap). The default name is PostgreSQL's own for an unnamed `EXCLUDE (field WITH …)`:
 * `<table>_<field>_excl`.
 *
 * @example
 * exclusionConstraint(cast(Booking, null, params, ['room_id', 'during']), 'during', { message: 'overlaps another booking' })
 */
export function exclusionConstraint<S extends AnySchema>(
  cs: Changeset<S>,
  field: FieldOf<S>,
  opts: ConstraintOptions = {},
): Changeset<S> {
  fieldList(cs, field)
  return declare(cs, {
    type: 'exclusion',
    constraint: opts.name ?? `${cs.schema.table}_${field}_excl`,
    aliases: [],
    field,
    message: opts.message ?? 'violates an exclusion constraint',
  })
}

/**
 * The changeset with the violation as a field error, or undefined when the error is not a declared
 * constraint. A NOT NULL violation needs no declaration: it names its column, which maps to
 * "can't be blank" when the column is one of the schema's fields.
 */
export function constraintError<S extends AnySchema>(cs: Changeset<S>, error: DbError): Changeset<S> | undefined {
  if (!error.constraintKind) return undefined
  if (error.constraintKind === 'not_null') {
    const field = error.column && fieldOfColumn(cs.schema, error.column)
    if (!field || error.table !== cs.schema.table) return undefined
    return addError(cs, field, "can't be blank", { validation: 'required', constraint: 'not_null' })
  }
  const name = error.constraint
  const decl =
    cs.constraints.find(
      (d) =>
        d.type === error.constraintKind &&
        [d.constraint, ...d.aliases].some((declared) => sameConstraintName(declared, name)),
    ) ??
    schemaUnique(cs.schema, error) ??
    schemaCheck(cs.schema, error)
  if (!decl) return undefined
  return addError(cs, decl.field, decl.message, { constraint: decl.type, constraint_name: decl.constraint })
}

/**
 * A unique index declared on the schema (`indexes: [{ columns, unique: true }]`) is a unique
 * constraint of every changeset over it, as if `uniqueConstraint(cs, columns)` had been called:
 * its violation is "has already been taken" on the index's first field. Matched by name as
 * `uniqueConstraint` matches: an index under its default name also answers to PostgreSQL's
 * `<table>_<columns>_key` (the same columns made UNIQUE by a hand-written migration); one given a
 * `name` only to that name. Looked up only when no declaration matched, so an explicit
 * `uniqueConstraint` (a custom message) wins.
 */
function schemaUnique(schema: AnySchema, error: DbError): ConstraintDecl | undefined {
  if (error.constraintKind !== 'unique' || !error.constraint) return undefined
  for (const ix of schema.indexes) {
    if (!ix.unique) continue
    const [index, key] = defaultUniqueNames(schema.table, columnsOf(schema, ix.columns))
    // As the equivalent uniqueConstraint declares it (its meta names the index, however matched).
    const aliases = ix.name === index ? [key] : []
    if ([ix.name, ...aliases].some((n) => sameConstraintName(n, error.constraint)))
      return { type: 'unique', constraint: ix.name, aliases, field: ix.columns[0]!, message: 'has already been taken' }
  }
  return undefined
}

/**
 * A check declared on the schema (`checks: [{ name, check, field?, message? }]`) is a check
 * constraint of every changeset over it, as if `checkConstraint(cs, field, { name, message })` had
 * been called. Looked up only when no declaration matched, so an explicit `checkConstraint` wins.
 */
function schemaCheck(schema: AnySchema, error: DbError): ConstraintDecl | undefined {
  if (error.constraintKind !== 'check') return undefined
  const c = schema.checks.find((c) => sameConstraintName(c.name, error.constraint))
  return c && { type: 'check', constraint: c.name, aliases: [], field: c.field, message: c.message }
}
