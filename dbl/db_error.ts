/**
 * Errors raised by the database server, turned into data. The repository never throws them for
 * anything a user's input can cause: declared constraints become changeset field errors
 * (see constraints.ts), everything else comes back as `{ ok: false, error: DbError }`.
 */

export type ConstraintKind = 'unique' | 'foreign_key' | 'check' | 'not_null' | 'exclusion'

export interface DbError {
  readonly kind: 'db_error'
  /** PostgreSQL SQLSTATE, e.g. `23505`; `undefined` when the driver failed before the server answered. */
  readonly code: string | undefined
  readonly message: string
  /** Set for integrity violations (class 23). */
  readonly constraintKind: ConstraintKind | undefined
  readonly constraint: string | undefined
  readonly table: string | undefined
  readonly column: string | undefined
  readonly detail: string | undefined
}

const constraintKinds: Record<string, ConstraintKind> = {
  '23505': 'unique',
  '23503': 'foreign_key',
  // restrict_violation: ON DELETE RESTRICT refusing the delete of a still referenced row.
  '23001': 'foreign_key',
  '23514': 'check',
  '23502': 'not_null',
  '23P01': 'exclusion',
}

interface DriverError {
  code?: unknown
  message?: unknown
  constraint?: unknown
  table?: unknown
  column?: unknown
  detail?: unknown
}

const str = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined)

/** Both `pg` (DatabaseError) and PGlite expose the server's fields under the same names. */
export function toDbError(error: unknown): DbError {
  const e = (typeof error === 'object' && error !== null ? error : {}) as DriverError
  const code = str(e.code)
  return {
    kind: 'db_error',
    code,
    message: str(e.message) ?? String(error),
    constraintKind: code ? constraintKinds[code] : undefined,
    constraint: str(e.constraint),
    table: str(e.table),
    column: str(e.column),
    detail: str(e.detail),
  }
}

/** A server answer caused by the statement or its values, as opposed to a lost connection or a bug. */
export function isServerError(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false
  const code = (error as DriverError).code
  // SQLSTATE: five characters, digits and capitals. Node's own errors use names like ECONNREFUSED.
  return typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code) && !code.startsWith('08')
}

export function isDbError(value: unknown): value is DbError {
  return typeof value === 'object' && value !== null && (value as { kind?: unknown }).kind === 'db_error'
}
