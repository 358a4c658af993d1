/**
 * Embedded schemas: records stored inside a parent row's jsonb column (Ecto's `embeds_one` /
 * `embeds_many`). The parent declares the field with `embedsOne(Schema)` / `embedsMany(Schema)`;
 * `castEmbed` casts nested params into child changesets whose errors nest in `errorsToJson`; the
 * stored value is the children's fields (virtual ones left out), and rows read back hold typed
 * records again (repo/load-rows.ts: dates become `Date`, fields missing from an older row become null).
 */
import { castersOf, INVALID } from './cast.ts'
import { addError, cast, getField, withChanges, type Changeset, type Params } from './changeset.ts'
import { defineSchema, type AnySchema, type EmbedType, type FieldSpec, type Schema } from './schema.ts'

/**
 * A schema without a table, for `embedsOne` / `embedsMany` fields; `name` appears in messages.
 * It needs no primary key; give one (`id: { type: 'uuid', primaryKey: true }`) to have
 * `castEmbed` match list items to the stored ones by key.
 *
 * @example
 * const Address = defineEmbeddedSchema({ name: 'address', fields: { street: 'string', city: { type: 'string', nullable: false } } })
 */
export function defineEmbeddedSchema<const F extends Record<string, FieldSpec>>(def: {
  readonly name: string
  readonly fields: F
  readonly primaryKey?: keyof F & string
}): Schema<F, {}> {
  return defineSchema<F, {}>({ table: def.name, fields: def.fields, primaryKey: def.primaryKey, embedded: true })
}

function checkEmbedded(schema: AnySchema, what: string): void {
  if (!schema?.embedded) throw new Error(`${what}: give a schema made with defineEmbeddedSchema`)
}

/**
 * A field holding one embedded record, stored as jsonb; read back as `RecordOf<typeof Address> | null`.
 *
 * @example
 * const Customer = defineSchema({ table: 'customers', fields: { id: 'id', name: 'string', address: embedsOne(Address) } })
 */
export function embedsOne<const E extends AnySchema>(schema: E): { readonly embedsOne: E } {
  checkEmbedded(schema, 'embedsOne')
  return { embedsOne: schema }
}

/**
 * A field holding a list of embedded records, stored as a jsonb array; read back as `RecordOf<typeof Item>[] | null`.
 *
 * @example
 * const Order = defineSchema({ table: 'orders', fields: { id: 'id', items: { type: embedsMany(Item), nullable: false, default: [] } } })
 */
export function embedsMany<const E extends AnySchema>(schema: E): { readonly embedsMany: E } {
  checkEmbedded(schema, 'embedsMany')
  return { embedsMany: schema }
}

/** The names of a schema's `embedsOne` / `embedsMany` fields: what `castEmbed` accepts. */
export type EmbedFieldOf<S extends AnySchema> =
  S extends Schema<infer F, infer _A>
    ? { [K in keyof F]: (F[K] extends { readonly type: infer T } ? T : F[K]) extends EmbedType ? K : never }[keyof F] &
        string
    : never

/** How `castEmbed` builds and checks the child changesets. */
export interface CastEmbedOptions {
  /** Builds a child changeset from the stored record (`{}` for a new one) and its params; default: `cast` every field, embeds nested. */
  readonly with?: (data: Record<string, unknown>, params: Params) => Changeset
  /** "can't be blank" when the result holds no record (embedsMany: an empty list). */
  readonly required?: boolean
}

function embedOf(schema: AnySchema, name: string): { related: AnySchema; many: boolean } {
  const t = schema.fieldsByName[name]?.type
  if (typeof t === 'object' && 'embedsOne' in t) return { related: t.embedsOne, many: false }
  if (typeof t === 'object' && 'embedsMany' in t) return { related: t.embedsMany, many: true }
  throw new Error(`castEmbed: ${schema.table} has no embedsOne / embedsMany field "${name}"`)
}

/** The default child changeset: every field cast, embedded fields through `castEmbed` in turn. */
function defaultWith(related: AnySchema) {
  const plain = related.fields.filter(
    (f) => !(typeof f.type === 'object' && ('embedsOne' in f.type || 'embedsMany' in f.type)),
  )
  const nested = related.fields.filter((f) => !plain.includes(f))
  return (data: Record<string, unknown>, params: Params): Changeset =>
    nested.reduce(
      (cs, f) => castEmbed(cs, f.name),
      cast(
        related,
        data,
        params,
        plain.map((f) => f.name),
      ),
    )
}

