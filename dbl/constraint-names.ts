/**
 * The names a unique constraint over some columns can have in the database, so a reported
 * violation maps back to the fields whatever created the constraint:
 *
 * - Vela's (Ecto's) index name `<table>_<columns>_index`, what generated migrations create;
 * - PostgreSQL's own name for an unnamed `UNIQUE` (a column's `unique`, or `UNIQUE (a, b)` in a
 *   hand-written migration): `<table>_<columns>_key`, which PostgreSQL shortens to 63 bytes by
 *   trimming the longer of the table part and the columns part;
 * - any name PostgreSQL stores cut to its first 63 bytes (it truncates longer identifiers).
 */

/**
 * PostgreSQL's default name for the foreign key on `table.column` (or on several columns), which
 * every migration Vela writes uses and the changeset constraints expect.
 *
 * @example
 * fkeyName('notes', 'user_id')                 // 'notes_user_id_fkey'
 * fkeyName('line_notes', ['order_id', 'line_no']) // 'line_notes_order_id_line_no_fkey'
 */
export function fkeyName(table: string, column: string | readonly string[]): string {
  return `${table}_${typeof column === 'string' ? column : column.join('_')}_fkey`
}

/** PostgreSQL's longest identifier, in bytes (NAMEDATALEN - 1). */
const MAX_IDENTIFIER = 63

/** The longest prefix of `name` that fits in `bytes` UTF-8 bytes without splitting a character. */
function clip(name: string, bytes: number): string {
  let used = 0
  let out = ''
  for (const ch of name) {
    used += Buffer.byteLength(ch)
    if (used > bytes) break
    out += ch
  }
  return out
}

/** A name as PostgreSQL stores it: cut to 63 bytes, never inside a character. */
export function storedName(name: string): string {
  return Buffer.byteLength(name) > MAX_IDENTIFIER ? clip(name, MAX_IDENTIFIER) : name
}

/**
 * PostgreSQL's name for an unnamed UNIQUE constraint over `columns` of `table` (its
 * `makeObjectName`): `<table>_<columns joined by _>_key`, the longer part trimmed a byte at a time
 * until the whole fits in 63 bytes. A second constraint over the same columns gets `_key1`, which
 * needs an explicit name to be matched.
 */
export function pgUniqueKeyName(table: string, columns: readonly string[]): string {
  const cols = columns.join('_')
  let a = Buffer.byteLength(table)
  let b = Buffer.byteLength(cols)
  const room = MAX_IDENTIFIER - '_'.length - '_key'.length
  while (a + b > room) {
    if (a > b) a--
    else b--
  }
  return `${clip(table, a)}_${clip(cols, b)}_key`
}

/** The names a unique constraint over `columns` has when nobody named it: `_index` (Vela), `_key` (PostgreSQL). */
export function defaultUniqueNames(table: string, columns: readonly string[]): readonly [string, string] {
  return [`${table}_${columns.join('_')}_index`, pgUniqueKeyName(table, columns)]
}

/** Whether a constraint name the database reported is `declared` (as PostgreSQL would have stored it). */
export function sameConstraintName(declared: string, reported: string | undefined): boolean {
  return reported !== undefined && (declared === reported || storedName(declared) === reported)
}
