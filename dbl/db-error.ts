/**
 * Errors raised by the database server, turned into data. The repository never throws them for
 * anything a user's input can cause: declared constraints become changeset field errors
 * (see constraints.ts), everything else comes back as `{ ok: false, error: DbError }`.
 *
 * A `DbError` is an `Error`, so a handler that gives up on one (`if (!res.ok) throw res.error`)
 * logs a stack that names the line of the repository call, and a development 500 page shows it.
 * Its fields (`kind`, `code`, `constraint`, …) are own properties, so `error.code === '23505'`
 * and `toMatchObject` checks read it as before, and `JSON.stringify` gives the same object.
 */

/** The kind of constraint a statement violated, as a `DbError`'s `constraintKind`. */
export type ConstraintKind = 'unique' | 'foreign_key' | 'check' | 'not_null' | 'exclusion'

/** What `toDbError` reads off a driver error; also `DbError`'s constructor argument. */
export interface DbErrorFields {
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

/**
 * An error the database server raised because of a statement or its values.
 *
 * `status` is what a request that fails on it should answer: 400 for a data exception (SQLSTATE
 * class 22: a value the column's type refuses, such as `'abc'` for a uuid or an integer out of
 * range), whose `message` is then shown to the client (`expose`); 500 otherwise.
 *
 * @example
 * const res = await repo.insert(cs)
 * if (!res.ok && isDbError(res.error) && res.error.code === '23503') return status(409)
 * if (!res.ok) throw res.error   // logged with the stack of this line; a 500 (400 for a bad value)
 */
export class DbError extends Error implements DbErrorFields {
  readonly kind = 'db_error' as const
  readonly code: string | undefined
  readonly constraintKind: ConstraintKind | undefined
  readonly constraint: string | undefined
  readonly table: string | undefined
  readonly column: string | undefined
  readonly detail: string | undefined
  /** 400 for a value the database refused (SQLSTATE class 22), else 500. */
  readonly status: 400 | 500
  /** Whether a client may see `message`: only for the 400s, which describe the value it sent. */
  readonly expose: boolean

  constructor(fields: DbErrorFields) {
    super(fields.message)
    this.code = fields.code
    this.constraintKind = fields.constraintKind
    this.constraint = fields.constraint
    this.table = fields.table
    this.column = fields.column
    this.detail = fields.detail
    this.status = fields.code?.startsWith('22') ? 400 : 500
    this.expose = this.status === 400
  }

  /** The fields as a plain object (what JSON bodies and logs of `{ ok: false, error }` show). */
  toJSON(): DbErrorFields & { readonly kind: 'db_error' } {
    const { kind, code, message, constraintKind, constraint, table, column, detail } = this
    return { kind, code, message, constraintKind, constraint, table, column, detail }
  }
}
// On the prototype, so `name` is neither an own property nor printed among the fields.
Object.defineProperty(DbError.prototype, 'name', { value: 'DbError', writable: true, configurable: true })

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

/**
 * Both `pg` (DatabaseError) and PGlite expose the server's fields under the same names. The stack
 * is taken here, so it runs through the repository call the application awaited. **Choice:** the
 * driver's error is not kept as `cause`: its stack is the driver's protocol parser, and the fields
 * worth reading are copied.
 */
export function toDbError(error: unknown): DbError {
  const e = (typeof error === 'object' && error !== null ? error : {}) as DriverError
  const code = str(e.code)
  return new DbError({
    code,
    message: str(e.message) ?? String(error),
    constraintKind: code ? constraintKinds[code] : undefined,
    constraint: str(e.constraint),
    table: str(e.table),
    column: str(e.column),
    detail: str(e.detail),
  })
}

/** A server answer caused by the statement or its values, as opposed to a lost connection or a bug. */
export function isServerError(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false
  const code = (error as DriverError).code
  // SQLSTATE: five characters, digits and capitals. Node's own errors use names like ECONNREFUSED.
  return typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code) && !code.startsWith('08')
}

/**
 * Whether a repository error is a `DbError` (as opposed to `'not_found'` or a changeset). By shape,
 * so a `DbError` from another copy of `vela/dbl` counts too.
 *
 * @example
 * const res = await repo.insert(cs)
 * if (!res.ok && isDbError(res.error)) console.warn(res.error.code, res.error.constraint)
 */
export function isDbError(value: unknown): value is DbError {
  return typeof value === 'object' && value !== null && (value as { kind?: unknown }).kind === 'db_error'
}
