/**
 * Operations → PostgreSQL DDL (15 on servers, 18 in PGlite; nothing here differs between them).
 *
 * A small compiler of our own rather than knex's schema builder: knex's `.alter()` re-emits type,
 * nullability and default together (dropping the default as a side effect), which cannot express
 * "change only the default" and would make a generated migration do more than the diff found. We do
 * use the same literal rules as the diff (`columns.ts`), so what is compared is what is written.
 */
import type { FieldType } from '../schema.ts'
import type { Column, ColumnChange, ForeignKey, Operation } from './operations.ts'
import {
  defaultSql,
  fkeyName,
  generatedDefaultSql,
  ident,
  actionSql,
  resolveColumn,
  resolveForeignKey,
  resolveReferences,
  sqlType,
  untypedDefaultSql,
  type ResolvedColumn,
  type ResolvedReferences,
} from './columns.ts'

/**
 * `REFERENCES "users" ("id") ON DELETE … [ON UPDATE …]`; ON DELETE is always written, so the file
 * says it; ON UPDATE only when it is not PostgreSQL's default (NO ACTION), as most keys never change.
 */
function referencesSql(refs: ResolvedReferences): string {
  const onUpdate = refs.onUpdate === 'no_action' ? '' : ` ON UPDATE ${actionSql(refs.onUpdate)}`
  return `REFERENCES ${ident(refs.table)} (${ident(refs.column)}) ON DELETE ${actionSql(refs.onDelete)}${onUpdate}`
}

function columnDefinition(table: string, column: ResolvedColumn, inlinePrimaryKey: boolean): string {
  const parts = [ident(column.name), sqlType(column.type, column.size)]
  if (column.primaryKey && inlinePrimaryKey) parts.push('PRIMARY KEY')
  else if (!column.nullable) parts.push('NOT NULL')
  const def =
    defaultSql(column.default, column.type, `column ${table}.${column.name}`) ??
    generatedDefaultSql(column, inlinePrimaryKey)
  if (def !== undefined) parts.push(`DEFAULT ${def}`)
  if (column.references)
    parts.push(`CONSTRAINT ${ident(fkeyName(table, column.name))} ${referencesSql(column.references)}`)
  return parts.join(' ')
}

/** `CONSTRAINT "<t>_<a>_<b>_fkey" FOREIGN KEY ("a", "b") REFERENCES "t" ("a", "b") ON DELETE …`. */
function foreignKeySql(table: string, fk: ForeignKey): string {
  const r = resolveForeignKey(fk, `table ${table}`)
  const list = (cols: readonly string[]) => cols.map(ident).join(', ')
  return (
    `CONSTRAINT ${ident(fkeyName(table, r.columns))} FOREIGN KEY (${list(r.columns)}) ` +
    `REFERENCES ${ident(r.table)} (${list(r.referencedColumns)}) ON DELETE ${actionSql(r.onDelete)}` +
    (r.onUpdate === 'no_action' ? '' : ` ON UPDATE ${actionSql(r.onUpdate)}`)
  )
}

function createTableSql(table: string, columns: readonly Column[], foreignKeys: readonly ForeignKey[] = []): string {
  if (columns.length === 0) throw new Error(`createTable ${table}: a table needs at least one column`)
  const resolved = columns.map(resolveColumn)
  const seen = new Set<string>()
  for (const c of resolved) {
    if (seen.has(c.name)) throw new Error(`createTable ${table}: column "${c.name}" appears twice`)
    seen.add(c.name)
  }
  const keys = resolved.filter((c) => c.primaryKey)
  // One key column is declared inline (PostgreSQL names the constraint <table>_pkey either way).
  const defs = resolved.map((c) => columnDefinition(table, c, keys.length === 1))
  if (keys.length > 1) defs.push(`PRIMARY KEY (${keys.map((c) => ident(c.name)).join(', ')})`)
  for (const fk of foreignKeys) defs.push(foreignKeySql(table, fk))
  return `CREATE TABLE ${ident(table)} (${defs.join(', ')})`
}

