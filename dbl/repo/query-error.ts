/**
 * Why a query failed, in the form telemetry reports it: a low-cardinality `type` to group and
 * alert on, and the error's message. Only read when a query failed and someone listens.
 */

/** Why a query failed, as a `QueryEvent`'s `reason`. */
export interface QueryErrorReason {
  /**
   * The PostgreSQL SQLSTATE for an error the server raised (`23505`, `42601`); else the error's
   * string `code` (`VELA_ERR_DB_UNAVAILABLE`, `VELA_ERR_DB_OUTCOME_UNKNOWN`, `ECONNRESET`); else its
   * `name` (`Error`). The span's `error.type` holds the same value.
   */
  readonly type: string
  readonly message: string
}

// Five characters, digits and capitals: Node's own codes (ECONNREFUSED) and Vela's are longer.
const SQLSTATE = /^[0-9A-Z]{5}$/

/** The SQLSTATE of an error the server raised, or undefined. */
export function sqlState(error: unknown): string | undefined {
  const code = typeof error === 'object' && error !== null ? (error as { code?: unknown }).code : undefined
  return typeof code === 'string' && SQLSTATE.test(code) ? code : undefined
}

/** The `reason` of a failed query's event. */
export function queryErrorReason(error: unknown): QueryErrorReason {
  if (typeof error !== 'object' || error === null) return { type: '_OTHER', message: String(error) }
  const { code, name, message } = error as { code?: unknown; name?: unknown; message?: unknown }
  const type = typeof code === 'string' && code !== '' ? code : typeof name === 'string' ? name : '_OTHER'
  return { type, message: typeof message === 'string' ? message : String(error) }
}
