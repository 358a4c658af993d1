/**
 * Changesets (Ecto's design): an immutable value describing changes to one record, with the
 * errors found so far. `cast` builds one from external params; validations (validations.ts),
 * constraint declarations (constraints.ts) and associations (assoc.ts) each take a changeset and
 * return a new one; the repository reads it. Nothing here touches the database.
 *
 * Every changeset is made by `changesetOf` / `withChanges`, so all share one prototype: each of
 * those functions is also a method on it (changeset-methods.ts), and a copy keeps the methods.
 */
import { missingKeyField } from './primary-key.ts'
import { castersOf, defaultsOf, INVALID } from './cast.ts'
import type { AnySchema, RecordOf } from './schema.ts'
import type { ConstraintKind } from './db-error.ts'

/** A field error. `message` may hold `%{count}`-style placeholders filled from `meta` (see `errorsToJson`). */
export interface FieldError {
  readonly field: string
  readonly message: string
  readonly meta: Readonly<Record<string, unknown>>
}

/** What the repository is doing with a changeset (`null` until it runs one). */
export type Action = 'insert' | 'update' | 'delete' | null

/** A database constraint the changeset expects; a violation of it becomes a field error (constraints.ts). */
export interface ConstraintDecl {
  readonly type: ConstraintKind
  readonly constraint: string
  /** Further names accepted for the same declaration (PostgreSQL's own default names). */
  readonly aliases: readonly string[]
  readonly field: string
  readonly message: string
}

/** External input to cast: a request's params or body, keyed by field name. */
export type Params = Readonly<Record<string, unknown>>
/** The field names of a schema's records. */
export type FieldOf<S extends AnySchema> = keyof RecordOf<S> & string

/** What a changeset holds: its own fields, without the methods. */
export interface ChangesetFields<S extends AnySchema = AnySchema> {
  readonly kind: 'vela.changeset'
  readonly schema: S
  /** The record being changed: `{}` for a new one. */
  readonly data: Partial<RecordOf<S>>
  readonly params: Params
  /** Cast values that differ from `data`. */
  readonly changes: Partial<RecordOf<S>>
  readonly errors: readonly FieldError[]
  readonly valid: boolean
  /** Set by the repository when it runs the changeset. */
  readonly action: Action
  /** Child changesets per association (hasOne: at most one). */
  readonly assocChanges: Readonly<Record<string, readonly Changeset[]>>
  /**
   * Child changesets per embedded field, as `castEmbed` built them (embedsOne: one, embedsMany: a
   * list); their values are already in `changes`, this keeps their errors for `errorsToJson`.
   */
  readonly embeds: Readonly<Record<string, Changeset | readonly Changeset[]>>
  readonly constraints: readonly ConstraintDecl[]
  /**
   * Extra equality conditions an update or delete must also match (`optimisticLock` sets one);
   * when no row matches, the write fails with "is stale" on the filtered field.
   */
  readonly filters: Readonly<Record<string, unknown>>
  /**
   * Functions `prepareChanges` added, run in order inside the write's transaction just before
   * the write (prepare.ts types them; kept loose here, where the repository's type is unknown).
   */
  readonly prepare: readonly PrepareFn[]
}

/** A function `prepareChanges` queued: given the changeset and the repo, gives the changeset to write. */
// biome-ignore lint/suspicious/noExplicitAny: typed by prepareChanges (prepare.ts), which knows the repository's type
export type PrepareFn = (cs: any, repo: any) => unknown

/**
 * The changes to one record of schema `S`, cast and validated, with the errors found so far; the
 * repository writes it. Each function taking a changeset first and returning one is also a method
 * returning a new changeset (declared in changeset-methods.ts), so calls chain.
 *
 * @example
 * const cs = cast(Product, null, params, ['name', 'price'])
 *   .validateRequired(['name'])
 *   .validateNumber('price', { greaterThan: 0 })
 */
export interface Changeset<S extends AnySchema = AnySchema> extends ChangesetFields<S> {}

/**
 * The one class of changesets: fields set in one order, so every changeset has the same layout,
 * and one prototype, where changeset-methods.ts installs the methods.
 */
