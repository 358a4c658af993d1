/**
 * Reads tables, columns and indexes back from the database catalog and checks them against a model,
 * closing the loop: what the migrations say and what PostgreSQL actually holds must agree. Type
 * names are PostgreSQL's own spellings (format_type), written out here independently of ddl.ts, and
 * defaults are compared by evaluating the catalog's default expression, not by comparing SQL text.
 */
import { expect } from 'vitest'
import type { Connection } from '../../adapters/adapter.ts'
import type { FieldType } from '../../schema.ts'
import type { Model } from '../model.ts'

function pgTypeName(type: FieldType, size: number | undefined): string {
  if (typeof type === 'object')
    return 'enum' in type ? 'character varying(255)' : 'array' in type ? `${pgTypeName(type.array, size)}[]` : 'jsonb'
  const names: Record<string, string> = {
    id: 'bigint',
    string: `character varying(${size ?? 255})`,
    text: 'text',
    integer: 'integer',
    float: 'double precision',
    boolean: 'boolean',
    utc_datetime: 'timestamp with time zone',
    date: 'date',
    uuid: 'uuid',
    jsonb: 'jsonb',
  }
  return names[type]!
}

/** What a default reads back as through the adapters (dates as 'YYYY-MM-DD', timestamps as Date). */
function expectedValue(type: FieldType, value: unknown): unknown {
  if (type === 'date' && value instanceof Date) return value.toISOString().slice(0, 10)
  if (type === 'utc_datetime' && typeof value === 'string') return new Date(value)
  return value
}

export interface CatalogColumn {
  table: string
  column: string
  type: string
  nullable: boolean
  default: string | null
}
export type CatalogIndex = {
  table: string
  name: string
  unique: boolean
  columns: string[]
  /** A partial index's predicate as PostgreSQL prints it back (`(deleted_at IS NULL)`), else null. */
  predicate: string | null
}
/** One-column foreign keys; `onDelete` / `onUpdate` are confdeltype / confupdtype spelled as our vocabulary. */
export interface CatalogForeignKey {
  table: string
  name: string
  column: string
  refTable: string
  refColumn: string
  onDelete: string
  onUpdate: string
}
/** A CHECK constraint; `definition` as PostgreSQL prints it back (`CHECK ((price > 0))`). */
export type CatalogCheck = {
  table: string
  name: string
  definition: string
}

const ON_DELETE: Record<string, string> = {
  a: 'no_action',
  r: 'restrict',
  c: 'cascade',
  n: 'set_null',
  d: 'set_default',
}

export async function readForeignKeys(conn: Connection): Promise<CatalogForeignKey[]> {
  const { rows } = await conn.query<{
    table: string
    name: string
    column: string
    ref_table: string
    ref_column: string
    deltype: string
    updtype: string
  }>(`
    SELECT t.relname AS table, con.conname AS name, a.attname AS column, rt.relname AS ref_table, ra.attname AS ref_column,
           con.confdeltype::text AS deltype, con.confupdtype::text AS updtype
    FROM pg_constraint con
    JOIN pg_class t ON t.oid = con.conrelid
    JOIN pg_class rt ON rt.oid = con.confrelid
    JOIN pg_namespace n ON n.oid = t.relnamespace
    JOIN pg_attribute a ON a.attrelid = con.conrelid AND a.attnum = con.conkey[1]
    JOIN pg_attribute ra ON ra.attrelid = con.confrelid AND ra.attnum = con.confkey[1]
    WHERE con.contype = 'f' AND n.nspname = 'public' AND cardinality(con.conkey) = 1
    ORDER BY t.relname, con.conname`)
  return rows.map((r) => ({
    table: r.table,
    name: r.name,
    column: r.column,
    refTable: r.ref_table,
    refColumn: r.ref_column,
    onDelete: ON_DELETE[r.deltype] ?? r.deltype,
    onUpdate: ON_DELETE[r.updtype] ?? r.updtype,
  }))
}

export async function readChecks(conn: Connection): Promise<CatalogCheck[]> {
  const { rows } = await conn.query<CatalogCheck>(`
    SELECT t.relname AS table, con.conname AS name, pg_get_constraintdef(con.oid) AS definition
    FROM pg_constraint con
    JOIN pg_class t ON t.oid = con.conrelid
    JOIN pg_namespace n ON n.oid = t.relnamespace
    WHERE con.contype = 'c' AND n.nspname = 'public'
    ORDER BY t.relname, con.conname`)
  return rows
}

