/**
 * Casting external input (form strings, JSON bodies) to a field's type. One caster per field type,
 * built once per schema and cached, so a changeset does no type dispatch per value.
 * A caster returns the cast value or `INVALID` (becomes Ecto's "is invalid" on the field).
 */
import type { AnySchema, FieldType } from './schema.ts'

export const INVALID: unique symbol = Symbol('vela.dbl.invalid')
export type Caster = (value: unknown) => unknown

// PostgreSQL INTEGER is 4 bytes; checking here turns an overflow into a field error, not a DB error.
const INT4_MIN = -2147483648
const INT4_MAX = 2147483647
const intPattern = /^[+-]?\d+$/
const floatPattern = /^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/
const uuidPattern = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/
const hex32Pattern = /^[0-9a-fA-F]{32}$/
const datePattern = /^(\d{4})-(\d{2})-(\d{2})$/
const dateTimePattern =
  /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2})(\.\d{1,9})?)?(Z|[+-]\d{2}(?::?\d{2})?)?$/i

function integer(min: number, max: number): Caster {
  return (v) => {
    const n = typeof v === 'number' ? v : typeof v === 'string' && intPattern.test(v) ? Number(v) : NaN
    return Number.isSafeInteger(n) && n >= min && n <= max ? n : INVALID
  }
}

const castFloat: Caster = (v) => {
  const n = typeof v === 'number' ? v : typeof v === 'string' && floatPattern.test(v) ? Number(v) : NaN
  return Number.isFinite(n) ? n : INVALID
}

const castBoolean: Caster = (v) => {
  if (typeof v === 'boolean') return v
  if (v === 'true' || v === '1') return true
  if (v === 'false' || v === '0') return false
  return INVALID
}

// PostgreSQL text cannot hold NUL: reject it here so it is a field error, not a server error.
const castString: Caster = (v) => (typeof v === 'string' && !v.includes('\u0000') ? v : INVALID)