export class ChangesetValue<S extends AnySchema = AnySchema> implements ChangesetFields<S> {
  readonly kind: 'vela.changeset'
  readonly schema: S
  readonly data: Partial<RecordOf<S>>
  readonly params: Params
  readonly changes: Partial<RecordOf<S>>
  readonly errors: readonly FieldError[]
  readonly valid: boolean
  readonly action: Action
  readonly assocChanges: Readonly<Record<string, readonly Changeset[]>>
  readonly embeds: Readonly<Record<string, Changeset | readonly Changeset[]>>
  readonly constraints: readonly ConstraintDecl[]
  readonly filters: Readonly<Record<string, unknown>>
  readonly prepare: readonly PrepareFn[]

  constructor(base: ChangesetFields<S>, patch: Partial<ChangesetFields<S>>) {
    // A field given in `patch` replaces the base's; no field of a changeset is ever undefined.
    this.kind = 'vela.changeset'
    this.schema = patch.schema ?? base.schema
    this.data = patch.data ?? base.data
    this.params = patch.params ?? base.params
    this.changes = patch.changes ?? base.changes
    this.errors = patch.errors ?? base.errors
    this.valid = patch.valid ?? base.valid
    this.action = patch.action !== undefined ? patch.action : base.action
    this.assocChanges = patch.assocChanges ?? base.assocChanges
    this.embeds = patch.embeds ?? base.embeds
    this.constraints = patch.constraints ?? base.constraints
    this.filters = patch.filters ?? base.filters
    this.prepare = patch.prepare ?? base.prepare
  }
}

const NO_PATCH = {}
const NO_PREPARE: readonly PrepareFn[] = []

/** A changeset holding `fields`: how a changeset is made from scratch. */
export function changesetOf<S extends AnySchema>(fields: ChangesetFields<S>): Changeset<S> {
  return new ChangesetValue(fields, NO_PATCH) as Changeset<S>
}

/** A copy of `cs` with the fields of `patch` replaced: how every function returns a new changeset. */
export function withChanges<S extends AnySchema>(
  cs: ChangesetFields<S>,
  patch: Partial<ChangesetFields<S>>,
): Changeset<S> {
  return new ChangesetValue(cs, patch) as Changeset<S>
}

const BLANK = /^\s*$/

/**
 * Whether a value is a changeset: tells a failed write's invalid changeset from a database error.
 *
 * @example
 * const res = await repo.insert(cs)
 * if (!res.ok && isChangeset(res.error)) return status(422, { errors: errorsToJson(res.error) })
 */
export function isChangeset(value: unknown): value is Changeset {
  return typeof value === 'object' && value !== null && (value as { kind?: unknown }).kind === 'vela.changeset'
}

function assertFields(schema: AnySchema, fields: readonly string[]): void {
  for (const f of fields) {
    if (!schema.fieldsByName[f]) throw new Error(`schema ${schema.table} has no field "${f}"`)
  }
}

function same(a: unknown, b: unknown): boolean {
  // A field missing from the data (a new record) is null, as in an Ecto struct.
  if ((a ?? null) === (b ?? null)) return true
  if (a instanceof Date && b instanceof Date) return a.getTime() === b.getTime()
  if (typeof a === 'object' && a !== null && typeof b === 'object' && b !== null)
    return JSON.stringify(a) === JSON.stringify(b)
  return false
}

/** A new changeset over `data` with no changes. */
export function emptyChangeset<S extends AnySchema>(
  schema: S,
  data: Partial<RecordOf<S>> | null | undefined,
): Changeset<S> {
  return changesetOf({
    kind: 'vela.changeset',
    schema,
    data: (data ?? {}) as Partial<RecordOf<S>>,
    params: {},
    changes: {},
    errors: [],
    valid: true,
    action: null,
    assocChanges: {},
    embeds: {},
    constraints: [],
    filters: {},
    prepare: NO_PREPARE,
  })
}

/**
 * Casts `params` (typically a request body) onto `existing` (`{}` or null for a new record).
 * Only `allowed` fields are read; other keys are ignored. Empty or whitespace-only strings become
 * null (Ecto's empty values). A value that cannot be cast to the field's type gives "is invalid";
 * a `string` longer than its VARCHAR size gives "should be at most %{count} character(s)".
 * Virtual fields cast like any other; embedded fields are cast with `castEmbed` instead.
 * For a new record (no primary key value), a field with a `default` that the record and the
 * params leave out starts from its default, in `data` (as an Ecto struct's defaults), so
 * `validateRequired` sees it and `insert` writes it.
 *
 * @example
 * const cs = validateRequired(cast(Product, null, req.params, ['name', 'price']), ['name', 'price'])
 */
