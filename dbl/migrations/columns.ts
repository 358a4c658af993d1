/**
 * The column vocabulary mapped to PostgreSQL: normalisation (so the generator compares like with
 * like), SQL type names and default literals. Shared by the DDL compiler and the diff, so "what the
 * DDL writes" and "what the diff considers equal" cannot drift apart.
 *
 * `utc_datetime` is `timestamptz`. Ecto uses `timestamp` holding UTC, but node-postgres parses a
 * timestamp without zone in the *process* time zone, so the same row would read differently on two
 * machines; `timestamptz` is an absolute instant on every driver and PGlite alike.
 */
import type { FieldType } from '../schema.ts'
import type { Column, ForeignKey, OnDelete, OnUpdate, References } from './operations.ts'

export interface ResolvedReferences {
  readonly table: string
  readonly column: string
  readonly onDelete: OnDelete
  readonly onUpdate: OnUpdate
}

/** A column with every option resolved; what models hold and the diff compares. */
export interface ResolvedColumn {
  readonly name: string
  readonly type: FieldType
  readonly primaryKey: boolean
  readonly nullable: boolean
  /** `undefined` = no default (a `null` default is the same as none). */
  readonly default: unknown
  /** Only kept when it matters: a `string` (or array of `string`) whose size is not 255. */
  readonly size: number | undefined
  /** The foreign key, if any. */
  readonly references: ResolvedReferences | undefined
}

const MAX_IDENTIFIER = 63

/** Quotes an identifier; refuses names PostgreSQL would silently truncate. */
export function ident(name: string): string {
  if (name.length === 0) throw new Error('an empty name is not a valid table, column or index name')
  if (Buffer.byteLength(name) > MAX_IDENTIFIER) {
    throw new Error(`"${name}" is longer than ${MAX_IDENTIFIER} bytes; PostgreSQL would truncate it`)
  }
  if (name.includes('\0')) throw new Error('a name cannot contain a NUL character')
  return `"${name.replaceAll('"', '""')}"`
}

/**
 * Enums are VARCHAR(255) columns: their values live in the cast, so the column never sees them.
 * Embedded schemas (`embedsOne` / `embedsMany`) are jsonb columns.
 */
export function storedType(type: FieldType): FieldType {
  if (typeof type === 'string') return type
  if ('enum' in type) return 'string'
  if ('embedsOne' in type || 'embedsMany' in type) return 'jsonb'
  return { array: storedType(type.array) }
}

function baseType(type: FieldType): FieldType {
  return typeof type === 'object' && 'array' in type ? baseType(type.array) : type
}

export function resolveColumn(column: Column): ResolvedColumn {
  const type = storedType(column.type)
  const primaryKey = column.primaryKey ?? false
  const size = baseType(type) === 'string' && column.size !== undefined && column.size !== 255 ? column.size : undefined
  if (size !== undefined && !(Number.isInteger(size) && size > 0 && size <= 10485760)) {
    throw new Error(`column ${column.name}: size ${size} is not a VARCHAR size (1 to 10485760)`)
  }
  if (type === 'id' && column.default !== undefined && column.default !== null) {
    throw new Error(`column ${column.name}: an id column takes its default from its sequence; remove \`default\``)
  }
  return {
    name: column.name,
    type,
    primaryKey,
    nullable: primaryKey ? false : (column.nullable ?? type !== 'id'),
    default: column.default === null ? undefined : column.default,
    size,
    references: column.references ? resolveReferences(column.references, `column ${column.name}`) : undefined,
  }
}

const ON_DELETE: Record<OnDelete, string> = {
  no_action: 'NO ACTION',
  restrict: 'RESTRICT',
  cascade: 'CASCADE',
  set_null: 'SET NULL',
}

/** A rule of `onDelete` / `onUpdate` (one vocabulary), defaulted and checked. */
function referentialAction(value: OnDelete | undefined, option: string, where: string): OnDelete {
  const action = value ?? 'no_action'
  if (!Object.hasOwn(ON_DELETE, action)) {
    throw new Error(`${where}: ${option} ${JSON.stringify(action)} is not one of ${Object.keys(ON_DELETE).join(', ')}`)
  }
  return action
}

