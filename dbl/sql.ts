/**
 * SQL text comes from knex, used only as a compiler (`toSQL().toNative()`, never its connection
 * layer). Compiling costs ~20 µs, a noticeable share of a 50 µs round trip, so each statement shape
 * (table, fields, operators: everything except the values) is compiled once with marker values and
 * cached; later calls only reorder their values into the cached parameter order.
 *
 * knex is loaded by the first statement that needs it (`loadKnex`), not with `vela/dbl`: the
 * commands that only read an app (`vela routes`, `audit`, `types`) import its schemas and
 * repository but run no statement, and knex with lodash is a sixth of their CPU.
 */
import type { Knex } from 'knex'
import { jsonText } from './cast.ts'
import { selectAs } from './column-names.ts'
import type { AnySchema, Field, FieldType } from './schema.ts'

/** knex as a SQL compiler; set once `loadKnex()` has resolved: check `if (!kx) await loadKnex()` first. */
export let kx: Knex
let loading: Promise<void> | undefined

/** Loads knex (once) and sets `kx`. */
export function loadKnex(): Promise<void> {
  loading ??= import('knex').then(({ default: knex }) => {
    kx = knex({ client: 'pg' })
  })
  return loading
}

export interface Compiled {
  readonly sql: string
  /** params[j] = values[order[j]]; undefined when the order is the identity. */
  readonly order: readonly number[] | undefined
}

// Markers stand in for values while knex compiles. Large numbers, because knex drops a falsy
// offset and treats arrays specially; numbers pass through its bindings unchanged.
const MARK = 1_000_000_000
const MAX_SHAPES = 5000
const cache = new Map<string, Compiled>()

export function marker(index: number): number {
  return MARK + index
}

interface Buildable {
  toSQL(): { toNative(): { sql: string; bindings: readonly unknown[] } }
}

/** The cached statement for `key`, compiling `build()` on first use. */
export function compiled(key: string, build: () => Buildable): Compiled {
  const hit = cache.get(key)
  if (hit) return hit
  const native = build().toSQL().toNative()
  const order = native.bindings.map((b) => {
    if (typeof b !== 'number' || b < MARK)
      throw new Error(`vela.dbl: unexpected literal binding ${String(b)} in ${native.sql}`)
    return b - MARK
  })
  const c: Compiled = { sql: native.sql, order: order.every((v, i) => v === i) ? undefined : order }
  // Shapes come from code, so they are few; the cap only guards against a generated-shape leak.
  if (cache.size >= MAX_SHAPES) cache.clear()
  cache.set(key, c)
  return c
}

export function paramsFor(c: Compiled, values: unknown[]): unknown[] {
  return c.order ? c.order.map((i) => values[i]) : values
}

/** A jsonb column: `jsonb` itself, or an embedded schema's `embedsOne` / `embedsMany`. */
export function isJsonField(field: Field): boolean {
  const t = field.type
  return typeof t === 'string' ? t === 'jsonb' : 'embedsOne' in t || 'embedsMany' in t
}

/**
 * A value as it goes to the driver. jsonb is serialised here because `pg` would send a JS array as
 * a PostgreSQL array literal, which jsonb rejects; everything else the drivers encode themselves.
 * A jsonb value JSON cannot carry (`jsonText`) throws a `JsonValueError` rather than being written
 * as something else; changeset writes turn it into "is invalid" on the field (repo/write.ts).
 */
export function dumpValue(field: Field, value: unknown): unknown {
  if (value === null || value === undefined || !isJsonField(field)) return value
  const text = jsonText(value)
  if (text === undefined) throw new JsonValueError(field.name)
  return text
}

/** A jsonb value JSON cannot carry, met while encoding a statement's values (see `jsonText`). */
export class JsonValueError extends TypeError {
  constructor(readonly field: string) {
    super(
      `vela.dbl: ${field}: a jsonb value JSON cannot carry (a function, a BigInt, a cycle, undefined in a list, NaN, a Map or Set, a NUL character)`,
    )
  }
}

export interface SchemaSql {
  /** Every stored field (virtual ones are not columns), in declaration order: what SELECT and RETURNING list. */
  readonly columns: readonly string[]
  /**
   * `columns` in knex's select syntax, each read back under its field name (`post_title as title`
   * for a field with a `column` of its own; the same list as `columns` when there is none).
   */
  readonly selectList: readonly string[]
  readonly jsonbFields: readonly string[]
  /** `embedsOne` / `embedsMany` fields: rows read back pass through `loadRows` (repo/load-rows.ts). */
  readonly embeds: readonly Field[]
  /** Enum fields and arrays of enum values: `loadRows` refuses a stored value the enum does not list. */
  readonly enums: readonly EnumColumn[]
}

/** A stored field whose values, or its array's elements (`depth` levels down), are an enum's. */
export interface EnumColumn {
  readonly name: string
  readonly values: readonly string[]
  readonly allowed: ReadonlySet<string>
  readonly depth: number
}

/**
 * The first value of `v` the enum does not list (for an array field, its first such element), or
 * undefined when all are listed. null is always fine (NOT NULL is the column's business), and so
 * is undefined (a select that left the field out).
 */
export function outsideEnum(e: EnumColumn, v: unknown, depth = e.depth): { readonly value: unknown } | undefined {
  if (v === null || v === undefined) return undefined
  if (depth === 0) return typeof v === 'string' && e.allowed.has(v) ? undefined : { value: v }
  if (!Array.isArray(v)) return { value: v }
  for (const x of v) {
    const bad = outsideEnum(e, x, depth - 1)
    if (bad) return bad
  }
  return undefined
}

function enumColumn(name: string, type: FieldType, depth = 0): EnumColumn | undefined {
  if (typeof type !== 'object') return undefined
  if ('enum' in type) return { name, values: type.enum, allowed: new Set(type.enum), depth }
  return 'array' in type ? enumColumn(name, type.array, depth + 1) : undefined
}

const schemaSql = new WeakMap<AnySchema, SchemaSql>()

export function sqlOf(schema: AnySchema): SchemaSql {
  let s = schemaSql.get(schema)
  if (!s) {
    if (schema.embedded)
      throw new Error(
        `schema ${schema.table} is embedded: it has no table; store it in a parent's embedsOne / embedsMany field`,
      )
    const stored = schema.fields.filter((f) => !f.virtual)
    const columns = stored.map((f) => f.name)
    s = {
      columns,
      selectList: schema.columnNames === undefined ? columns : columns.map((n) => selectAs(schema, n)),
      jsonbFields: stored.filter((f) => f.type === 'jsonb').map((f) => f.name),
      embeds: stored.filter((f) => typeof f.type === 'object' && ('embedsOne' in f.type || 'embedsMany' in f.type)),
      enums: stored.flatMap((f) => enumColumn(f.name, f.type) ?? []),
    }
    schemaSql.set(schema, s)
  }
  return s
}
