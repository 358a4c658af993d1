/**
 * Declarative migration operations: plain, serialisable data that migration files return from
 * `up()` and `down()`. The same values feed three consumers — the DDL compiler (`ddl.ts`), the model
 * replay (`model.ts`) and the file printer (`render.ts`) — so a migration is never "just SQL" the
 * generator cannot see (except `execute`, which is opaque on purpose).
 */
import type { FieldType, OnDelete, OnUpdate } from '../schema.ts'
import type { UnsafeCheck } from './unsafe-check.ts'

export type { OnDelete, OnUpdate }

/**
 * A foreign key: the column's value must be a `column` value of `table` (or NULL). The constraint
 * is named `<this table>_<this column>_fkey`, PostgreSQL's own default, so hand-written and
 * generated migrations name it alike.
 */
export interface References {
  readonly table: string
  /** Defaults to `id`. */
  readonly column?: string
  /** Defaults to `no_action` (Ecto's `:nothing`): deleting a still referenced row fails. */
  readonly onDelete?: OnDelete
  /** Defaults to `no_action`: changing a still referenced key fails; `cascade` carries the new key along. */
  readonly onUpdate?: OnUpdate
}

/**
 * A foreign key over several columns, pointing at a composite primary key (or a unique index over
 * the same columns): `FOREIGN KEY (a, b) REFERENCES t (a, b)`. Named `<table>_<columns joined by _>_fkey`,
 * PostgreSQL's own default. A key of one column is a column's `references` instead.
 */
export interface ForeignKey {
  readonly columns: readonly string[]
  readonly references: {
    readonly table: string
    /** The referenced columns, in the order of `columns`. */
    readonly columns: readonly string[]
    /** Defaults to `no_action`, as `References`. */
    readonly onDelete?: OnDelete
    /** Defaults to `no_action`, as `References`. */
    readonly onUpdate?: OnUpdate
  }
}

/** What `createTable` takes besides the columns. */
export interface TableOptions {
  /** Foreign keys over several columns (table constraints, created with the table). */
  readonly foreignKeys?: readonly ForeignKey[]
}

/**
 * A column, in the same vocabulary as a schema field. Several columns with `primaryKey: true` make
 * a composite primary key, `PRIMARY KEY (a, b)` in their order.
 */
export interface Column {
  readonly name: string
  readonly type: FieldType
  readonly primaryKey?: boolean
  /** Defaults to true, except for primary keys and `id` columns. */
  readonly nullable?: boolean
  /** A literal value (string, number, boolean, Date, array, or a JSON value for jsonb). */
  readonly default?: unknown
  /** VARCHAR size for `string` columns (default 255). */
  readonly size?: number
  /** A foreign key (generated from `belongsTo` associations). */
  readonly references?: References
}

/**
 * What `modifyColumn` changes; only the keys present change. `default: null` drops the default; `type` and `size` change the
 * column type together (a missing `size` means the type's default size); `references: null` drops
 * the foreign key.
 */
export interface ColumnModification {
  readonly type?: FieldType
  readonly size?: number
  readonly nullable?: boolean
  readonly default?: unknown
  /** A foreign key to add or replace (the old one, if any, is dropped first); `null` drops it. */
  readonly references?: References | null
}

/** One change to a table's columns inside `alterTable`: what `addColumn`, `dropColumn`, `renameColumn` and `modifyColumn` return. */
export type ColumnChange =
  | { readonly change: 'addColumn'; readonly column: Column }
  | { readonly change: 'dropColumn'; readonly name: string }
  | { readonly change: 'renameColumn'; readonly from: string; readonly to: string }
  | { readonly change: 'modifyColumn'; readonly name: string; readonly set: ColumnModification }
  | { readonly change: 'addForeignKey'; readonly foreignKey: ForeignKey }
  | { readonly change: 'dropForeignKey'; readonly columns: readonly string[] }
  | { readonly change: 'setPrimaryKey'; readonly columns: readonly string[] }