export function resolveReferences(refs: References, where: string): ResolvedReferences {
  const onDelete = referentialAction(refs.onDelete, 'onDelete', where)
  const onUpdate = referentialAction(refs.onUpdate, 'onUpdate', where)
  if (typeof refs.table !== 'string' || refs.table === '') throw new Error(`${where}: references needs a \`table\``)
  return { table: refs.table, column: refs.column ?? 'id', onDelete, onUpdate }
}

/** The SQL of a referential action (`cascade` → `CASCADE`), for ON DELETE and ON UPDATE alike. */
export const actionSql = (action: OnDelete): string => ON_DELETE[action]

export { fkeyName } from '../constraint-names.ts'

/** A foreign key over several columns with every option resolved; what models hold and the diff compares. */
export interface ResolvedForeignKey {
  readonly columns: readonly string[]
  readonly table: string
  readonly referencedColumns: readonly string[]
  readonly onDelete: OnDelete
  readonly onUpdate: OnUpdate
}

export function resolveForeignKey(fk: ForeignKey, where: string): ResolvedForeignKey {
  const at = `${where}: foreign key (${fk.columns?.join(', ')})`
  if (!Array.isArray(fk.columns) || fk.columns.length < 2)
    throw new Error(`${at}: list two columns or more (a one-column key is the column's \`references\`)`)
  if (new Set(fk.columns).size !== fk.columns.length) throw new Error(`${at}: a column is named twice`)
  const refs = fk.references
  const { table, onDelete, onUpdate } = resolveReferences(
    { table: refs?.table, onDelete: refs?.onDelete, onUpdate: refs?.onUpdate },
    at,
  )
  if (!Array.isArray(refs.columns) || refs.columns.length !== fk.columns.length)
    throw new Error(`${at}: references.columns must list as many columns of ${table} (${fk.columns.length})`)
  return { columns: [...fk.columns], table, referencedColumns: [...refs.columns], onDelete, onUpdate }
}

/** Equal when the same constraint would be written. */
export function sameForeignKey(a: ResolvedForeignKey, b: ResolvedForeignKey): boolean {
  return (
    a.table === b.table &&
    a.onDelete === b.onDelete &&
    a.onUpdate === b.onUpdate &&
    a.columns.join('\0') === b.columns.join('\0') &&
    a.referencedColumns.join('\0') === b.referencedColumns.join('\0')
  )
}

/** Equal when the same constraint would be written; undefined = none. */
export function sameReferences(a: ResolvedReferences | undefined, b: ResolvedReferences | undefined): boolean {
  if (!a || !b) return a === b
  return a.table === b.table && a.column === b.column && a.onDelete === b.onDelete && a.onUpdate === b.onUpdate
}

/** The SQL type; `serial` picks BIGSERIAL for `id` where a column is created. */
export function sqlType(type: FieldType, size?: number, serial = true): string {
  if (typeof type === 'object') {
    if ('enum' in type) return 'varchar(255)'
    if (!('array' in type)) return 'jsonb'
    return `${sqlType(type.array, size, false)}[]`
  }
  switch (type) {
    case 'id':
      return serial ? 'bigserial' : 'bigint'
    case 'string':
      return `varchar(${size ?? 255})`
    case 'text':
      return 'text'
    case 'integer':
      return 'integer'
    case 'float':
      return 'double precision'
    case 'boolean':
      return 'boolean'
    case 'utc_datetime':
      return 'timestamptz'
    case 'date':
      return 'date'
    case 'uuid':
      return 'uuid'
    case 'jsonb':
      return 'jsonb'
  }
  throw new Error(`unknown column type ${JSON.stringify(type)}`)
}

export function typeLabel(type: FieldType): string {
  return typeof type === 'string' ? type : JSON.stringify(type)
}

