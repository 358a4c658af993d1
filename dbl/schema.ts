/**
 * Schemas: the description of one table that changesets cast against, the repository reads and
 * writes, and the migration generator diffs. `defineSchema` keeps the literal field definitions in
 * its type, so `RecordOf<typeof Product>` (and every repository result) is the exact row shape.
 */
import { singularize } from './inflect.ts'

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
 * `{ array: T }` is a PostgreSQL array column; `{ enum: [...] }` is a VARCHAR(255) column whose cast
 * accepts only the listed values; an `EmbedType` is a jsonb column holding embedded records.
 */
export type FieldType = ScalarType | { readonly array: FieldType } | { readonly enum: readonly string[] } | EmbedType

/**
 * A jsonb column holding one record (`embedsOne`) or a list of records (`embedsMany`) of an
 * embedded schema: cast with `castEmbed`, read back as typed records (embedded.ts).
 */
export type EmbedType = { readonly embedsOne: AnySchema } | { readonly embedsMany: AnySchema }

export interface FieldOptions<T extends FieldType = FieldType> {
  readonly type: T
  /** Part of the primary key. The schema's `primaryKey` wins when both are given. */
  readonly primaryKey?: boolean
  /** Column accepts NULL. Defaults to true, except for primary keys. */
  readonly nullable?: boolean
  /** Column default, written into migrations and used by casts of new records. */
  readonly default?: unknown
  /** VARCHAR size for `string` fields (default 255). */
  readonly size?: number
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

export interface IndexSpec {
  readonly columns: readonly string[]
  readonly unique?: boolean
  /** Defaults to `<table>_<columns joined by _>_index` (Ecto's naming). */
  readonly name?: string
}

export type AssociationKind = 'belongsTo' | 'hasOne' | 'hasMany'

/**
 * What the database does with referencing rows when the referenced row is deleted (Ecto's
 * `on_delete`): `no_action` (the default, Ecto's `:nothing`) and `restrict` refuse the delete,
 * `cascade` deletes them too, `set_null` empties their foreign key.
 */
export type OnDelete = 'no_action' | 'restrict' | 'cascade' | 'set_null'

/**
 * `K` and `T` carry the kind and the related schema into the owner's type, so preloads are typed.
 * Two schemas referring to each other need a cut somewhere (TypeScript cannot infer a cycle):
 * write one side's thunk as `(): AnySchema => User`; the other may stay `() => Post`.
 */
export interface Association<K extends AssociationKind = AssociationKind, T extends AnySchema = AnySchema> {
  readonly kind: K
  /** Lazy, so two schemas may refer to each other. */
  readonly schema: () => T
  /**
   * belongsTo: the column on this table (default `<name>_id`).
   * hasOne / hasMany: the column on the other table (default `<this table singular>_id`:
   * `categories` → `category_id`, `people` → `person_id`). See `foreignKeyOf`.
   */
  readonly foreignKey?: string
  /**
   * belongsTo only: the generated migration makes the foreign key column reference the related
   * table's primary key, with this ON DELETE rule.
   */
  readonly onDelete?: OnDelete
}

export function belongsTo<T extends AnySchema>(schema: () => T, opts: { foreignKey?: string; onDelete?: OnDelete } = {}): Association<'belongsTo', T> {
  return { kind: 'belongsTo', schema, ...opts }
}
export function hasOne<T extends AnySchema>(schema: () => T, opts: { foreignKey?: string } = {}): Association<'hasOne', T> {
  return { kind: 'hasOne', schema, ...opts }
}
export function hasMany<T extends AnySchema>(schema: () => T, opts: { foreignKey?: string } = {}): Association<'hasMany', T> {
  return { kind: 'hasMany', schema, ...opts }
}

/**
 * The column an association joins on: its `foreignKey`, else `<name>_id` for belongsTo and
 * `<owner table singular>_id` for hasOne / hasMany (`categories` → `category_id`, `line_items` →
 * `line_item_id`, `people` → `person_id`; a table name that does not look plural is taken as it is).
 * The one place this default is computed: associations, constraints and generated migrations agree.
 */
export function foreignKeyOf(owner: { readonly table: string }, name: string, a: Pick<Association, 'kind' | 'foreignKey'>): string {
  if (a.foreignKey !== undefined) return a.foreignKey
  return a.kind === 'belongsTo' ? `${name}_id` : `${singularize(owner.table) ?? owner.table}_id`
}

/** An association map, as `defineSchema` takes it. */
export type Associations = Readonly<Record<string, Association>>

export interface SchemaDefinition<F extends Record<string, FieldSpec>, A extends Associations = Associations> {
  readonly table: string
  /** Defaults to the field marked `primaryKey`, else `id`. */
  readonly primaryKey?: keyof F & string
  readonly fields: F
  readonly associations?: A
  readonly indexes?: readonly IndexSpec[]
  /**
   * A schema without a table, stored inside a parent's `embedsOne` / `embedsMany` jsonb field;
   * `table` is only its name in messages. `defineEmbeddedSchema` sets it.
   */
  readonly embedded?: boolean
}

/** A field after normalisation: every option resolved. */
export interface Field {
  readonly name: string
  readonly type: FieldType
  readonly primaryKey: boolean
  readonly nullable: boolean
  readonly default: unknown
  readonly size: number | undefined
  readonly renamedFrom: string | undefined
  readonly virtual: boolean
}

export interface Schema<F extends Record<string, FieldSpec> = Record<string, FieldSpec>, A extends Associations = Associations> {
  readonly kind: 'vela.schema'
  readonly table: string
  readonly primaryKey: string
  /** Normalised fields in declaration order. */
  readonly fields: readonly Field[]
  readonly fieldsByName: Readonly<Record<string, Field>>
  readonly associations: A
  readonly indexes: readonly Required<IndexSpec>[]
  /** Stored inside a parent's jsonb field, not in a table of its own. */
  readonly embedded: boolean
  /** Phantom: carries the literal field definitions for type inference only. */
  readonly '~fields'?: F
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnySchema = Schema<any, Associations>

/** A schema's association map type (for an `AnySchema`, any name of any kind). */
export type AssociationsOf<S> = S extends Schema<infer _F, infer A> ? A : never

type TypeOfField<S> = S extends FieldOptions<infer T> ? T : S extends FieldType ? S : never

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
type VirtualKeys<F> = { [K in keyof F]: F[K] extends { readonly virtual: true } ? K : never }[keyof F]
type Flat<T> = T extends infer O ? { [K in keyof O]: O[K] } : never

/**
 * The row shape a schema's records have when read back from the database. Virtual fields are
 * optional: a record read back lacks them, one built from a changeset may carry them.
 */
export type RecordOf<S> = S extends Schema<infer F, infer _A>
  ? 0 extends 1 & F
    ? { [K in keyof F]: ValueOfSpec<F[K]> }
    : [VirtualKeys<F>] extends [never]
      ? { [K in keyof F]: ValueOfSpec<F[K]> }
      : Flat<{ readonly [K in Exclude<keyof F, VirtualKeys<F>>]: ValueOfSpec<F[K]> } & { readonly [K in VirtualKeys<F>]?: ValueOfSpec<F[K]> }>
  : never

export function defineSchema<const F extends Record<string, FieldSpec>, const A extends Associations = {}>(def: SchemaDefinition<F, A>): Schema<F, A> {
  const fields: Field[] = Object.entries(def.fields).map(([name, spec]) => normaliseField(name, spec))
  const embedded = def.embedded ?? false
  // An embedded schema needs no key: its records live inside the parent's row.
  const primaryKey = def.primaryKey ?? fields.find((f) => f.primaryKey)?.name ?? (embedded ? '' : 'id')
  const byName: Record<string, Field> = {}
  for (const f of fields) {
    const isPk = f.name === primaryKey
    byName[f.name] = isPk ? { ...f, primaryKey: true, nullable: false } : f
  }
  if (primaryKey !== '' && !byName[primaryKey]) throw new Error(`schema ${def.table}: primary key "${primaryKey}" is not one of its fields`)
  if (byName[primaryKey]?.virtual) throw new Error(`schema ${def.table}: the primary key "${primaryKey}" cannot be virtual`)
  if (embedded && (def.indexes?.length || Object.keys(def.associations ?? {}).length)) {
    throw new Error(`schema ${def.table} is embedded: it has no table, so no indexes or associations`)
  }
  const indexes = (def.indexes ?? []).map((ix) => ({
    columns: ix.columns,
    unique: ix.unique ?? false,
    name: ix.name ?? `${def.table}_${ix.columns.join('_')}_index`,
  }))
  for (const ix of indexes) {
    for (const c of ix.columns) {
      if (!byName[c] || byName[c].virtual) throw new Error(`schema ${def.table}: index ${ix.name} names unknown field "${c}"`)
    }
  }
  return {
    kind: 'vela.schema',
    table: def.table,
    primaryKey,
    fields: fields.map((f) => byName[f.name]!),
    fieldsByName: byName,
    associations: def.associations ?? ({} as A),
    indexes,
    embedded,
  }
}

function normaliseField(name: string, spec: FieldSpec): Field {
  const opts: FieldOptions = typeof spec === 'string' || !('type' in spec) ? { type: spec as FieldType } : (spec as FieldOptions)
  const primaryKey = opts.primaryKey ?? false
  return {
    name,
    type: opts.type,
    primaryKey,
    nullable: opts.nullable ?? !(primaryKey || opts.type === 'id'),
    default: opts.default,
    size: opts.size,
    renamedFrom: opts.renamedFrom,
    virtual: opts.virtual ?? false,
  }
}

/** `inserted_at` and `updated_at`, set automatically by the repository. Spread into `fields`. */
export function timestamps() {
  return { inserted_at: 'utc_datetime', updated_at: 'utc_datetime' } as const
}

export function isSchema(value: unknown): value is AnySchema {
  return typeof value === 'object' && value !== null && (value as { kind?: unknown }).kind === 'vela.schema'
}