export interface IndexDefinition {
  readonly table: string
  readonly columns: readonly string[]
  readonly unique: boolean
  readonly name: string
  /** A partial index's predicate (SQL), or undefined for an index of every row. */
  readonly where?: string
}

/** A named CHECK constraint of a table: every row must satisfy `check` (a SQL boolean expression). */
export interface CheckDefinition {
  readonly table: string
  readonly name: string
  readonly check: string
}

/** One step of a migration, as plain data: what `createTable`, `alterTable`, `createIndex`, `execute`, … return. */
export type Operation =
  | {
      readonly op: 'createTable'
      readonly table: string
      readonly columns: readonly Column[]
      readonly foreignKeys?: readonly ForeignKey[]
    }
  | { readonly op: 'dropTable'; readonly table: string }
  | { readonly op: 'alterTable'; readonly table: string; readonly changes: readonly ColumnChange[] }
  | ({ readonly op: 'createIndex'; readonly concurrently?: boolean } & IndexDefinition)
  | { readonly op: 'dropIndex'; readonly table: string; readonly name: string; readonly concurrently?: boolean }
  | ({ readonly op: 'addCheck'; readonly notValid?: boolean } & CheckDefinition)
  | { readonly op: 'dropCheck'; readonly table: string; readonly name: string }
  | { readonly op: 'validateCheck'; readonly table: string; readonly name: string }
  | { readonly op: 'execute'; readonly sql: string | DeferredSql }

/**
 * SQL an `execute` operation gets only when the migrator runs it, for SQL that takes loading a
 * package to write (`jobTables.up()`: pg-boss's install script), so that reading the migrations
 * (the generator, `vela routes`) never loads it.
 */
export interface DeferredSql {
  /** What the SQL does, shown where the SQL itself is not (errors, the generator). */
  readonly about: string
  /** The SQL, when the migration is applied or reverted. */
  load(): Promise<string>
}

/**
 * A migration file's exports: `up()` and `down()`, each returning the operations to apply, and
 * optionally `safetyAssured` and `transaction`.
 */
export interface MigrationModule {
  up(): readonly Operation[]
  down(): readonly Operation[]
  /**
   * Safety checks this migration acknowledges (`['drop-column']`): `migrate` applies it even where
   * they would refuse it. See docs/database/migrations-safety.md.
   */
  readonly safetyAssured?: readonly UnsafeCheck[]
  /**
   * `false` runs the migration's statements one by one outside a transaction, which
   * `createIndex(…, { concurrently: true })` needs (default `true`).
   */
  readonly transaction?: boolean
}

/**
 * Types a migration written as `export default defineMigration({ up, down })`, instead of two
 * exported `up` and `down` functions.
 *
 * @example
 * import { addColumn, alterTable, defineMigration, dropColumn } from 'vela/dbl'
 *
 * export default defineMigration({
 *   up: () => [alterTable('users', [addColumn({ name: 'bio', type: 'text' })])],
 *   down: () => [alterTable('users', [dropColumn('bio')])],
 * })
 */
export function defineMigration(migration: MigrationModule): MigrationModule {
  return migration
}

/**
 * Creates a table with its columns (`CREATE TABLE`). Several `primaryKey` columns make a composite
 * key; `foreignKeys` adds foreign keys over several columns.
 *
 * @example
 * createTable('notes', [
 *   { name: 'id', type: 'id', primaryKey: true },
 *   { name: 'title', type: 'string', nullable: false },
 *   { name: 'user_id', type: 'integer', references: { table: 'users', onDelete: 'cascade' } },
 *   { name: 'inserted_at', type: 'utc_datetime' },
 * ])
 *
 * // PRIMARY KEY (order_id, line_no), and a foreign key pointing at it:
 * createTable('order_lines', [
 *   { name: 'order_id', type: 'integer', primaryKey: true, references: { table: 'orders' } },
 *   { name: 'line_no', type: 'integer', primaryKey: true },
 * ])
 * createTable('line_notes', [{ name: 'id', type: 'id', primaryKey: true }, { name: 'order_id', type: 'integer' }, { name: 'line_no', type: 'integer' }], {
 *   foreignKeys: [{ columns: ['order_id', 'line_no'], references: { table: 'order_lines', columns: ['order_id', 'line_no'] } }],
 * })
 */
