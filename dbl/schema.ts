/**
 * Schemas: the description of one table that changesets cast against, the repository reads and
 * writes, and the migration generator diffs. `defineSchema` keeps the literal field definitions in
 * its type, so `RecordOf<typeof Product>` (and every repository result) is the exact row shape.
 */
import { singularize } from './inflect.ts'
import {
  normaliseChecks,
  normaliseIndexes,
  type CheckSpec,
  type IndexSpec,
  type SchemaCheck,
  type SchemaIndex,
} from './schema-constraints.ts'

export type { CheckSpec, IndexSpec, SchemaCheck, SchemaIndex } from './schema-constraints.ts'

/** The column types a field can have, besides arrays, enums and embeds (`id` is an auto-incrementing integer key). */
export type ScalarType =
  | 'id'
  | 'string'
  | 'text'
  | 'integer'
  | 'float'
  | 'boolean'
  | 'utc_datetime'
  | 'date'
  | 'uuid'
  | 'jsonb'

/**
 * A field's type: a scalar type, or `{ array: T }`, a PostgreSQL array column; `{ enum: [...] }` is a VARCHAR(255) column whose cast
 * accepts only the listed values; an `EmbedType` is a jsonb column holding embedded records.
 */
export type FieldType = ScalarType | { readonly array: FieldType } | { readonly enum: readonly string[] } | EmbedType

/**
 * A jsonb column holding one record (`embedsOne`) or a list of records (`embedsMany`) of an
 * embedded schema: cast with `castEmbed`, read back as typed records (embedded.ts).
 */
export type EmbedType = { readonly embedsOne: AnySchema } | { readonly embedsMany: AnySchema }

/** A field given with options (`{ type: 'string', nullable: false }`) rather than as its type alone. */
export interface FieldOptions<T extends FieldType = FieldType> {
  readonly type: T
  /**
   * Part of the primary key: several fields marked so make a composite key, in declaration order.
   * The schema's `primaryKey` wins when both are given.
   */
  readonly primaryKey?: boolean
  /** Column accepts NULL. Defaults to true, except for primary keys. */
  readonly nullable?: boolean
  /** Column default, written into migrations and used by casts of new records. */
  readonly default?: unknown
  /** VARCHAR size for `string` fields (default 255). */
  readonly size?: number
  /**
   * The column the field is stored in, when it is not the field's name (Ecto's `source`): records,
   * changesets, queries and errors use the field name, SQL uses this one. Not in embedded schemas.
   */
  readonly column?: string
  /** The column's previous name: tells the migration generator this is a rename, not a drop and an add. */
  readonly renamedFrom?: string
  /**
   * Cast and validated like any field, never stored: no column in migrations, never written by
   * inserts or updates, never selected (a password confirmation, a plain-text password before hashing).
   * Records read back do not have it, so `RecordOf` types it as optional.
   */
  readonly virtual?: boolean
}

/** A field is given either as its type alone (`name: 'string'`) or with options. */
export type FieldSpec = FieldType | FieldOptions

/** The four kinds of association: which side holds the foreign key, and whether there is a join table. */
export type AssociationKind = 'belongsTo' | 'hasOne' | 'hasMany' | 'manyToMany'

/**
 * What the database does with referencing rows when the referenced row is deleted (Ecto's
 * `on_delete`): `no_action` (the default, Ecto's `:nothing`) and `restrict` refuse the delete,
 * `cascade` deletes them too, `set_null` empties their foreign key.
 */
export type OnDelete = 'no_action' | 'restrict' | 'cascade' | 'set_null'

/**
 * What the database does with referencing rows when the referenced key changes (Ecto's
 * `on_update`): `no_action` (the default) and `restrict` refuse the update, `cascade` copies the
 * new key into them, `set_null` empties their foreign key.
 */
export type OnUpdate = OnDelete

/**
 * An association of a schema, as `belongsTo`, `hasOne`, `hasMany` and `manyToMany` make it. `K` and
 * `T` carry the kind and the related schema into the owner's type, so preloads are typed.
 * Two schemas referring to each other need a cut somewhere (TypeScript cannot infer a cycle):
 * write one side's thunk as `(): AnySchema => User`; the other may stay `() => Post`.
 */
