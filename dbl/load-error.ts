/**
 * `LoadError`: what a read throws when a stored value is not one its schema's field allows, as
 * Ecto raises when it cannot load a value (an `Ecto.Enum` field holding a value it does not list).
 * Returning the record would hand the app a value its type says cannot exist (`status: 'draft' |
 * 'live'` holding `'retired'`), so the bad row surfaces where it is read, naming what to fix.
 */

/**
 * A stored value outside its field's type: an enum field (or an array of enum values) holding a
 * value the schema's `enum` does not list, typically a value removed from the list while rows
 * still hold it, or written by SQL that bypassed the schema. A handler that lets it through
 * answers 500 (it is logged). Fix the data (`updateAll`, a migration) or add the value back.
 *
 * @example
 * try {
 *   await repo.all(from(Order))
 * } catch (e) {
 *   if (e instanceof LoadError) console.error(`${e.table}.${e.field} holds ${String(e.value)}; allowed: ${e.allowed.join(', ')}`)
 *   throw e
 * }
 */
export class LoadError extends Error {
  readonly kind = 'load_error' as const
  /** The schema's table. */
  readonly table: string
  readonly field: string
  /** The stored value (for an array field, its first element outside the enum). */
  readonly value: unknown
  /** The values the field's enum lists. */
  readonly allowed: readonly string[]
  readonly status = 500 as const

  constructor(table: string, field: string, value: unknown, allowed: readonly string[]) {
    super(
      `vela.dbl: cannot load ${table}.${field}: the row holds ${JSON.stringify(value)}, which is not one of its enum values ${allowed.map((v) => JSON.stringify(v)).join(', ')}; update the rows or add the value to the enum`,
    )
    this.table = table
    this.field = field
    this.value = value
    this.allowed = allowed
  }
}
Object.defineProperty(LoadError.prototype, 'name', { value: 'LoadError', writable: true, configurable: true })