/** Primary keys (as their column lists) and foreign keys over several columns, as `pg_get_constraintdef` writes them. */
export async function readKeys(conn: Connection): Promise<{ table: string; name: string; definition: string }[]> {
  const { rows } = await conn.query<{ table: string; name: string; definition: string }>(`
    SELECT t.relname AS table, con.conname AS name, pg_get_constraintdef(con.oid) AS definition
    FROM pg_constraint con
    JOIN pg_class t ON t.oid = con.conrelid
    JOIN pg_namespace n ON n.oid = t.relnamespace
    WHERE n.nspname = 'public' AND t.relname <> 'schema_migrations'
      AND (con.contype = 'p' OR (con.contype = 'f' AND cardinality(con.conkey) > 1))
    ORDER BY t.relname, con.conname`)
  return rows
}

const ACTION_SQL: Record<string, string> = {
  no_action: '',
  restrict: ' RESTRICT',
  cascade: ' CASCADE',
  set_null: ' SET NULL',
}
/** How `pg_get_constraintdef` writes a rule: nothing for the default. */
const rule = (on: string, action: string) => (ACTION_SQL[action] ? ` ON ${on}${ACTION_SQL[action]}` : '')

/** The primary keys and multi-column foreign keys the model describes, as `readKeys` reads them. */
function expectedKeyConstraints(model: Model): { table: string; name: string; definition: string }[] {
  return [...model.values()].flatMap((t) => {
    const keys = t.columns.filter((c) => c.primaryKey).map((c) => c.name)
    const pk = keys.length
      ? [{ table: t.name, name: `${t.name}_pkey`, definition: `PRIMARY KEY (${keys.join(', ')})` }]
      : []
    const fks = (t.foreignKeys ?? []).map((fk) => ({
      table: t.name,
      name: `${t.name}_${fk.columns.join('_')}_fkey`,
      definition: `FOREIGN KEY (${fk.columns.join(', ')}) REFERENCES ${fk.table}(${fk.referencedColumns.join(', ')})${rule('UPDATE', fk.onUpdate)}${rule('DELETE', fk.onDelete)}`,
    }))
    return [...pk, ...fks]
  })
}

export async function readCatalog(conn: Connection): Promise<{ columns: CatalogColumn[]; indexes: CatalogIndex[] }> {
  const columns = await conn.query<{
    table: string
    column: string
    type: string
    is_nullable: string
    column_default: string | null
  }>(`
    SELECT c.table_name AS table, c.column_name AS column, c.is_nullable, c.column_default,
           format_type(a.atttypid, a.atttypmod) AS type
    FROM information_schema.columns c
    JOIN pg_attribute a ON a.attrelid = format('%I.%I', c.table_schema, c.table_name)::regclass AND a.attname = c.column_name
    WHERE c.table_schema = 'public' AND c.table_name <> 'schema_migrations'
    ORDER BY c.table_name, c.ordinal_position`)
  const indexes = await conn.query<CatalogIndex>(`
    SELECT t.relname AS table, i.relname AS name, ix.indisunique AS unique,
           array(SELECT a.attname::text FROM unnest(ix.indkey) WITH ORDINALITY k(attnum, ord)
                 JOIN pg_attribute a ON a.attrelid = t.oid AND a.attnum = k.attnum ORDER BY k.ord)::text[] AS columns,
           pg_get_expr(ix.indpred, ix.indrelid) AS predicate
    FROM pg_index ix
    JOIN pg_class i ON i.oid = ix.indexrelid
    JOIN pg_class t ON t.oid = ix.indrelid
    JOIN pg_namespace n ON n.oid = t.relnamespace
    WHERE n.nspname = 'public' AND NOT ix.indisprimary AND t.relname <> 'schema_migrations'
    ORDER BY t.relname, i.relname`)
  return {
    columns: columns.rows.map((r) => ({
      table: r.table,
      column: r.column,
      type: r.type,
      nullable: r.is_nullable === 'YES',
      default: r.column_default,
    })),
    indexes: indexes.rows,
  }
}