export interface Association<K extends AssociationKind = AssociationKind, T extends AnySchema = AnySchema> {
  readonly kind: K
  /** Lazy, so two schemas may refer to each other. */
  readonly schema: () => T
  /**
   * belongsTo: the field of this schema holding the key (default `<name>_id`).
   * hasOne / hasMany: the field of the other schema (default `<this table singular>_id`:
   * `categories` → `category_id`, `people` → `person_id`). See `foreignKeyOf`. A field's
   * `column` names the column statements and migrations use. A list of fields points at a
   * composite primary key, one field per key field, in the key's order.
   */
  readonly foreignKey?: string | readonly string[]
  /**
   * belongsTo: the generated migration makes the foreign key column reference the related
   * table's primary key, with this ON DELETE rule. manyToMany: the rule of both foreign keys of the
   * join table (default `cascade`: deleting either record deletes its links).
   */
  readonly onDelete?: OnDelete
  /** Like `onDelete`, for a change of the referenced key (ON UPDATE; default `no_action`). */
  readonly onUpdate?: OnUpdate
  /** manyToMany only: the join table holding one row per link. */
  readonly joinThrough?: string
  /** manyToMany only: the join table's columns `[pointing at this schema, pointing at the related one]`. */
  readonly joinKeys?: readonly [string, string]
}

/**
 * An association to the record this one points at through its own foreign key column (default
 * `<name>_id`); generated migrations make that column reference the related table, with the
 * `onDelete` and `onUpdate` rules given (default `no_action`).
 *
 * @example
 * const Note = defineSchema({
 *   table: 'notes',
 *   fields: { id: 'id', title: 'string', user_id: 'integer' },
 *   associations: { user: belongsTo(() => User, { onDelete: 'cascade', onUpdate: 'cascade' }) },
 * })
 */
export function belongsTo<T extends AnySchema>(
  schema: () => T,
  opts: { foreignKey?: string | readonly string[]; onDelete?: OnDelete; onUpdate?: OnUpdate } = {},
): Association<'belongsTo', T> {
  return { kind: 'belongsTo', schema, ...opts }
}
/**
 * An association to the one record of another table that points at this one (its foreign key,
 * default `<this table singular>_id`, is on the other table).
 *
 * @example
 * const User = defineSchema({
 *   table: 'users',
 *   fields: { id: 'id', name: 'string' },
 *   associations: { profile: hasOne(() => Profile) },
 * })
 */
export function hasOne<T extends AnySchema>(
  schema: () => T,
  opts: { foreignKey?: string | readonly string[] } = {},
): Association<'hasOne', T> {
  return { kind: 'hasOne', schema, ...opts }
}
/**
 * An association to the records of another table that point at this one (their foreign key,
 * default `<this table singular>_id`). Write the thunk's type as `(): AnySchema` when the other
 * schema refers back to this one.
 *
 * @example
 * const User = defineSchema({
 *   table: 'users',
 *   fields: { id: 'id', name: 'string' },
 *   associations: { notes: hasMany((): AnySchema => Note) },
 * })
 */
export function hasMany<T extends AnySchema>(
  schema: () => T,
  opts: { foreignKey?: string | readonly string[] } = {},
): Association<'hasMany', T> {
  return { kind: 'hasMany', schema, ...opts }
}

/** What `manyToMany` takes besides the related schema. */
export interface ManyToManyOptions {
  /** The join table: one row per link, with a column pointing at each side's primary key. */
  readonly joinThrough: string
  /**
   * The join table's two columns: `[pointing at this schema, pointing at the related one]`.
   * Default `[<this table singular>_id, <related table singular>_id]` (`work_orders` ↔ `tags`:
   * `['work_order_id', 'tag_id']`); required when both sides are the same table.
   */
  readonly joinKeys?: readonly [string, string]
  /** ON DELETE of the join table's two foreign keys in generated migrations; default `cascade`. */
  readonly onDelete?: OnDelete
  /** ON UPDATE of the join table's two foreign keys in generated migrations; default `no_action`. */
  readonly onUpdate?: OnUpdate
}