/** The dashed form, lower case; 32 hex digits without dashes (which PostgreSQL accepts too) are dashed. */
const castUuid: Caster = (v) => {
  if (typeof v !== 'string') return INVALID
  if (uuidPattern.test(v)) return v.toLowerCase()
  if (!hex32Pattern.test(v)) return INVALID
  const h = v.toLowerCase()
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`
}

function validCalendarDate(y: number, m: number, d: number): boolean {
  if (m < 1 || m > 12 || d < 1) return false
  return d <= new Date(Date.UTC(y, m, 0)).getUTCDate()
}

const castDate: Caster = (v) => {
  if (v instanceof Date) return Number.isNaN(v.getTime()) ? INVALID : v.toISOString().slice(0, 10)
  if (typeof v !== 'string') return INVALID
  const m = datePattern.exec(v)
  return m && validCalendarDate(+m[1]!, +m[2]!, +m[3]!) ? v : INVALID
}

/** ISO 8601 with `T` or a space; no zone means UTC (Ecto's :utc_datetime does the same). */
const castDateTime: Caster = (v) => {
  if (v instanceof Date) return Number.isNaN(v.getTime()) ? INVALID : v
  if (typeof v !== 'string') return INVALID
  const m = dateTimePattern.exec(v)
  if (!m || !validCalendarDate(+m[1]!, +m[2]!, +m[3]!)) return INVALID
  if (+m[4]! > 23 || +m[5]! > 59 || (m[6] !== undefined && +m[6] > 59)) return INVALID
  const zone = (m[8] ?? 'Z').toUpperCase()
  const iso = `${m[1]}-${m[2]}-${m[3]}T${m[4]}:${m[5]}:${m[6] ?? '00'}${(m[7] ?? '').slice(0, 4)}${zone}`
  const d = new Date(zone.length === 3 ? iso + ':00' : zone.length === 5 ? iso.slice(0, -2) + ':' + iso.slice(-2) : iso)
  return Number.isNaN(d.getTime()) ? INVALID : d
}

// Objects JSON would write as `{}`, losing what they hold.
const opaque = [Map, Set, WeakMap, WeakSet, RegExp, Promise]

/**
 * The JSON text of a jsonb value, or undefined when JSON cannot carry it faithfully: a function,
 * a symbol, a BigInt, a cycle, `undefined` at the top or in a list, NaN or ±Infinity, a Map or a
 * Set (`JSON.stringify` would drop, null or empty them), or a NUL character (jsonb refuses
 * `\u0000`). An object property that is `undefined` is absent, as JSON has it.
 */
export function jsonText(value: unknown): string | undefined {
  let faithful = true
  let text: string | undefined
  try {
    text = JSON.stringify(value, function (this: unknown, key: string, v: unknown) {
      if (key.includes('\u0000')) faithful = false
      else if (v === undefined) faithful &&= !(Array.isArray(this) || key === '')
      else if (typeof v === 'function' || typeof v === 'symbol' || typeof v === 'bigint') faithful = false
      else if (typeof v === 'number') faithful &&= Number.isFinite(v)
      else if (typeof v === 'string') faithful &&= !v.includes('\u0000')
      else if (typeof v === 'object' && v !== null && opaque.some((c) => v instanceof c)) faithful = false
      // Stop descending once something is wrong (and keep a BigInt from throwing).
      return faithful ? v : undefined
    })
  } catch {
    return undefined // a cycle
  }
  return faithful ? text : undefined
}

/** Anything JSON carries faithfully (see `jsonText`). */
const castJson: Caster = (v) => (jsonText(v) === undefined ? INVALID : v)

function castEnum(values: readonly string[]): Caster {
  const allowed = new Set(values)
  return (v) => (typeof v === 'string' && allowed.has(v) ? v : INVALID)
}

function castArray(element: Caster): Caster {
  return (v) => {
    if (!Array.isArray(v)) return INVALID
    const out: unknown[] = new Array(v.length)
    for (let i = 0; i < v.length; i++) {
      // NULL elements are allowed in PostgreSQL arrays.
      const c = v[i] === null ? null : element(v[i])
      if (c === INVALID) return INVALID
      out[i] = c
    }
    return out
  }
}

/**
 * An embedded record: a plain object whose stored (non-virtual) fields each cast to their type;
 * missing ones become null. `lenient` (loading what the database holds) keeps a value that no
 * longer casts as it is, so a schema change never makes a stored row unreadable.
 */
export function castEmbedded(schema: AnySchema, value: unknown, lenient = false): unknown {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return lenient ? value : INVALID
  const casters = castersOf(schema)
  const out: Record<string, unknown> = {}
  for (const f of schema.fields) {
    if (f.virtual) continue
    const raw = (value as Record<string, unknown>)[f.name]
    const c = raw === undefined || raw === null ? null : casters[f.name]!(raw)
    if (c === INVALID && !lenient) return INVALID
    out[f.name] = c === INVALID ? raw : c
  }
  return out
}

function castEmbedList(schema: AnySchema): Caster {
  return (v) => {
    if (!Array.isArray(v)) return INVALID
    const out = v.map((x) => castEmbedded(schema, x))
    return out.includes(INVALID) ? INVALID : out
  }
}

export function casterFor(type: FieldType): Caster {
  if (typeof type === 'object') {
    if ('embedsOne' in type) return (v) => castEmbedded(type.embedsOne, v)
    if ('embedsMany' in type) return castEmbedList(type.embedsMany)
    return 'array' in type ? castArray(casterFor(type.array)) : castEnum(type.enum)
  }
  switch (type) {
    case 'id':
      return integer(1 - Number.MAX_SAFE_INTEGER, Number.MAX_SAFE_INTEGER)
    case 'integer':
      return integer(INT4_MIN, INT4_MAX)
    case 'float':
      return castFloat
    case 'boolean':
      return castBoolean
    case 'string':
    case 'text':
      return castString
    case 'uuid':
      return castUuid
    case 'date':
      return castDate
    case 'utc_datetime':
      return castDateTime
    case 'jsonb':
      return castJson
  }
}

const cache = new WeakMap<AnySchema, Readonly<Record<string, Caster>>>()

/** Casters for every field of a schema, computed on first use and kept for the schema's lifetime. */
export function castersOf(schema: AnySchema): Readonly<Record<string, Caster>> {
  let casters = cache.get(schema)
  if (!casters) {
    const built: Record<string, Caster> = {}
    for (const f of schema.fields) built[f.name] = casterFor(f.type)
    casters = built
    cache.set(schema, casters)
  }
  return casters
}

const defaultsCache = new WeakMap<AnySchema, readonly (readonly [string, unknown])[]>()

/**
 * The fields that declare a `default`, with the default cast to the field's type (a default the
 * cast refuses is kept as written: the migration checks defaults). Computed once per schema.
 */
export function defaultsOf(schema: AnySchema): readonly (readonly [string, unknown])[] {
  let defaults = defaultsCache.get(schema)
  if (!defaults) {
    const casters = castersOf(schema)
    defaults = schema.fields.flatMap((f) => {
      if (f.default === undefined || f.default === null) return []
      const cast = casters[f.name]!(f.default)
      return [[f.name, cast === INVALID ? f.default : cast] as const]
    })
    defaultsCache.set(schema, defaults)
  }
  return defaults
}