export function cast<S extends AnySchema>(
  schema: S,
  existing: Partial<RecordOf<S>> | null | undefined,
  params: Params | null | undefined,
  allowed: readonly FieldOf<S>[],
): Changeset<S> {
  assertFields(schema, allowed)
  for (const name of allowed) {
    const t = schema.fieldsByName[name]!.type
    if (typeof t === 'object' && ('embedsOne' in t || 'embedsMany' in t))
      throw new Error(`cast: ${schema.table}.${name} is an embedded field; cast it with castEmbed(cs, '${name}')`)
  }
  const base = emptyChangeset(schema, withDefaults(schema, existing))
  const input = params ?? {}
  const casters = castersOf(schema)
  const data = base.data as Record<string, unknown>
  const changes: Record<string, unknown> = {}
  const errors: FieldError[] = []
  for (const name of allowed) {
    if (!Object.hasOwn(input, name)) continue
    const raw = input[name]
    const field = schema.fieldsByName[name]!
    const value =
      raw === undefined || raw === null || (typeof raw === 'string' && BLANK.test(raw)) ? null : casters[name]!(raw)
    if (value === INVALID) {
      errors.push({ field: name, message: 'is invalid', meta: { type: field.type, validation: 'cast' } })
      continue
    }
    if (field.type === 'string' && typeof value === 'string' && !field.virtual) {
      const error = varcharError(name, value, field.size ?? 255)
      if (error) errors.push(error)
    }
    if (!same(value, data[name])) changes[name] = value
  }
  return withChanges(base, {
    params: input,
    changes: changes as Partial<RecordOf<S>>,
    errors,
    valid: errors.length === 0,
  })
}

/** A new record (no primary key value) with the schema's defaults for the fields it leaves out; others as given. */
function withDefaults<S extends AnySchema>(
  schema: S,
  existing: Partial<RecordOf<S>> | null | undefined,
): Partial<RecordOf<S>> | null | undefined {
  const record = existing as Record<string, unknown> | null | undefined
  // A record with its whole key is stored already (an embedded schema has no key: always new).
  if (schema.primaryKeys.length > 0 && missingKeyField(schema, record) === undefined) return existing
  const defaults = defaultsOf(schema)
  if (defaults.length === 0) return existing
  const out: Record<string, unknown> = { ...record }
  // A copy per changeset: a default array or object must not be shared between records.
  for (const [name, value] of defaults)
    if (out[name] === undefined) out[name] = typeof value === 'object' ? structuredClone(value) : value
  return out as Partial<RecordOf<S>>
}

/** VARCHAR(n) counts characters (code points); the cheap length check covers almost every value. */
export function varcharError(field: string, value: string, size: number): FieldError | undefined {
  if (value.length <= size) return undefined
  let count = 0
  for (const _ of value) if (++count > size) break
  return count > size
    ? {
        field,
        message: 'should be at most %{count} character(s)',
        meta: { count: size, validation: 'length', kind: 'max', type: 'string' },
      }
    : undefined
}

/**
 * A changeset with `changes` applied as given, without casting (Ecto's `change/2`); the usual
 * input for `delete`, and for changes the app makes itself rather than casting from a request.
 *
 * @example
 * await repo.update(change(User, user, { session_generation: user.session_generation + 1 }))
 */
export function change<S extends AnySchema>(
  schema: S,
  record: Partial<RecordOf<S>> | null | undefined,
  changes: Partial<RecordOf<S>> = {},
): Changeset<S> {
  assertFields(schema, Object.keys(changes))
  const base = emptyChangeset(schema, record)
  const kept: Record<string, unknown> = {}
  for (const [k, v] of Object.entries(changes)) if (!same(v, (base.data as Record<string, unknown>)[k])) kept[k] = v
  return withChanges(base, { changes: kept as Partial<RecordOf<S>> })
}

/**
 * Sets one field's change, uncast (a value the app computed, such as a password hash); a value
 * equal to the record's current one removes the change.
 *
 * @example
 * cs = putChange(cs, 'password_hash', await hashPassword(String(getChange(cs, 'password'))))
 */