/**
 * A many-to-many association through a join table (Ecto's `many_to_many`): preload it, replace the
 * set with `putAssoc`, and generated migrations create the join table (two foreign keys and a
 * unique index over the pair). Both schemas may declare it over the same join table; it is created once.
 *
 * @example
 * const WorkOrder = defineSchema({
 *   table: 'work_orders',
 *   fields: { id: 'id', title: 'string' },
 *   associations: { tags: manyToMany(() => Tag, { joinThrough: 'work_order_tags' }) },
 * })
 * // later: repo.preload(WorkOrder, orders, 'tags'); repo.update(putAssoc(change(WorkOrder, order), 'tags', [1, 2]))
 */
export function manyToMany<T extends AnySchema>(
  schema: () => T,
  opts: ManyToManyOptions,
): Association<'manyToMany', T> {
  if (typeof opts?.joinThrough !== 'string' || opts.joinThrough === '')
    throw new Error('manyToMany: give the join table as { joinThrough: "<table>" }')
  if (
    opts.joinKeys !== undefined &&
    !(
      opts.joinKeys.length === 2 &&
      opts.joinKeys.every((k) => typeof k === 'string' && k !== '') &&
      opts.joinKeys[0] !== opts.joinKeys[1]
    )
  ) {
    throw new Error(`manyToMany ${opts.joinThrough}: joinKeys must be two different column names`)
  }
  return { kind: 'manyToMany', schema, ...opts }
}

/**
 * How a manyToMany association goes through its join table: what a join or a preload needs to
 * write `owner JOIN table ON table.ownerKey = owner.ownerColumn JOIN related ON related.relatedColumn = table.relatedKey`.
 */
export interface JoinThrough {
  /** The join table. */
  readonly table: string
  /** Join table column pointing at the owner's primary key. */
  readonly ownerKey: string
  /** Join table column pointing at the related schema's primary key. */
  readonly relatedKey: string
  /** The owner's primary key field (its `column` is what statements name). */
  readonly ownerColumn: string
  /** The related schema's primary key field (its `column` is what statements name). */
  readonly relatedColumn: string
  readonly related: AnySchema
  /** ON DELETE of both foreign keys (generated migrations). */
  readonly onDelete: OnDelete
  /** ON UPDATE of both foreign keys (generated migrations). */
  readonly onUpdate: OnUpdate
}

/**
 * The join table and its two key columns of manyToMany association `name` of `owner` (defaults
 * resolved); throws for a name that is not a manyToMany association.
 *
 * @example
 * const t = joinThroughOf(WorkOrder, 'tags')
 * // { table: 'work_order_tags', ownerKey: 'work_order_id', relatedKey: 'tag_id', ownerColumn: 'id', relatedColumn: 'id', … }
 */
export function joinThroughOf(owner: AnySchema, name: string): JoinThrough {
  const a = owner.associations[name]
  if (a?.kind !== 'manyToMany' || !a.joinThrough)
    throw new Error(`schema ${owner.table} has no manyToMany association "${name}"`)
  const related = a.schema()
  if (related.primaryKeys.length > 1)
    throw new Error(
      `association ${owner.table}.${name}: manyToMany needs a one-field primary key, and ${related.table}'s is (${related.primaryKey}); use a join schema with two belongsTo associations instead`,
    )
  const ownerKey = foreignKeyOf(owner, name, a)
  const relatedKey = a.joinKeys?.[1] ?? `${singularize(related.table) ?? related.table}_id`
  if (ownerKey === relatedKey) {
    throw new Error(
      `association ${owner.table}.${name}: both join keys would be "${ownerKey}"; give joinKeys: ['<column for ${owner.table}>', '<column for ${related.table}>']`,
    )
  }
  return {
    table: a.joinThrough,
    ownerKey,
    relatedKey,
    ownerColumn: owner.primaryKey,
    relatedColumn: related.primaryKey,
    related,
    onDelete: a.onDelete ?? 'cascade',
    onUpdate: a.onUpdate ?? 'no_action',
  }
}