/** What is stored for a child: its stored fields in declaration order, null when unset. */
function storedValue(child: Changeset): Record<string, unknown> {
  const out: Record<string, unknown> = {}
  for (const f of child.schema.fields) if (!f.virtual) out[f.name] = getField(child, f.name) ?? null
  return out
}

function paramList(value: unknown): unknown[] | undefined {
  if (Array.isArray(value)) return value
  // HTML forms send lists as objects keyed by position: { "0": {...}, "1": {...} }.
  if (typeof value === 'object' && value !== null && Object.keys(value).every((k) => /^\d+$/.test(k))) {
    return Object.keys(value)
      .sort((a, b) => Number(a) - Number(b))
      .map((k) => (value as Record<string, unknown>)[k])
  }
  return undefined
}

const isMap = (v: unknown): v is Params => typeof v === 'object' && v !== null && !Array.isArray(v)

/**
 * Casts `params[name]` into the embedded field: child changesets validated by `with`, their errors
 * nested under the field in `errorsToJson`. embedsOne casts onto the stored record (fields the
 * params omit keep their values); embedsMany replaces the list, each item cast onto the stored item
 * with the same primary key when the embedded schema has one, else onto `{}`. `null` empties the
 * field; params without the field leave it as it is. A value of the wrong shape gives "is invalid".
 *
 * @example
 * const cs = castEmbed(cast(Customer, {}, body, ['name']), 'address', {
 *   with: (data, params) => validateRequired(cast(Address, data, params, ['street', 'city']), ['city']),
 * })
 * errorsToJson(cs) // { address: { city: ["can't be blank"] } }
 */
export function castEmbed<S extends AnySchema>(
  cs: Changeset<S>,
  name: EmbedFieldOf<S>,
  opts: CastEmbedOptions = {},
): Changeset<S> {
  const { related, many } = embedOf(cs.schema, name)
  const stored = (cs.data as Record<string, unknown>)[name]
  const blank = (): Changeset<S> =>
    opts.required ? addError(cs, name, "can't be blank", { validation: 'required' }) : cs
  if (!Object.hasOwn(cs.params, name) || cs.params[name] === undefined) {
    return stored === null || stored === undefined || (Array.isArray(stored) && stored.length === 0) ? blank() : cs
  }
  const raw = cs.params[name]
  if (raw === null) return withEmbed(blank(), name, null, [])
  const make = opts.with ?? defaultWith(related)
  const list = many ? paramList(raw) : isMap(raw) ? [raw] : undefined
  if (!list?.every(isMap))
    return addError(cs, name, 'is invalid', { validation: 'embed', type: many ? 'embedsMany' : 'embedsOne' })
  const existing = (Array.isArray(stored) ? stored : isMap(stored) ? [stored] : []) as Record<string, unknown>[]
  const pk = related.primaryKey
  const keyOf = pk ? castersOf(related)[pk]! : undefined
  const children = list.map((p) => {
    if (!many) return make(existing[0] ?? {}, p)
    // Keys compare as cast: an upper-case uuid in the params finds the stored lower-case one.
    const key = keyOf && p[pk] != null ? keyOf(p[pk]) : INVALID
    const match = key === INVALID ? undefined : existing.find((e) => e[pk] === key)
    return make(match ?? {}, p)
  })
  for (const c of children)
    if (c.schema !== related) throw new Error(`castEmbed ${name}: \`with\` must return a changeset of ${related.table}`)
  if (opts.required && children.length === 0) return withEmbed(blank(), name, [], [])
  const value = many ? children.map(storedValue) : storedValue(children[0]!)
  return withEmbed(cs, name, value, many ? children : children[0]!)
}

function withEmbed<S extends AnySchema>(
  cs: Changeset<S>,
  name: string,
  value: unknown,
  children: Changeset | readonly Changeset[],
): Changeset<S> {
  const list = Array.isArray(children) ? children : [children as Changeset]
  const changes: Record<string, unknown> = { ...cs.changes }
  const before = (cs.data as Record<string, unknown>)[name] ?? null
  if (JSON.stringify(before) === JSON.stringify(value)) delete changes[name]
  else changes[name] = value
  const embeds = { ...cs.embeds, [name]: children }
  return withChanges(cs, {
    changes: changes as Changeset<S>['changes'],
    embeds,
    valid: cs.valid && list.every((c) => c.valid),
  })
}