function alterSql(table: string, change: ColumnChange): string[] {
  const t = `ALTER TABLE ${ident(table)}`
  switch (change.change) {
    case 'addColumn': {
      const column = resolveColumn(change.column)
      return [`${t} ADD COLUMN ${columnDefinition(table, column, true)}`]
    }
    case 'dropColumn':
      return [`${t} DROP COLUMN ${ident(change.name)}`]
    case 'renameColumn':
      return [
        `${t} RENAME COLUMN ${ident(change.from)} TO ${ident(change.to)}`,
        ...renameFkeySql(table, change.from, change.to),
      ]
    case 'modifyColumn':
      return modifySql(table, change.name, change.set)
    case 'addForeignKey':
      return [`${t} ADD ${foreignKeySql(table, change.foreignKey)}`]
    case 'dropForeignKey':
      return [`${t} DROP CONSTRAINT ${ident(fkeyName(table, change.columns))}`]
    case 'setPrimaryKey': {
      if (change.columns.length === 0) throw new Error(`setPrimaryKey ${table}: name the key's columns`)
      // IF EXISTS: dropping one of its columns drops the old key too.
      const pkey = ident(`${table}_pkey`)
      return [
        `${t} DROP CONSTRAINT IF EXISTS ${pkey}`,
        `${t} ADD CONSTRAINT ${pkey} PRIMARY KEY (${change.columns.map(ident).join(', ')})`,
      ]
    }
  }
}

function modifySql(
  table: string,
  name: string,
  set: Extract<ColumnChange, { change: 'modifyColumn' }>['set'],
): string[] {
  const where = `modifyColumn ${table}.${name}`
  const col = `ALTER TABLE ${ident(table)} ALTER COLUMN ${ident(name)}`
  const out: string[] = []
  const changesDefault = set.default !== undefined
  if (set.size !== undefined && set.type === undefined) throw new Error(`${where}: \`size\` needs \`type\` next to it`)
  if (set.type === 'id')
    throw new Error(`${where}: a column cannot become an id (BIGSERIAL); add a new id column instead`)
  const fkey = () => ident(fkeyName(table, name))
  // The old foreign key goes before a type change and the new one comes last, so PostgreSQL checks
  // the existing rows against the final type. IF EXISTS: replacing and adding are one operation.
  if (set.references !== undefined) {
    out.push(`ALTER TABLE ${ident(table)} DROP CONSTRAINT ${set.references === null ? '' : 'IF EXISTS '}${fkey()}`)
  }
  // The old default is dropped before a type change: PostgreSQL would otherwise try to cast it.
  if (changesDefault) out.push(`${col} DROP DEFAULT`)
  if (set.type !== undefined) {
    const resolved = resolveColumn({ name, type: set.type, size: set.size })
    const type = sqlType(resolved.type, resolved.size, false)
    // Into text types PostgreSQL's own assignment cast is used: it fails on a value too long for a
    // smaller VARCHAR, where an explicit `USING c::varchar(n)` would silently truncate it. Other
    // targets (text → integer, …) have no assignment cast and need the explicit one.
    const base = textBase(resolved.type)
    out.push(base ? `${col} TYPE ${type}` : `${col} TYPE ${type} USING ${ident(name)}::${type}`)
  }
  if (changesDefault && set.default !== null) {
    const literal =
      set.type !== undefined ? defaultSql(set.default, set.type, where) : untypedDefaultSql(set.default, where)
    out.push(`${col} SET DEFAULT ${literal}`)
  }
  if (set.nullable !== undefined) out.push(`${col} ${set.nullable ? 'DROP' : 'SET'} NOT NULL`)
  if (set.references) {
    const refs = resolveReferences(set.references, where)
    out.push(`ALTER TABLE ${ident(table)} ADD CONSTRAINT ${fkey()} FOREIGN KEY (${ident(name)}) ${referencesSql(refs)}`)
  }
  if (out.length === 0) throw new Error(`${where}: nothing to modify (give type, nullable, default or references)`)
  return out
}