/**
 * The column an association joins on: its `foreignKey`, else `<name>_id` for belongsTo and
 * `<owner table singular>_id` for hasOne / hasMany (`categories` → `category_id`, `line_items` →
 * `line_item_id`, `people` → `person_id`; a table name that does not look plural is taken as it is).
 * For manyToMany it is the join table's column pointing at the owner (`joinKeys[0]`, same default).
 * The one place this default is computed: associations, constraints and generated migrations agree.
 * A composite foreign key gives its columns joined by `_`, the middle of its constraint name
 * (`order_notes_order_id_line_no_fkey`); `foreignKeysOf` gives the columns themselves.
 */
export function foreignKeyOf(
  owner: { readonly table: string },
  name: string,
  a: Pick<Association, 'kind' | 'foreignKey' | 'joinKeys'>,
): string {
  if (a.kind === 'manyToMany' && a.joinKeys) return a.joinKeys[0]
  if (typeof a.foreignKey === 'string') return a.foreignKey
  if (a.foreignKey !== undefined) return a.foreignKey.join('_')
  return a.kind === 'belongsTo' ? `${name}_id` : `${singularize(owner.table) ?? owner.table}_id`
}

/**
 * The columns an association joins on, in the order of the key they point at: `[foreignKeyOf(…)]`,
 * or the list given as `foreignKey` for a composite key.
 */
export function foreignKeysOf(
  owner: { readonly table: string },
  name: string,
  a: Pick<Association, 'kind' | 'foreignKey' | 'joinKeys'>,
): readonly string[] {
  return Array.isArray(a.foreignKey) && a.kind !== 'manyToMany' ? a.foreignKey : [foreignKeyOf(owner, name, a)]
}

/** An association map, as `defineSchema` takes it. */
export type Associations = Readonly<Record<string, Association>>

/** What `defineSchema` takes: the table, its fields, and optionally the primary key, associations and indexes. */
export interface SchemaDefinition<F extends Record<string, FieldSpec>, A extends Associations = Associations> {
  readonly table: string
  /**
   * Defaults to the fields marked `primaryKey`, else `id`. A list of fields is a composite key
   * (`['order_id', 'line_no']`): `repo.get` then takes an object naming each of them.
   */
  readonly primaryKey?: (keyof F & string) | readonly (keyof F & string)[]
  readonly fields: F
  readonly associations?: A
  readonly indexes?: readonly IndexSpec[]
  /** Named CHECK constraints: `[{ name: 'price_positive', check: 'price > 0' }]` (see `CheckSpec`). */
  readonly checks?: readonly CheckSpec<keyof F & string>[]
  /**
   * A schema without a table, stored inside a parent's `embedsOne` / `embedsMany` jsonb field;
   * `table` is only its name in messages. `defineEmbeddedSchema` sets it.
   */
  readonly embedded?: boolean
  /**
   * Soft delete: `repo.delete` and `deleteAll` set this `utc_datetime` column (`true` =
   * `deleted_at`) instead of removing the row, and every query, preload, update and delete leaves
   * rows where it is set out, unless told otherwise (`q.withDeleted()`, `withoutScopes(fn)`). The field
   * must be declared, nullable. It is the scope named `softDelete`.
   */
  readonly softDelete?: boolean | (keyof F & string)
  /**
   * Default scopes by name: each gives an equality map (`null` = IS NULL) that every query,
   * preload, update and delete of this schema's rows adds to its conditions, unless told
   * otherwise (`q.unscoped('tenant')`, `withoutScopes(fn, ['tenant'])`). Run each time a statement is
   * built, so it may read a value of the current request (`requestValue`). See scopes.ts.
   */
  readonly scopes?: Readonly<Record<string, ScopeFn<{ readonly [K in keyof F]?: unknown }>>>
  // `hooks` and `audit` are declared in hooks.ts, where the changeset and repository types are known.
}

/** The lifecycle hooks a schema may declare (`hooks` in `defineSchema`; hooks.ts types each). */
export type HookName = 'beforeInsert' | 'afterInsert' | 'beforeUpdate' | 'afterUpdate' | 'beforeDelete' | 'afterDelete'