const quote = (s: string) => {
  if (s.includes('\0')) throw new Error('a default cannot contain a NUL character')
  return `'${s.replaceAll("'", "''")}'`
}

/** Text of one PostgreSQL array element (`{...}` literal syntax). */
function arrayElement(value: unknown, type: FieldType, where: string): string {
  if (value === null) return 'NULL'
  if (Array.isArray(value)) return `{${value.map((v) => arrayElement(v, type, where)).join(',')}}`
  const text = scalarText(value, baseType(type), where)
  return `"${text.replaceAll('\\', '\\\\').replaceAll('"', '\\"')}"`
}

/** A scalar default as the text PostgreSQL parses for `type`. */
function scalarText(value: unknown, type: FieldType, where: string): string {
  const bad = () => new Error(`${where}: default ${describe(value)} does not fit type ${typeLabel(type)}`)
  switch (type) {
    case 'integer':
    case 'id':
      if (typeof value !== 'number' || !Number.isSafeInteger(value)) throw bad()
      return String(value)
    case 'float':
      if (typeof value !== 'number' || !Number.isFinite(value)) throw bad()
      return String(value)
    case 'boolean':
      if (typeof value !== 'boolean') throw bad()
      return String(value)
    case 'utc_datetime':
      if (value instanceof Date && !Number.isNaN(value.getTime())) return value.toISOString()
      if (typeof value !== 'string') throw bad()
      return value
    case 'date':
      if (value instanceof Date && !Number.isNaN(value.getTime())) return value.toISOString().slice(0, 10)
      if (typeof value !== 'string') throw bad()
      return value
    case 'string':
    case 'text':
    case 'uuid':
      if (typeof value !== 'string') throw bad()
      return value
    case 'jsonb': {
      const json = JSON.stringify(value)
      if (json === undefined) throw bad()
      return json
    }
  }
  throw bad()
}

function describe(value: unknown): string {
  if (value instanceof Date) return `Date(${value.toISOString()})`
  return JSON.stringify(value) ?? String(value)
}

/**
 * The SQL literal for a default, or undefined when there is none. Every value becomes a quoted
 * text literal that PostgreSQL coerces to the column's type, so one form serves all types and the
 * literal is also a stable key for "did the default change".
 */
export function defaultSql(value: unknown, type: FieldType, where: string): string | undefined {
  if (value === undefined || value === null) return undefined
  const stored = storedType(type)
  if (typeof stored === 'object') {
    if (!Array.isArray(value))
      throw new Error(`${where}: default ${describe(value)} does not fit type ${typeLabel(type)}`)
    return quote(arrayElement(value, stored, where))
  }
  return quote(scalarText(value, stored, where))
}

/**
 * The default the database computes for a key column the schema gives no default: a uuid primary
 * key gets `gen_random_uuid()` (built into PostgreSQL since 13, and into PGlite), so an insert
 * without an id gets one, as an `id` key gets its sequence's next value. Only for a key of one
 * column: the columns of a composite key are always given.
 */
export function generatedDefaultSql(column: ResolvedColumn, singleKey: boolean): string | undefined {
  return singleKey && column.primaryKey && column.type === 'uuid' && column.default === undefined
    ? 'gen_random_uuid()'
    : undefined
}

/** A default written without a known column type (a hand-written `modifyColumn` with `default` only). */
export function untypedDefaultSql(value: unknown, where: string): string | undefined {
  if (value === undefined || value === null) return undefined
  if (Array.isArray(value)) {
    throw new Error(`${where}: an array default needs the column's \`type\` next to it (PostgreSQL array or jsonb?)`)
  }
  if (typeof value === 'object' && !(value instanceof Date)) return defaultSql(value, 'jsonb', where)
  if (typeof value === 'number') return defaultSql(value, Number.isInteger(value) ? 'integer' : 'float', where)
  if (typeof value === 'boolean') return defaultSql(value, 'boolean', where)
  if (value instanceof Date) return defaultSql(value, 'utc_datetime', where)
  return defaultSql(value, 'text', where)
}