export function createTable(table: string, columns: readonly Column[], opts: TableOptions = {}): Operation {
  return opts.foreignKeys?.length
    ? { op: 'createTable', table, columns, foreignKeys: opts.foreignKeys }
    : { op: 'createTable', table, columns }
}

/**
 * Drops the table and its data. The generator only writes this after an explicit `dropTables` decision.
 *
 * @example
 * dropTable('notes')
 */
export function dropTable(table: string): Operation {
  return { op: 'dropTable', table }
}

/**
 * Changes a table's columns (`ALTER TABLE`), in the order given.
 *
 * @example
 * alterTable('users', [addColumn({ name: 'bio', type: 'text' }), renameColumn('name', 'username')])
 */
export function alterTable(table: string, changes: readonly ColumnChange[]): Operation {
  return { op: 'alterTable', table, changes }
}

/**
 * Adds a column, inside `alterTable`.
 *
 * @example
 * alterTable('notes', [addColumn({ name: 'user_id', type: 'integer', references: { table: 'users' } })])
 */
export function addColumn(column: Column): ColumnChange {
  return { change: 'addColumn', column }
}

/**
 * Drops a column and its data, inside `alterTable`.
 *
 * @example
 * alterTable('notes', [dropColumn('author')])
 */
export function dropColumn(name: string): ColumnChange {
  return { change: 'dropColumn', name }
}

/**
 * Renames a column, keeping its data, inside `alterTable`.
 *
 * @example
 * alterTable('users', [renameColumn('name', 'username')])
 */
export function renameColumn(from: string, to: string): ColumnChange {
  return { change: 'renameColumn', from, to }
}

/**
 * Changes a column's type, size, nullability, default or foreign key, inside `alterTable`: only the
 * keys given change.
 *
 * @example
 * alterTable('products', [modifyColumn('name', { size: 120, nullable: false })])
 */
export function modifyColumn(name: string, set: ColumnModification): ColumnChange {
  return { change: 'modifyColumn', name, set }
}

/**
 * Adds a foreign key over several columns, inside `alterTable` (`ADD CONSTRAINT <table>_<a>_<b>_fkey
 * FOREIGN KEY (a, b) REFERENCES …`).
 *
 * @example
 * alterTable('line_notes', [
 *   addForeignKey({ columns: ['order_id', 'line_no'], references: { table: 'order_lines', columns: ['order_id', 'line_no'], onDelete: 'cascade' } }),
 * ])
 */
export function addForeignKey(foreignKey: ForeignKey): ColumnChange {
  return { change: 'addForeignKey', foreignKey }
}

/**
 * Drops the foreign key over these columns, inside `alterTable`.
 *
 * @example
 * alterTable('line_notes', [dropForeignKey(['order_id', 'line_no'])])
 */
export function dropForeignKey(columns: readonly string[]): ColumnChange {
  return { change: 'dropForeignKey', columns }
}

/**
 * Makes these columns the table's primary key, in this order, inside `alterTable`: the old key
 * constraint (`<table>_pkey`) is dropped and the new one added. Its columns become NOT NULL; those
 * leaving the key stay NOT NULL until a `modifyColumn` says otherwise. PostgreSQL refuses it while
 * a foreign key still points at the old key.
 *
 * @example
 * alterTable('order_lines', [setPrimaryKey(['order_id', 'line_no'])])
 */
export function setPrimaryKey(columns: readonly string[]): ColumnChange {
  return { change: 'setPrimaryKey', columns }
}

/** Index names default to Ecto's `<table>_<columns joined by _>_index`, like schema indexes. */
export function indexName(table: string, columns: readonly string[]): string {
  return `${table}_${columns.join('_')}_index`
}