/** What the repository does around a schema's writes, as `defineSchema` kept it (repo/run-hooks.ts runs it). */
export interface Lifecycle {
  // Each hook's own type is declared in hooks.ts.
  readonly hooks: Readonly<Partial<Record<HookName, (...args: any[]) => unknown>>>
  /** Fields whose values audit rows never hold (`[redacted]`); `undefined` when the schema is not audited. */
  readonly audit: { readonly redact: readonly string[] } | undefined
}

/** A default scope: the equality map (`null` = IS NULL) its schema's statements add, computed per statement. */
export type ScopeFn<C = Readonly<Record<string, unknown>>> = () => C

/** The name of the scope `softDelete` declares: `q.withDeleted()` is `q.unscoped('softDelete')`. */
export const SOFT_DELETE_SCOPE = 'softDelete'

/** A field after normalisation: every option resolved. */
export interface Field {
  readonly name: string
  /** The column it is stored in: its `column` option, else its name. */
  readonly column: string
  readonly type: FieldType
  readonly primaryKey: boolean
  readonly nullable: boolean
  readonly default: unknown
  readonly size: number | undefined
  readonly renamedFrom: string | undefined
  readonly virtual: boolean
}

/** A table's description as `defineSchema` returns it: normalised fields, primary key, associations and indexes. */
export interface Schema<
  F extends Record<string, FieldSpec> = Record<string, FieldSpec>,
  A extends Associations = Associations,
> {
  readonly kind: 'vela.schema'
  readonly table: string
  /**
   * The key field. For a composite key, its fields joined by `, ` — a label for messages, never a
   * column: code that handles composite keys reads `primaryKeys`.
   */
  readonly primaryKey: string
  /** The key fields in order: one for most schemas, several for a composite key, none for an embedded schema. */
  readonly primaryKeys: readonly string[]
  /** Normalised fields in declaration order. */
  readonly fields: readonly Field[]
  readonly fieldsByName: Readonly<Record<string, Field>>
  /**
   * Field name → column name, when some field is stored under another name (`column`); undefined
   * when every column is named as its field: statements then use field names as they are.
   */
  readonly columnNames: Readonly<Record<string, string>> | undefined
  readonly associations: A
  readonly indexes: readonly SchemaIndex[]
  /** Its CHECK constraints, in declaration order. */
  readonly checks: readonly SchemaCheck[]
  /** Stored inside a parent's jsonb field, not in a table of its own. */
  readonly embedded: boolean
  /** The soft-delete column, or undefined. */
  readonly softDelete: string | undefined
  /** Default scopes by name (soft delete's included), or undefined when it has none: the fast path. */
  readonly scopes: Readonly<Record<string, ScopeFn>> | undefined
  /**
   * Its lifecycle hooks and audit settings; `undefined` when it declares neither, so a write of
   * the schema costs nothing for them.
   */
  readonly lifecycle: Lifecycle | undefined
  /** Phantom: carries the literal field definitions for type inference only. */
  readonly '~fields'?: F
}

/** Any schema, whatever its fields: for helpers that take every schema, and for thunks of schemas that refer to each other. */
export type AnySchema = Schema<any, Associations> // eslint-disable-line @typescript-eslint/no-explicit-any

/** A schema's association map type (for an `AnySchema`, any name of any kind). */
export type AssociationsOf<S> = S extends Schema<infer _F, infer A> ? A : never

type TypeOfField<S> = S extends FieldOptions<infer T> ? T : S extends FieldType ? S : never

/** The TypeScript type of a field type's values (`'integer'` → `number`, `'utc_datetime'` → `Date`, `{ array: 'string' }` → `string[]`). */
export type ValueOf<T> = T extends 'id' | 'integer' | 'float'
  ? number
  : T extends 'string' | 'text' | 'uuid' | 'date'
    ? string
    : T extends 'boolean'
      ? boolean
      : T extends 'utc_datetime'
        ? Date
        : T extends 'jsonb'
          ? unknown
          : T extends { readonly array: infer E }
            ? ValueOf<E>[]
            : T extends { readonly enum: readonly (infer V)[] }
              ? V
              : T extends { readonly embedsOne: infer E }
                ? RecordOf<E>
                : T extends { readonly embedsMany: infer E }
                  ? RecordOf<E>[]
                  : never