/**
 * PostgreSQL keeps a constraint's name when its column is renamed, so `<t>_<old>_fkey` would stay
 * and a later `references: null` (which drops `<t>_<new>_fkey`) would miss it. The rename carries
 * the constraint along. Operations compile without a model, so whether the column has a foreign key
 * is asked of the catalog at migrate time; a name too long for PostgreSQL was never created by us.
 */
function renameFkeySql(table: string, from: string, to: string): string[] {
  const [old, neu] = [fkeyName(table, from), fkeyName(table, to)]
  if (Buffer.byteLength(old) > 63 || Buffer.byteLength(neu) > 63) return []
  const text = (s: string) => `'${s.replaceAll("'", "''")}'`
  return [
    `DO $vela$ BEGIN IF EXISTS (SELECT 1 FROM pg_constraint WHERE conrelid = ${text(ident(table))}::regclass AND conname = ${text(old)}) ` +
      `THEN ALTER TABLE ${ident(table)} RENAME CONSTRAINT ${ident(old)} TO ${ident(neu)}; END IF; END $vela$`,
  ]
}

function textBase(type: FieldType): boolean {
  if (typeof type === 'object') return 'array' in type ? textBase(type.array) : true
  return type === 'string' || type === 'text'
}

/**
 * An app's SQL expression (a check, an index predicate), written between parentheses as it is:
 * it is the app's own code, like `execute`'s SQL. Only emptiness is refused here.
 */
function sqlExpression(sql: string, where: string): string {
  if (typeof sql !== 'string' || sql.trim() === '') throw new Error(`${where}: give a SQL expression`)
  return sql
}

/** The statements for one operation, in order. */
export function operationSql(op: Operation): string[] {
  switch (op.op) {
    case 'createTable':
      return [createTableSql(op.table, op.columns, op.foreignKeys)]
    case 'dropTable':
      return [`DROP TABLE ${ident(op.table)}`]
    case 'alterTable':
      if (op.changes.length === 0) throw new Error(`alterTable ${op.table}: no changes given`)
      return op.changes.flatMap((change) => alterSql(op.table, change))
    case 'createIndex': {
      if (op.columns.length === 0) throw new Error(`createIndex ${op.name}: no columns given`)
      const cols = op.columns.map(ident).join(', ')
      const how = op.concurrently ? 'CONCURRENTLY ' : ''
      const where = op.where === undefined ? '' : ` WHERE (${sqlExpression(op.where, `createIndex ${op.name}: where`)})`
      return [
        `CREATE ${op.unique ? 'UNIQUE ' : ''}INDEX ${how}${ident(op.name)} ON ${ident(op.table)} (${cols})${where}`,
      ]
    }
    case 'dropIndex':
      return [`DROP INDEX ${op.concurrently ? 'CONCURRENTLY ' : ''}${ident(op.name)}`]
    case 'addCheck':
      return [
        `ALTER TABLE ${ident(op.table)} ADD CONSTRAINT ${ident(op.name)} CHECK (${sqlExpression(op.check, `addCheck ${op.name}`)})${op.notValid ? ' NOT VALID' : ''}`,
      ]
    case 'validateCheck':
      return [`ALTER TABLE ${ident(op.table)} VALIDATE CONSTRAINT ${ident(op.name)}`]
    case 'dropCheck':
      return [`ALTER TABLE ${ident(op.table)} DROP CONSTRAINT ${ident(op.name)}`]
    case 'execute':
      // The migrator loads deferred SQL before compiling (migrator.ts).
      if (typeof op.sql !== 'string') throw new Error(`execute (${op.sql.about}): its SQL is not loaded yet`)
      return [op.sql]
  }
  throw new Error(`unknown migration operation ${JSON.stringify((op as { op?: unknown }).op)}`)
}

export function operationsSql(ops: readonly Operation[]): string[] {
  return ops.flatMap(operationSql)
}