/**
 * Asserts the database holds exactly the model: tables, column types, nullability, defaults,
 * indexes (whether partial), foreign keys (ON DELETE and ON UPDATE) and checks (by name). SQL
 * expressions come back in PostgreSQL's own spelling, so the cases assert their text themselves.
 */
export async function expectCatalogMatches(conn: Connection, model: Model): Promise<void> {
  const catalog = await readCatalog(conn)
  const expectedColumns: Omit<CatalogColumn, 'default'>[] = []
  for (const t of model.values()) {
    for (const c of t.columns)
      expectedColumns.push({ table: t.name, column: c.name, type: pgTypeName(c.type, c.size), nullable: c.nullable })
  }
  const sortKey = (c: { table: string; column: string }) => `${c.table}.${c.column}`
  expect(catalog.columns.map(({ default: _, ...c }) => c).sort((a, b) => sortKey(a).localeCompare(sortKey(b)))).toEqual(
    expectedColumns.sort((a, b) => sortKey(a).localeCompare(sortKey(b))),
  )
  for (const t of model.values()) {
    for (const c of t.columns) {
      const actual = catalog.columns.find((x) => x.table === t.name && x.column === c.name)!
      if (c.type === 'id') {
        expect(actual.default, `${t.name}.${c.name}`).toMatch(/^nextval\(/)
      } else if (
        c.type === 'uuid' &&
        c.primaryKey &&
        c.default === undefined &&
        t.columns.filter((x) => x.primaryKey).length === 1
      ) {
        expect(actual.default, `${t.name}.${c.name} is generated`).toBe('gen_random_uuid()')
      } else if (c.default === undefined) {
        expect(actual.default, `${t.name}.${c.name} has no default`).toBe(null)
      } else {
        expect(actual.default, `${t.name}.${c.name} has a default`).not.toBe(null)
        const { rows } = await conn.query<{ v: unknown }>(`SELECT (${actual.default}) AS v`)
        expect(rows[0]!.v, `default of ${t.name}.${c.name}`).toEqual(expectedValue(c.type, c.default))
      }
    }
  }
  const expectedIndexes = [...model.values()].flatMap((t) =>
    t.indexes.map((ix) => ({
      table: t.name,
      name: ix.name,
      unique: ix.unique,
      columns: [...ix.columns],
      partial: ix.where !== undefined,
    })),
  )
  const ixKey = (i: { table: string; name: string }) => `${i.table}.${i.name}`
  expect(
    catalog.indexes
      .map(({ predicate, ...ix }) => ({ ...ix, partial: predicate !== null }))
      .sort((a, b) => ixKey(a).localeCompare(ixKey(b))),
  ).toEqual(expectedIndexes.sort((a, b) => ixKey(a).localeCompare(ixKey(b))))
  const expectedChecks = [...model.values()].flatMap((t) => t.checks.map((c) => ({ table: t.name, name: c.name })))
  expect(
    (await readChecks(conn))
      .map(({ table, name }) => ({ table, name }))
      .sort((a, b) => ixKey(a).localeCompare(ixKey(b))),
  ).toEqual(expectedChecks.sort((a, b) => ixKey(a).localeCompare(ixKey(b))))
  // Named as PostgreSQL would name them itself, so a later migration can drop them by that name.
  const expectedKeys = [...model.values()].flatMap((t) =>
    t.columns.flatMap((c) =>
      c.references
        ? [
            {
              table: t.name,
              name: `${t.name}_${c.name}_fkey`,
              column: c.name,
              refTable: c.references.table,
              refColumn: c.references.column,
              onDelete: c.references.onDelete,
              onUpdate: c.references.onUpdate,
            },
          ]
        : [],
    ),
  )
  const byName = (k: { table: string; name: string }) => `${k.table}.${k.name}`
  expect(
    (await readKeys(conn)).sort((a, b) => byName(a).localeCompare(byName(b))),
    'primary keys, multi-column foreign keys',
  ).toEqual(expectedKeyConstraints(model).sort((a, b) => byName(a).localeCompare(byName(b))))
  const fkKey = (k: CatalogForeignKey) => `${k.table}.${k.name}`
  expect((await readForeignKeys(conn)).sort((a, b) => fkKey(a).localeCompare(fkKey(b)))).toEqual(
    expectedKeys.sort((a, b) => fkKey(a).localeCompare(fkKey(b))),
  )
}
