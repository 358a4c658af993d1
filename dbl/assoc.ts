/**
 * Associations on changesets: `castAssoc` casts nested params into child changesets, `putAssoc`
 * sets children built in code. The repository inserts the parent first, then each child with the
 * parent's key as foreign key, in one transaction (repo/write.ts). For a manyToMany association
 * `putAssoc` gives the whole set of linked records (ids, records or changesets); the repository
 * then replaces the links in the join table (repo/links.ts).
 */
import { castersOf, INVALID } from './cast.ts'
import { isCompositeKey, missingKeyField } from './primary-key.ts'
import { cast, change, isChangeset, addError, withChanges, type Changeset, type Params } from './changeset.ts'
import {
  foreignKeyOf,
  foreignKeysOf,
  joinThroughOf,
  type AnySchema,
  type Association,
  type JoinThrough,
} from './schema.ts'

export interface ResolvedAssoc {
  readonly name: string
  readonly kind: Association['kind']
  readonly owner: AnySchema
  readonly related: AnySchema
  /**
   * belongsTo: field of the owner; hasOne / hasMany: field of the related schema; manyToMany: the
   * join table's column pointing at the owner. For a composite foreign key, its fields joined by `_`.
   */
  readonly foreignKey: string
  /** The foreign key's columns: one, or one per field of the composite key it points at. */
  readonly foreignKeys: readonly string[]
  /**
   * The columns `foreignKeys` point at, in the same order: the related schema's primary key for
   * belongsTo, the owner's for hasOne / hasMany / manyToMany.
   */
  readonly keys: readonly string[]
  /** manyToMany only: the join table and its key columns. */
  readonly through?: JoinThrough
}

/** Resolves an association's related schema and foreign key (defaults documented in schema.ts). */
export function resolveAssoc(owner: AnySchema, name: string): ResolvedAssoc {
  const a = owner.associations[name]
  if (!a) throw new Error(`schema ${owner.table} has no association "${name}"`)
  if (a.kind === 'manyToMany') {
    const through = joinThroughOf(owner, name)
    const { related, ownerKey } = through
    return {
      name,
      kind: a.kind,
      owner,
      related,
      foreignKey: ownerKey,
      foreignKeys: [ownerKey],
      keys: owner.primaryKeys,
      through,
    }
  }
  const related = a.schema()
  const foreignKey = foreignKeyOf(owner, name, a)
  const foreignKeys = foreignKeysOf(owner, name, a)
  const [holder, target] = a.kind === 'belongsTo' ? [owner, related] : [related, owner]
  for (const c of foreignKeys)
    if (!holder.fieldsByName[c])
      throw new Error(`association ${owner.table}.${name}: ${holder.table} has no field "${c}"`)
  if (foreignKeys.length !== target.primaryKeys.length)
    throw new Error(
      `association ${owner.table}.${name}: ${target.table}'s primary key is (${target.primaryKey}), so foreignKey must list ${target.primaryKeys.length} column${target.primaryKeys.length > 1 ? 's' : ''} of ${holder.table} in that order; it lists (${foreignKeys.join(', ')})`,
    )
  return { name, kind: a.kind, owner, related, foreignKey, foreignKeys, keys: target.primaryKeys }
}

function childAssoc(cs: Changeset, name: string): ResolvedAssoc {
  const assoc = resolveAssoc(cs.schema, name)
  if (assoc.kind === 'belongsTo')
    throw new Error(
      `${cs.schema.table}.${name}: castAssoc/putAssoc take hasMany or hasOne associations (putAssoc also manyToMany)`,
    )
  return assoc
}

function withChildren<S extends AnySchema>(
  cs: Changeset<S>,
  name: string,
  children: readonly Changeset[],
): Changeset<S> {
  return withChanges(cs, {
    assocChanges: { ...cs.assocChanges, [name]: children },
    valid: cs.valid && children.every((c) => c.valid),
  })
}

/** How `castAssoc` builds each child changeset, and whether children are required. */
export interface CastAssocOptions {
  /** Builds a child changeset from the existing child (`{}` for a new one) and its params. */
  readonly with?: (data: Record<string, unknown>, params: Params) => Changeset
  /** "can't be blank" when the params carry no children. */
  readonly required?: boolean
}

/** Default child changeset: cast every field except the primary key and the foreign key. */
function defaultWith(assoc: ResolvedAssoc) {
  const allowed = assoc.related.fields
    // A composite key's fields are the caller's to give (an order line's number), a one-field key is generated.
    .filter((f) => !(f.primaryKey && !isCompositeKey(assoc.related)) && !assoc.foreignKeys.includes(f.name))
    .map((f) => f.name)
  return (data: Record<string, unknown>, params: Params) => cast(assoc.related, data, params, allowed)
}