type IsNotNull<S> = S extends { readonly primaryKey: true }
  ? true
  : S extends { readonly nullable: false }
    ? true
    : S extends 'id'
      ? true
      : S extends { readonly type: 'id' }
        ? true
        : false

type ValueOfSpec<S> = IsNotNull<S> extends true ? ValueOf<TypeOfField<S>> : ValueOf<TypeOfField<S>> | null
/**
 * The field definitions `defineSchema` keeps in its type: those of `F`, with every field a
 * `primaryKey` list names (`K`) marked as a key field, so `RecordOf` types it NOT NULL.
 */
export type WithKeyFields<F, K extends string> = [K] extends [never]
  ? F
  : { readonly [N in keyof F]: N extends K ? { readonly type: TypeOfField<F[N]>; readonly primaryKey: true } : F[N] }
type VirtualKeys<F> = { [K in keyof F]: F[K] extends { readonly virtual: true } ? K : never }[keyof F]
type Flat<T> = T extends infer O ? { [K in keyof O]: O[K] } : never

/**
 * The row shape a schema's records have when read back from the database. Virtual fields are
 * optional: a record read back lacks them, one built from a changeset may carry them.
 */
export type RecordOf<S> =
  S extends Schema<infer F, infer _A>
    ? 0 extends 1 & F
      ? { [K in keyof F]: ValueOfSpec<F[K]> }
      : [VirtualKeys<F>] extends [never]
        ? { [K in keyof F]: ValueOfSpec<F[K]> }
        : Flat<
            { readonly [K in Exclude<keyof F, VirtualKeys<F>>]: ValueOfSpec<F[K]> } & {
              readonly [K in VirtualKeys<F>]?: ValueOfSpec<F[K]>
            }
          >
    : never

/**
 * Describes one table: its fields (each a type, or options), and optionally its primary key,
 * associations and indexes. The literal field definitions stay in the type, so `RecordOf<typeof
 * Product>` and every repository result have the exact row shape. Throws for a primary key or an
 * index naming an unknown field.
 *
 * @example
 * import { defineSchema, timestamps } from 'vela/dbl'
 *
 * export const Product = defineSchema({
 *   table: 'products',
 *   fields: {
 *     id: 'id',
 *     name: { type: 'string', nullable: false },
 *     price: { type: 'integer', nullable: false },
 *     description: 'text',
 *     ...timestamps(),
 *   },
 *   indexes: [{ columns: ['name'], unique: true }],
 * })
 */
export function defineSchema<
  const F extends Record<string, FieldSpec>,
  const A extends Associations = {},
  K extends keyof F & string = never,
>(
  def: SchemaDefinition<F, A> & { readonly primaryKey?: (keyof F & string) | readonly K[] },
): Schema<WithKeyFields<F, K>, A> {
  const fields: Field[] = Object.entries(def.fields).map(([name, spec]) => normaliseField(name, spec))
  const embedded = def.embedded ?? false
  const primaryKeys = keyFieldsOf(def.table, def.primaryKey, fields, embedded)
  const byName: Record<string, Field> = {}
  for (const f of fields) {
    // Marked or not, a field is part of the key exactly when the key names it.
    const isPk = primaryKeys.includes(f.name)
    byName[f.name] = isPk ? { ...f, primaryKey: true, nullable: false } : f.primaryKey ? { ...f, primaryKey: false } : f
  }
  for (const k of primaryKeys) {
    if (!byName[k]) throw new Error(`schema ${def.table}: primary key "${k}" is not one of its fields`)
    if (byName[k].virtual) throw new Error(`schema ${def.table}: the primary key "${k}" cannot be virtual`)
  }
  checkCompositeAssociations(def.table, primaryKeys, def.associations ?? {}, byName)
  if (embedded && (def.indexes?.length || def.checks?.length || Object.keys(def.associations ?? {}).length)) {
    throw new Error(`schema ${def.table} is embedded: it has no table, so no indexes, checks or associations`)
  }
  const indexes = normaliseIndexes(def.table, byName, def.indexes ?? [])
  const checks = normaliseChecks(def.table, byName, def.checks ?? [])
  const softDelete = def.softDelete === true ? 'deleted_at' : def.softDelete || undefined
  return {
    kind: 'vela.schema',
    table: def.table,
    primaryKey: primaryKeys.join(', '),
    primaryKeys,
    fields: fields.map((f) => byName[f.name]!),
    fieldsByName: byName,
    columnNames: columnNamesOf(def.table, fields, embedded),
    associations: (def.associations ?? {}) as A,
    indexes,
    checks,
    embedded,
    softDelete,
    scopes: scopesOf(def.table, byName, softDelete, def.scopes as Record<string, ScopeFn> | undefined, embedded),
    lifecycle: lifecycleOf(def, byName),
  } as Schema<WithKeyFields<F, K>, A>
}