/**
 * Creates an index over columns; named `<table>_<columns joined by _>_index` unless `name` is given.
 * `where` makes it partial: only rows matching that SQL predicate are indexed (a unique one then
 * allows duplicates outside it). `concurrently: true` builds it without blocking writes (CREATE
 * INDEX CONCURRENTLY); the migration must then export `transaction = false`.
 *
 * @example
 * createIndex('users', ['email'], { unique: true }) // users_email_index
 * createIndex('users', ['email'], { unique: true, where: 'deleted_at IS NULL' })
 * createIndex('orders', ['customer_id'], { concurrently: true })
 */
export function createIndex(
  table: string,
  columns: readonly string[],
  opts: { unique?: boolean; name?: string; where?: string; concurrently?: boolean } = {},
): Operation {
  return {
    op: 'createIndex',
    table,
    columns,
    unique: opts.unique ?? false,
    name: opts.name ?? indexName(table, columns),
    ...(opts.where !== undefined ? { where: opts.where } : {}),
    ...(opts.concurrently ? { concurrently: true } : {}),
  }
}

/**
 * Drops an index by name. The table is named too, so replaying migrations knows where the index
 * lived without a catalog. `concurrently: true` (DROP INDEX CONCURRENTLY) needs `transaction = false`.
 *
 * @example
 * dropIndex('notes', 'notes_user_id_index')
 */
export function dropIndex(table: string, name: string, opts: { concurrently?: boolean } = {}): Operation {
  return { op: 'dropIndex', table, name, ...(opts.concurrently ? { concurrently: true } : {}) }
}

/**
 * Adds a named CHECK constraint (`ALTER TABLE … ADD CONSTRAINT name CHECK (…)`): every row, those
 * already there included, must satisfy the SQL boolean expression. Declare it on the schema too
 * (`checks`), or with `checkConstraint` on a changeset, so a violation becomes a field error.
 *
 * On a table with rows PostgreSQL checks every row while it holds a lock that blocks reads and
 * writes (the `add-check` safety check). `{ notValid: true }` adds it `NOT VALID` instead: new and
 * changed rows are checked at once, the old ones are not read; `validateCheck` in a later
 * migration then checks them without blocking writes.
 *
 * @example
 * addCheck('products', 'price_positive', 'price > 0')
 * addCheck('products', 'price_positive', 'price > 0', { notValid: true })   // then validateCheck later
 */
export function addCheck(table: string, name: string, check: string, opts: { notValid?: boolean } = {}): Operation {
  return { op: 'addCheck', table, name, check, ...(opts.notValid ? { notValid: true } : {}) }
}

/**
 * Checks the rows already in the table against a check added `NOT VALID`
 * (`ALTER TABLE … VALIDATE CONSTRAINT`): a scan that lets reads and writes go on meanwhile.
 *
 * @example
 * validateCheck('products', 'price_positive')
 */
export function validateCheck(table: string, name: string): Operation {
  return { op: 'validateCheck', table, name }
}

/**
 * Drops a CHECK constraint by name (`ALTER TABLE … DROP CONSTRAINT`).
 *
 * @example
 * dropCheck('products', 'price_positive')
 */
export function dropCheck(table: string, name: string): Operation {
  return { op: 'dropCheck', table, name }
}

/**
 * Runs raw SQL, for data changes and what the other operations cannot say. Invisible to the
 * generator: a table made here is unknown to the model replay. The SQL may be deferred
 * (`DeferredSql`): the migrator loads it as it applies the migration.
 *
 * @example
 * execute('UPDATE notes SET user_id = users.id FROM users WHERE users.name = notes.author')
 *
 * // SQL produced when the migration runs (a package loaded only then):
 * execute({ about: 'audit triggers', load: async () => (await import('./audit-sql.ts')).triggersSql() })
 */
export function execute(sql: string | DeferredSql): Operation {
  return { op: 'execute', sql }
}