export function putChange<S extends AnySchema, K extends FieldOf<S>>(
  cs: Changeset<S>,
  field: K,
  value: RecordOf<S>[K],
): Changeset<S> {
  assertFields(cs.schema, [field])
  const changes: Record<string, unknown> = { ...cs.changes }
  if (same(value, (cs.data as Record<string, unknown>)[field])) delete changes[field]
  else changes[field] = value
  return withChanges(cs, { changes: changes as Partial<RecordOf<S>> })
}

/**
 * The value a field will have: its change if any, else the existing data.
 *
 * @example
 * const price = getField(cs, 'price') // the new price, or the product's current one
 */
export function getField<S extends AnySchema, K extends FieldOf<S>>(
  cs: Changeset<S>,
  field: K,
): RecordOf<S>[K] | undefined {
  const changes = cs.changes as Record<string, unknown>
  return (Object.hasOwn(changes, field) ? changes[field] : (cs.data as Record<string, unknown>)[field]) as
    | RecordOf<S>[K]
    | undefined
}

/**
 * The change to one field, or `undefined` when the changeset leaves it as it is.
 *
 * @example
 * const email = getChange(cs, 'email')
 * if (email !== undefined) cs = putChange(cs, 'email', String(email).toLowerCase())
 */
export function getChange<S extends AnySchema, K extends FieldOf<S>>(
  cs: Changeset<S>,
  field: K,
): RecordOf<S>[K] | undefined {
  return (cs.changes as Record<string, unknown>)[field] as RecordOf<S>[K] | undefined
}

/**
 * Adds an error on `field` and marks the changeset invalid. `%{key}` placeholders in the message
 * are filled from `meta` by `errorsToJson`.
 *
 * @example
 * if (getField(cs, 'ends_at')! < getField(cs, 'starts_at')!) cs = addError(cs, 'ends_at', 'must be after the start')
 */
export function addError<S extends AnySchema>(
  cs: Changeset<S>,
  field: string,
  message: string,
  meta: Record<string, unknown> = {},
): Changeset<S> {
  return withChanges(cs, { errors: [...cs.errors, { field, message, meta }], valid: false })
}

/**
 * The record the changeset describes: data with changes applied (no database involved).
 *
 * @example
 * const preview = applyChanges(cast(Product, product, req.params, ['name', 'price']))
 */
export function applyChanges<S extends AnySchema>(cs: Changeset<S>): Partial<RecordOf<S>> {
  return { ...cs.data, ...cs.changes }
}

/**
 * One error's message with its `%{key}` placeholders filled from its meta (Ecto's
 * `traverse_errors` with interpolation).
 *
 * @example
 * cs.errors.map((e) => `${e.field} ${errorMessage(e)}`) // ['name should be at most 255 character(s)']
 */
export function errorMessage(error: FieldError): string {
  return error.message.replace(/%\{(\w+)\}/g, (whole, key: string) =>
    key in error.meta ? String(error.meta[key]) : whole,
  )
}

/** A changeset's errors as `errorsToJson` gives them: messages per field, nested for associations and embeds. */
export type ErrorsJson = { [field: string]: string[] | ErrorsJson | ErrorsJson[] }

/**
 * `{ field: [messages] }` for a 422 body. Association and embedded errors nest: a hasMany or
 * embedsMany gives a list with one object per child (`{}` for a valid child), a hasOne or
 * embedsOne gives one object (`{ address: { city: ["can't be blank"] } }`).
 *
 * @example
 * const res = await repo.insert(cs)
 * if (!res.ok && isChangeset(res.error)) return status(422, { errors: errorsToJson(res.error) })
 * // 422 { "errors": { "name": ["can't be blank"] } }
 */
export function errorsToJson(cs: Changeset): ErrorsJson {
  const out: ErrorsJson = {}
  for (const e of cs.errors) ((out[e.field] ??= []) as string[]).push(errorMessage(e))
  for (const [name, children] of Object.entries(cs.assocChanges)) {
    if (children.every((c) => c.valid)) continue
    const kind = cs.schema.associations[name]?.kind
    out[name] = kind === 'hasOne' ? errorsToJson(children[0]!) : children.map(errorsToJson)
  }
  for (const [name, child] of Object.entries(cs.embeds)) {
    if (Array.isArray(child)) {
      if (!child.every((c) => c.valid)) out[name] = child.map(errorsToJson)
    } else if (!(child as Changeset).valid) out[name] = errorsToJson(child as Changeset)
  }
  return out
}
