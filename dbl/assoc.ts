/**
 * Associations on changesets: `castAssoc` casts nested params into child changesets, `putAssoc`
 * sets children built in code. The repository inserts the parent first, then each child with the
 * parent's key as foreign key, in one transaction (repo/write.ts).
 */
import { cast, change, isChangeset, addError, type Changeset, type Params } from './changeset.ts'
import { foreignKeyOf, type AnySchema, type Association } from './schema.ts'

export interface ResolvedAssoc {
  readonly name: string
  readonly kind: Association['kind']
  readonly owner: AnySchema
  readonly related: AnySchema
  /** belongsTo: column on the owner; hasOne / hasMany: column on the related table. */
  readonly foreignKey: string
}

/** Resolves an association's related schema and foreign key (defaults documented in schema.ts). */
export function resolveAssoc(owner: AnySchema, name: string): ResolvedAssoc {
  const a = owner.associations[name]
  if (!a) throw new Error(`schema ${owner.table} has no association "${name}"`)
  const related = a.schema()
  const foreignKey = foreignKeyOf(owner, name, a)
  const holder = a.kind === 'belongsTo' ? owner : related
  if (!holder.fieldsByName[foreignKey]) throw new Error(`association ${owner.table}.${name}: ${holder.table} has no field "${foreignKey}"`)
  return { name, kind: a.kind, owner, related, foreignKey }
}

function childAssoc(cs: Changeset, name: string): ResolvedAssoc {
  const assoc = resolveAssoc(cs.schema, name)
  if (assoc.kind === 'belongsTo') throw new Error(`${cs.schema.table}.${name}: castAssoc/putAssoc take hasMany or hasOne associations`)
  return assoc
}

function withChildren<S extends AnySchema>(cs: Changeset<S>, name: string, children: readonly Changeset[]): Changeset<S> {
  return { ...cs, assocChanges: { ...cs.assocChanges, [name]: children }, valid: cs.valid && children.every((c) => c.valid) }
}

export interface CastAssocOptions {
  /** Builds a child changeset from the existing child (`{}` for a new one) and its params. */
  readonly with?: (data: Record<string, unknown>, params: Params) => Changeset
  /** "can't be blank" when the params carry no children. */
  readonly required?: boolean
}

/** Default child changeset: cast every field except the primary key and the foreign key. */
function defaultWith(assoc: ResolvedAssoc) {
  const allowed = assoc.related.fields.filter((f) => !f.primaryKey && f.name !== assoc.foreignKey).map((f) => f.name)
  return (data: Record<string, unknown>, params: Params) => cast(assoc.related, data, params, allowed)
}

/** Accepts a list, or an object keyed by position (`{ "0": {...}, "1": {...} }`, as HTML forms send). */
function paramList(value: unknown): unknown[] | undefined {
  if (Array.isArray(value)) return value
  if (typeof value === 'object' && value !== null) {
    return Object.keys(value)
      .sort((a, b) => Number(a) - Number(b))
      .map((k) => (value as Record<string, unknown>)[k])
  }
  return undefined
}

/**
 * Casts `params[name]` into child changesets. A child whose params carry the primary key of an
 * already loaded child (in `cs.data[name]`) updates it; any other becomes an insert. Loaded children
 * missing from the params are left as they are. A value of the wrong shape gives "is invalid".
 */
export function castAssoc<S extends AnySchema>(cs: Changeset<S>, name: string, opts: CastAssocOptions = {}): Changeset<S> {
  const assoc = childAssoc(cs, name)
  if (!Object.hasOwn(cs.params, name) || cs.params[name] === null || cs.params[name] === undefined) {
    return opts.required ? addError(cs, name, "can't be blank", { validation: 'required' }) : cs
  }
  const make = opts.with ?? defaultWith(assoc)
  const raw = cs.params[name]
  const list = assoc.kind === 'hasOne' ? (typeof raw === 'object' && !Array.isArray(raw) ? [raw] : undefined) : paramList(raw)
  if (!list || !list.every((p) => typeof p === 'object' && p !== null && !Array.isArray(p))) {
    return addError(cs, name, 'is invalid', { validation: 'assoc', type: assoc.kind })
  }
  const loaded = (cs.data as Record<string, unknown>)[name]
  const existing = (Array.isArray(loaded) ? loaded : loaded ? [loaded] : []) as Record<string, unknown>[]
  const pk = assoc.related.primaryKey
  const children = (list as Params[]).map((p) => {
    const match = p[pk] === undefined ? undefined : existing.find((e) => String(e[pk]) === String(p[pk]))
    const child = make(match ?? {}, p)
    return { ...child, action: match ? ('update' as const) : ('insert' as const) }
  })
  if (opts.required && children.length === 0) return addError(cs, name, "can't be blank", { validation: 'required' })
  return withChildren(cs, name, children)
}

/**
 * Sets children directly: each entry a changeset (used as is) or a plain map of field values
 * (Ecto's `change/2`: no casting, so use it for trusted data). Replaces earlier changes for `name`.
 */
export function putAssoc<S extends AnySchema>(cs: Changeset<S>, name: string, children: readonly (Changeset | Record<string, unknown>)[] | Record<string, unknown> | null): Changeset<S> {
  const assoc = childAssoc(cs, name)
  const list = children === null ? [] : Array.isArray(children) ? children : [children as Record<string, unknown>]
  if (assoc.kind === 'hasOne' && list.length > 1) throw new Error(`${cs.schema.table}.${name} is hasOne: putAssoc takes one child`)
  const built = list.map((c) => (isChangeset(c) ? c : change(assoc.related, {}, c)))
  const pk = assoc.related.primaryKey
  const actionOf = (c: Changeset) => c.action ?? ((c.data as Record<string, unknown>)[pk] == null ? 'insert' : 'update')
  return withChildren(cs, name, built.map((c) => ({ ...c, action: actionOf(c) })))
}
