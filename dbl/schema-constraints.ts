/**
 * The table constraints a schema declares besides its fields — indexes (partial ones included) and
 * CHECK constraints — checked and resolved by `defineSchema`. Their SQL (a check's expression, a
 * partial index's predicate) is the app's own: it is kept as text, written into migrations as it
 * is, and compared as text by the migration generator, so a changed expression is a new constraint.
 */
import { isFieldRef, isSql, type Sql } from './query/fragment.ts'

/** An index `defineSchema` declares and the migration generator creates: its columns, and whether it is unique. */
export interface IndexSpec {
  /** Its fields (stored in their columns, for a field with a `column` of its own). */
  readonly columns: readonly string[]
  readonly unique?: boolean
  /** Defaults to `<table>_<columns joined by _>_index` (Ecto's naming), made of the column names. */
  readonly name?: string
  /**
   * A partial index: only rows matching this SQL predicate are indexed (`'deleted_at IS NULL'`),
   * so a unique one allows duplicates outside it. Raw SQL the app owns, written into migrations as
   * it is; a `sql` fragment may name fields with `field(…)`, but holds no values.
   */
  readonly where?: string | Sql
}

/** An index of a schema, every option resolved (`where` is the predicate's SQL text, or undefined). */
export interface SchemaIndex {
  readonly columns: readonly string[]
  readonly unique: boolean
  readonly name: string
  readonly where: string | undefined
}

/**
 * A named CHECK constraint `defineSchema` declares: the migration generator adds it to the table,
 * and the repository turns its violation into `message` on `field` rather than a database error.
 */
export interface CheckSpec<F extends string = string> {
  /** The constraint's name in the database (at most 63 bytes). */
  readonly name: string
  /**
   * The SQL boolean expression every row must satisfy (`'price > 0'`): raw SQL the app owns,
   * written into migrations as it is. A `sql` fragment may name fields with `field(…)` (checked
   * against the schema), but holds no values: DDL takes no parameters.
   */
  readonly check: string | Sql
  /** The field the error goes on; default the first field the expression names. */
  readonly field?: F
  /** Default "is invalid". */
  readonly message?: string
}

/** A check of a schema, every option resolved (`check` is the expression's SQL text). */
export interface SchemaCheck {
  readonly name: string
  readonly check: string
  readonly field: string
  readonly message: string
}

/** The schema's fields by name, as far as constraints care: a virtual field has no column. */
type Fields = Readonly<Record<string, { readonly virtual: boolean; readonly column: string }>>

/** PostgreSQL's longest identifier, in bytes: a longer name would be silently cut. */
const MAX_IDENTIFIER = 63

/** A column name quoted for SQL text. */
const quoted = (name: string) => `"${name.replaceAll('"', '""')}"`

/** A stored field's name, or an error naming `where`: constraints live on columns. */
/** The column of stored field `name` (throws for an unknown or virtual field). */
function storedField(table: string, byName: Fields, name: string, where: string): string {
  if (!byName[name] || byName[name].virtual) throw new Error(`schema ${table}: ${where} names unknown field "${name}"`)
  return byName[name].column
}

/**
 * A constraint's SQL as text. A `sql` fragment's `field(…)` references become quoted columns;
 * values are refused, since DDL takes no parameters (the literal belongs in the text).
 */
function sqlText(table: string, byName: Fields, expr: string | Sql, where: string): string {
  if (typeof expr === 'string') {
    if (expr.trim() === '') throw new Error(`schema ${table}: ${where} has an empty SQL expression`)
    return expr.trim()
  }
  if (!isSql(expr)) throw new Error(`schema ${table}: ${where} must be SQL text or a sql\`…\` fragment`)
  let out = expr.parts[0] ?? ''
  expr.args.forEach((arg, i) => {
    if (isFieldRef(arg)) out += quoted(storedField(table, byName, arg.ref, where))
    else if (isSql(arg)) out += sqlText(table, byName, arg, where)
    else
      throw new Error(
        `schema ${table}: ${where} holds the value ${JSON.stringify(arg)}; DDL takes no parameters, so write it into the SQL text`,
      )
    out += expr.parts[i + 1] ?? ''
  })
  return sqlText(table, byName, out, where)
}

/**
 * The identifiers an SQL expression's text may name, in order: its words and quoted names (string
 * literals skipped). Enough to tell which columns a check or a predicate uses without parsing SQL.
 */
export function sqlNames(text: string): string[] {
  const names: string[] = []
  for (const m of text.matchAll(/'(?:[^']|'')*'|"((?:[^"]|"")+)"|([A-Za-z_][A-Za-z0-9_$]*)/g)) {
    if (m[1] !== undefined) names.push(m[1].replaceAll('""', '"'))
    else if (m[2] !== undefined) names.push(m[2])
  }
  return names
}

/** The first stored field an expression names: a fragment's first `field(…)`, else the first matching name. */
function firstField(byName: Fields, expr: string | Sql, text: string): string | undefined {
  if (isSql(expr)) {
    for (const a of expr.args) {
      const f = isFieldRef(a) ? a.ref : isSql(a) ? firstField(byName, a, '') : undefined
      if (f) return f
    }
  }
  // The text names columns: the field stored in the first one the schema has.
  for (const name of sqlNames(text)) {
    for (const f in byName) if (byName[f]!.column === name && !byName[f]!.virtual) return f
  }
  return undefined
}

/** `indexes` of a definition: names defaulted (`<table>_<columns>_index`), columns and predicates checked. */
export function normaliseIndexes(table: string, byName: Fields, specs: readonly IndexSpec[]): SchemaIndex[] {
  return specs.map((ix) => {
    const label = ix.name ?? `${table}_${ix.columns.join('_')}_index`
    // The default name is made of the columns, as PostgreSQL and a hand-written migration name it.
    const stored = ix.columns.map((c) => storedField(table, byName, c, `index ${label}`))
    const name = ix.name ?? `${table}_${stored.join('_')}_index`
    const where = ix.where === undefined ? undefined : sqlText(table, byName, ix.where, `index ${name}'s where`)
    return { columns: ix.columns, unique: ix.unique ?? false, name, where }
  })
}

/** `checks` of a definition: names required and distinct, expressions as text, the error's field resolved. */
export function normaliseChecks(table: string, byName: Fields, specs: readonly CheckSpec[]): SchemaCheck[] {
  const seen = new Set<string>()
  return specs.map((c) => {
    if (typeof c?.name !== 'string' || c.name === '')
      throw new Error(`schema ${table}: a check needs a name ({ name: '<constraint>', check: '<SQL>' })`)
    if (seen.has(c.name)) throw new Error(`schema ${table}: two checks are named "${c.name}"`)
    seen.add(c.name)
    if (Buffer.byteLength(c.name) > MAX_IDENTIFIER)
      throw new Error(
        `schema ${table}: check name "${c.name}" is longer than ${MAX_IDENTIFIER} bytes; PostgreSQL would cut it`,
      )
    const where = `check ${c.name}`
    const check = sqlText(table, byName, c.check, where)
    const field = c.field ?? firstField(byName, c.check, check)
    if (field === undefined)
      throw new Error(
        `schema ${table}: ${where} names none of its fields; give the field its error goes on ({ field })`,
      )
    storedField(table, byName, field, where)
    return { name: c.name, check, field, message: c.message ?? 'is invalid' }
  })
}