/**
 * The key fields: the `primaryKey` given (one field or a list), else every field marked
 * `primaryKey`, else `id`. An embedded schema needs no key: its records live inside the parent's row.
 */
function keyFieldsOf(
  table: string,
  given: string | readonly string[] | undefined,
  fields: readonly Field[],
  embedded: boolean,
): readonly string[] {
  if (typeof given === 'string') return [given]
  if (given !== undefined) {
    if (!Array.isArray(given) || given.length === 0 || given.some((k) => typeof k !== 'string'))
      throw new Error(`schema ${table}: primaryKey must be a field name or a non-empty list of field names`)
    if (new Set(given).size !== given.length)
      throw new Error(`schema ${table}: primaryKey names a field twice (${given.join(', ')})`)
    return [...given]
  }
  const marked = fields.filter((f) => f.primaryKey).map((f) => f.name)
  return marked.length > 0 ? marked : embedded ? [] : ['id']
}

/**
 * What can be checked of associations before their thunks resolve: a list `foreignKey` names
 * distinct columns (for belongsTo, fields of this schema), and manyToMany goes through one-field
 * keys only (its join table holds one column per side).
 */
function checkCompositeAssociations(
  table: string,
  primaryKeys: readonly string[],
  associations: Associations,
  byName: Readonly<Record<string, Field>>,
): void {
  for (const [name, a] of Object.entries(associations)) {
    if (a.kind === 'manyToMany' && primaryKeys.length > 1)
      throw new Error(
        `schema ${table}: manyToMany association "${name}" needs a one-field primary key, and ${table}'s is (${primaryKeys.join(', ')}); use a join schema with two belongsTo associations instead`,
      )
    if (!Array.isArray(a.foreignKey)) continue
    const fk: readonly string[] = a.foreignKey
    if (fk.length === 0 || new Set(fk).size !== fk.length || fk.some((c) => typeof c !== 'string' || c === ''))
      throw new Error(`association ${table}.${name}: foreignKey must list distinct column names`)
    if (a.kind === 'belongsTo')
      for (const c of fk)
        if (!byName[c] || byName[c].virtual)
          throw new Error(`association ${table}.${name}: foreignKey names "${c}", which is not a field of ${table}`)
  }
}

/**
 * The field → column map when some field has a `column` of its own, else undefined. Throws for
 * such a field in an embedded schema (its values are keys of the parent's JSON), on a virtual
 * field (no column), and for two fields stored in one column.
 */
function columnNamesOf(table: string, fields: readonly Field[], embedded: boolean): Record<string, string> | undefined {
  if (fields.every((f) => f.column === f.name)) return undefined
  const out: Record<string, string> = {}
  const owner = new Map<string, string>()
  for (const f of fields) {
    if (f.column !== f.name && (embedded || f.virtual))
      throw new Error(
        `schema ${table}: field ${f.name} is ${embedded ? 'in an embedded schema' : 'virtual'}, so it has no column to name`,
      )
    if (f.virtual) continue
    const taken = owner.get(f.column)
    if (taken)
      throw new Error(`schema ${table}: fields ${taken} and ${f.name} are both stored in the column "${f.column}"`)
    owner.set(f.column, f.name)
    out[f.name] = f.column
  }
  return out
}