/** Whether a loaded child and a child's params name the same key (params are text from a form, so compared as text). */
function sameKey(loaded: Record<string, unknown>, params: Params, keys: readonly string[]): boolean {
  for (const k of keys) if (String(loaded[k]) !== String(params[k])) return false
  return true
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
 *
 * @example
 * // body: { name: 'Ada', notes: [{ title: 'First' }, { title: 'Second' }] }
 * const cs = castAssoc(cast(User, null, body, ['name']), 'notes', {
 *   with: (note, params) => validateRequired(cast(Note, note, params, ['title']), ['title']),
 * })
 * await repo.insert(cs) // the user, then both notes with its id as user_id, in one transaction
 */
export function castAssoc<S extends AnySchema>(
  cs: Changeset<S>,
  name: string,
  opts: CastAssocOptions = {},
): Changeset<S> {
  const assoc = childAssoc(cs, name)
  if (assoc.kind === 'manyToMany')
    throw new Error(
      `${cs.schema.table}.${name} is manyToMany: give the set with putAssoc(cs, '${name}', ids or records)`,
    )
  if (!Object.hasOwn(cs.params, name) || cs.params[name] === null || cs.params[name] === undefined) {
    return opts.required ? addError(cs, name, "can't be blank", { validation: 'required' }) : cs
  }
  const make = opts.with ?? defaultWith(assoc)
  const raw = cs.params[name]
  const list =
    assoc.kind === 'hasOne' ? (typeof raw === 'object' && !Array.isArray(raw) ? [raw] : undefined) : paramList(raw)
  if (!list?.every((p) => typeof p === 'object' && p !== null && !Array.isArray(p))) {
    return addError(cs, name, 'is invalid', { validation: 'assoc', type: assoc.kind })
  }
  const loaded = (cs.data as Record<string, unknown>)[name]
  const existing = (Array.isArray(loaded) ? loaded : loaded ? [loaded] : []) as Record<string, unknown>[]
  const keys = assoc.related.primaryKeys
  const children = (list as Params[]).map((p) => {
    const match =
      missingKeyField(assoc.related, p) !== undefined ? undefined : existing.find((e) => sameKey(e, p, keys))
    const child = make(match ?? {}, p)
    return withChanges(child, { action: match ? 'update' : 'insert' })
  })
  if (opts.required && children.length === 0) return addError(cs, name, "can't be blank", { validation: 'required' })
  return withChildren(cs, name, children)
}

/** What `putAssoc` takes for one entry: a changeset, a map of field values, or (manyToMany) a primary key. */
export type AssocEntry = Changeset | Record<string, unknown> | number | string

/**
 * Sets children directly: each entry a changeset (used as is) or a plain map of field values
 * (Ecto's `change/2`: no casting, so use it for trusted data). Replaces earlier changes for `name`.
 *
 * For a manyToMany association the list is the whole set of linked records, and writing the
 * changeset makes the join table hold exactly these links, in the same transaction: links not in
 * the list are deleted, new ones inserted. An entry is a primary key (cast, so `'3'` from a form
 * works; one that cannot be cast is "is invalid"), a loaded record (linked as it is), a map without
 * a primary key or a changeset (inserted or updated first, then linked). An id that matches no row
 * makes the whole write fail with "does not exist" on the association.
 *
 * @example
 * putAssoc(cast(User, {}, params, ['name']), 'posts', [{ title: 'Hello' }])   // hasMany: inserted with the user
 * putAssoc(change(WorkOrder, order), 'tags', [1, 4, newTag])                 // manyToMany: now linked to exactly these
 */
export function putAssoc<S extends AnySchema>(
  cs: Changeset<S>,
  name: string,
  children: readonly AssocEntry[] | Record<string, unknown> | null,
): Changeset<S> {
  const assoc = childAssoc(cs, name)
  const list = children === null ? [] : Array.isArray(children) ? children : [children as Record<string, unknown>]
  if (assoc.kind === 'hasOne' && list.length > 1)
    throw new Error(`${cs.schema.table}.${name} is hasOne: putAssoc takes one child`)
  if (assoc.kind === 'manyToMany') return putLinks(cs, assoc, list)
  if (list.some((c) => typeof c !== 'object' || c === null))
    throw new Error(`${cs.schema.table}.${name} is ${assoc.kind}: putAssoc takes changesets or maps of fields, not ids`)
  const built = (list as (Changeset | Record<string, unknown>)[]).map((c) =>
    isChangeset(c) ? c : change(assoc.related, {}, c),
  )
  const actionOf = (c: Changeset) =>
    c.action ?? (missingKeyField(assoc.related, c.data as Record<string, unknown>) !== undefined ? 'insert' : 'update')
  return withChildren(
    cs,
    name,
    built.map((c) => withChanges(c, { action: actionOf(c) })),
  )
}

/** manyToMany entries → changesets of the related schema: a key or a keyed record is an update with no changes (no query). */
function putLinks<S extends AnySchema>(
  cs: Changeset<S>,
  assoc: ResolvedAssoc,
  list: readonly AssocEntry[],
): Changeset<S> {
  const related = assoc.related
  const pk = related.primaryKey
  const castKey = castersOf(related)[pk]!
  const built: Changeset[] = []
  for (const entry of list) {
    if (isChangeset(entry)) {
      built.push(
        withChanges(entry, {
          action: entry.action ?? ((entry.data as Record<string, unknown>)[pk] == null ? 'insert' : 'update'),
        }),
      )
    } else if (typeof entry === 'object' && entry !== null) {
      const key = (entry as Record<string, unknown>)[pk]
      built.push(
        key == null
          ? withChanges(change(related, {}, entry), { action: 'insert' })
          : withChanges(change(related, entry), { action: 'update' }),
      )
    } else {
      const key = typeof entry === 'number' || typeof entry === 'string' ? castKey(entry) : INVALID
      if (key === INVALID || key === null)
        return addError(cs, assoc.name, 'is invalid', { validation: 'assoc', type: 'manyToMany' })
      built.push(withChanges(change(related, { [pk]: key }), { action: 'update' }))
    }
  }
  return withChildren(cs, assoc.name, built)
}