/** The schema's scopes, soft delete's first; undefined when it has none. Checks the soft-delete column. */
function scopesOf(
  table: string,
  byName: Readonly<Record<string, Field>>,
  softDelete: string | undefined,
  declared: Readonly<Record<string, ScopeFn>> | undefined,
  embedded: boolean,
): Record<string, ScopeFn> | undefined {
  if (softDelete === undefined && (declared === undefined || Object.keys(declared).length === 0)) return undefined
  if (embedded) throw new Error(`schema ${table} is embedded: it has no table, so no scopes or softDelete`)
  const out: Record<string, ScopeFn> = {}
  if (softDelete !== undefined) {
    const f = byName[softDelete]
    if (!f || f.virtual || f.type !== 'utc_datetime' || !f.nullable)
      throw new Error(
        `schema ${table}: softDelete needs a nullable utc_datetime field "${softDelete}" (add ${softDelete}: 'utc_datetime' to its fields)`,
      )
    const clauses = { [softDelete]: null }
    out[SOFT_DELETE_SCOPE] = () => clauses
  }
  for (const [name, fn] of Object.entries(declared ?? {})) {
    if (typeof fn !== 'function') throw new Error(`schema ${table}: scope ${name} must be a function`)
    if (name === SOFT_DELETE_SCOPE) throw new Error(`schema ${table}: the scope name ${name} is taken by softDelete`)
    out[name] = fn
  }
  return out
}

const HOOK_NAMES: readonly HookName[] = [
  'beforeInsert',
  'afterInsert',
  'beforeUpdate',
  'afterUpdate',
  'beforeDelete',
  'afterDelete',
]

/** `hooks` and `audit` of a definition, checked; `undefined` when it has neither. */
function lifecycleOf(def: object, byName: Readonly<Record<string, Field>>): Lifecycle | undefined {
  const { table, hooks, audit, embedded } = def as {
    table: string
    hooks?: Record<string, unknown>
    audit?: boolean | { redact?: readonly string[] }
    embedded?: boolean
  }
  if (hooks === undefined && (audit === undefined || audit === false)) return undefined
  if (embedded) throw new Error(`schema ${table} is embedded: it is never written alone, so it has no hooks or audit`)
  for (const [name, fn] of Object.entries(hooks ?? {})) {
    if (!HOOK_NAMES.includes(name as HookName))
      throw new Error(`schema ${table}: unknown hook "${name}"; hooks are ${HOOK_NAMES.join(', ')}`)
    if (typeof fn !== 'function') throw new Error(`schema ${table}: hook ${name} must be a function`)
  }
  if (audit !== undefined && typeof audit !== 'boolean' && (typeof audit !== 'object' || audit === null))
    throw new Error(`schema ${table}: audit must be true, false or { redact: [fields] }`)
  const redact = typeof audit === 'object' ? (audit.redact ?? []) : []
  for (const f of redact) if (!byName[f]) throw new Error(`schema ${table}: audit redacts unknown field "${f}"`)
  return { hooks: { ...hooks }, audit: audit ? { redact } : undefined }
}

function normaliseField(name: string, spec: FieldSpec): Field {
  const opts: FieldOptions =
    typeof spec === 'string' || !('type' in spec) ? { type: spec as FieldType } : (spec as FieldOptions)
  const primaryKey = opts.primaryKey ?? false
  if (opts.column !== undefined && (typeof opts.column !== 'string' || opts.column === ''))
    throw new Error(`field ${name}: column must be a non-empty string`)
  return {
    name,
    column: opts.column ?? name,
    type: opts.type,
    primaryKey,
    nullable: opts.nullable ?? !(primaryKey || opts.type === 'id'),
    default: opts.default,
    size: opts.size,
    renamedFrom: opts.renamedFrom,
    virtual: opts.virtual ?? false,
  }
}

/**
 * `inserted_at` and `updated_at`, set automatically by the repository. Spread into `fields`.
 *
 * @example
 * const Post = defineSchema({ table: 'posts', fields: { id: 'id', title: 'string', ...timestamps() } })
 */
export function timestamps() {
  return { inserted_at: 'utc_datetime', updated_at: 'utc_datetime' } as const
}

/**
 * Whether a value is a schema `defineSchema` made.
 *
 * @example
 * isSchema(Product) // true
 * isSchema({ table: 'products' }) // false
 */
export function isSchema(value: unknown): value is AnySchema {
  return typeof value === 'object' && value !== null && (value as { kind?: unknown }).kind === 'vela.schema'
}
