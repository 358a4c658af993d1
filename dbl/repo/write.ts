/**
 * `insert`, `update` and `delete` of changesets. Before any SQL: an invalid changeset comes straight
 * back; `string` values longer than their VARCHAR size become field errors. A violated declared
 * constraint comes back as a field error (constraints.ts). Association changes make the write one
 * transaction: the parent first, then each child with the parent's key as its foreign key; for a
 * manyToMany association, each linked record, then the join table's links (links.ts).
 */
import { resolveAssoc, type ResolvedAssoc } from '../assoc.ts'
import {
  addError,
  putChange,
  varcharError,
  withChanges,
  type Action,
  type Changeset,
  type FieldOf,
} from '../changeset.ts'
import { byColumn, columnOf, columnsOf } from '../column-names.ts'
import { constraintError } from '../constraints.ts'
import { isServerError, toDbError } from '../db-error.ts'
import { err, ok, type Result } from '../result.ts'
import { SOFT_DELETE_SCOPE, type AnySchema, type RecordOf } from '../schema.ts'
import { compiled, dumpValue, JsonValueError, kx, loadKnex, marker, outsideEnum, paramsFor, sqlOf } from '../sql.ts'
import { loadRows } from './load-rows.ts'
import { missingKeyField } from '../primary-key.ts'
import type { Knex } from 'knex'
import { exec, type RepoContext } from './context.ts'
import { replaceLinks } from './links.ts'
import { hasHooks, withHooks } from './run-hooks.ts'
import { transaction } from './transaction.ts'
import { scopeFilters, skippedWith } from '../scopes.ts'

/**
 * What `insert`, `update` and `delete` resolve to: the written row, or the changeset with its
 * errors (its own validations, or a declared constraint the database reported). Any other database
 * failure is thrown as a `DbError`, as reads throw it.
 */
export type WriteResult<S extends AnySchema> = Result<RecordOf<S>, Changeset<S>>

/** Upsert: on a conflict over `target`, update the `replace` fields from the new row. */
export interface OnConflictReplace<S extends AnySchema> {
  readonly target: readonly FieldOf<S>[]
  readonly replace: readonly FieldOf<S>[]
}

/**
 * `INSERT … ON CONFLICT (target) DO NOTHING`: on a conflict over `target` (over any unique
 * constraint when omitted) nothing is written and the insert's value is `null`, so the type makes
 * the caller handle "already there". The existing row is not read back (Ecto returns the struct
 * without an id instead); read it with `getBy` when needed.
 */
export interface OnConflictNothing<S extends AnySchema> {
  readonly target?: readonly FieldOf<S>[]
  readonly action: 'nothing'
}

/** `repo.insert`'s options: what to do when the row conflicts with a unique constraint (upsert, or skip). */
export interface InsertOptions<S extends AnySchema> {
  readonly onConflict?: OnConflictReplace<S> | OnConflictNothing<S>
}

/** An insert that may have been skipped (`onConflict: { action: 'nothing' }`): `ok(null)` then. */
export type MaybeInsertResult<S extends AnySchema> = Result<RecordOf<S> | null, Changeset<S>>

function withAction<S extends AnySchema>(cs: Changeset<S>, action: Action): Changeset<S> {
  return cs.action === action ? cs : withChanges(cs, { action })
}

/**
 * What `change`/`putChange` may put in without `cast`, checked again: VARCHAR sizes, a jsonb
 * change that is `undefined` (JSON has no such value; it would be written as NULL), and an enum
 * value the enum does not list ("is invalid", as `cast` says: reading the row back would throw a
 * `LoadError`). A jsonb value JSON cannot carry is found while encoding the statement
 * (`JsonValueError`, see writeFailure).
 */
function sizeErrors<S extends AnySchema>(cs: Changeset<S>): Changeset<S> {
  let out = cs
  const enums = sqlOf(cs.schema).enums
  for (const [name, value] of Object.entries(cs.changes)) {
    const f = cs.schema.fieldsByName[name]!
    if (f.type === 'jsonb' && value === undefined && !out.errors.some((x) => x.field === name))
      out = addError(out, name, 'is invalid', { type: 'jsonb', validation: 'cast' })
    const en = enums.find((x) => x.name === name)
    if (en && outsideEnum(en, value) && !out.errors.some((x) => x.field === name))
      out = addError(out, name, 'is invalid', { type: f.type, validation: 'cast' })
    if (f.type !== 'string' || typeof value !== 'string' || f.virtual) continue
    const e = varcharError(name, value, f.size ?? 255)
    if (e && !out.errors.some((x) => x.field === name && x.message === e.message))
      out = addError(out, name, e.message, e.meta)
  }
  return out
}

/** Children to write; a manyToMany set counts even when empty (it removes every link). */
function hasChildren(cs: Changeset): boolean {
  return Object.entries(cs.assocChanges).some(
    ([name, list]) => list.length > 0 || cs.schema.associations[name]?.kind === 'manyToMany',
  )
}

/**
 * Maps a failure to a result: a declared constraint (or a jsonb value JSON cannot carry) gives the
 * changeset; any other server error is thrown as a `DbError`, infrastructure errors as they are.
 */
function writeFailure<S extends AnySchema>(cs: Changeset<S>, e: unknown): Result<never, Changeset<S>> {
  // "is invalid", as `cast` says, rather than written as something else.
  if (e instanceof JsonValueError)
    return err(addError(cs, e.field, 'is invalid', { type: 'jsonb', validation: 'cast' }))
  if (!isServerError(e)) throw e
  const dbError = toDbError(e)
  const failed = constraintError(cs, dbError)
  if (!failed) throw dbError
  return err(failed)
}

/** The ON CONFLICT clause's part of the statement cache key ('' without one); checks the option's shape. */
function conflictKey(conflict: InsertOptions<AnySchema>['onConflict']): string {
  if (!conflict) return ''
  if ('action' in conflict) {
    if (conflict.action !== 'nothing' || 'replace' in conflict)
      throw new Error(`insert onConflict: give { target, replace } or { target?, action: 'nothing' }`)
    return ` on ${(conflict.target ?? []).join(',')} nothing`
  }
  return ` on ${conflict.target.join(',')} set ${conflict.replace.join(',')}`
}

/** The inserted row, or null when ON CONFLICT DO NOTHING skipped it (RETURNING gives no row then). */
async function insertRow(
  ctx: RepoContext,
  schema: AnySchema,
  row: Record<string, unknown>,
  opts: InsertOptions<AnySchema>,
): Promise<RecordOf<AnySchema> | null> {
  const fields = Object.keys(row).sort()
  const conflict = opts.onConflict
  if (!kx) await loadKnex()
  const c = compiled(`insert ${schema.table} ${fields.join(',')}${conflictKey(conflict)}`, () => {
    const data: Record<string, number> = {}
    fields.forEach((f, i) => (data[f] = marker(i)))
    const q = kx(schema.table)
      .insert(byColumn(schema, data))
      .returning(sqlOf(schema).selectList as string[])
    if (!conflict) return q
    if ('action' in conflict)
      return (conflict.target?.length ? q.onConflict(columnsOf(schema, conflict.target)) : q.onConflict()).ignore()
    return q.onConflict(columnsOf(schema, conflict.target)).merge(columnsOf(schema, conflict.replace))
  })
  const values = fields.map((f) => dumpValue(schema.fieldsByName[f]!, row[f]))
  const res = await exec(ctx, c.sql, paramsFor(c, values), 'INSERT', schema.table)
  return (loadRows(schema, res.rows)[0] as RecordOf<AnySchema> | undefined) ?? null
}

/** Without `onConflict: { action: 'nothing' }` the value is never null (repo.ts types it so). */
export async function insert<S extends AnySchema>(
  ctx: RepoContext,
  input: Changeset<S>,
  opts: InsertOptions<S> = {},
): Promise<MaybeInsertResult<S>> {
  const cs = sizeErrors(withAction(input, 'insert'))
  if (!cs.valid || cs.errors.length) return err(cs)
  if (hasHooks(cs)) return withHooks(ctx, cs, 'insert', sizeErrors, (c) => insertValid(ctx, c, opts))
  return insertValid(ctx, cs, opts)
}

/** An insert past its checks: the row, with its children in one transaction. */
function insertValid<S extends AnySchema>(
  ctx: RepoContext,
  cs: Changeset<S>,
  opts: InsertOptions<S>,
): Promise<MaybeInsertResult<S>> {
  if (hasChildren(cs)) return inTransaction(ctx, () => insertWithChildren(ctx, cs, opts))
  return insertOne(ctx, cs, opts)
}

async function insertOne<S extends AnySchema>(
  ctx: RepoContext,
  cs: Changeset<S>,
  opts: InsertOptions<S>,
): Promise<MaybeInsertResult<S>> {
  const schema = cs.schema
  const row: Record<string, unknown> = {}
  const merged = { ...cs.data, ...cs.changes } as Record<string, unknown>
  for (const f of schema.fields) {
    const v = merged[f.name]
    if (v !== undefined && !f.virtual && !(f.primaryKey && v === null)) row[f.name] = v
  }
  const now = new Date()
  for (const t of ['inserted_at', 'updated_at']) if (schema.fieldsByName[t] && row[t] == null) row[t] = now
  // A scoped field the changeset leaves unset takes the scope's value (a new row of the current tenant).
  const scope = schema.scopes === undefined ? undefined : scopeFilters(schema)
  for (const f in scope) if (row[f] === undefined && scope[f] !== null) row[f] = scope[f]
  try {
    return ok((await insertRow(ctx, schema, row, opts)) as RecordOf<S> | null)
  } catch (e) {
    return writeFailure(cs, e)
  }
}

async function inTransaction<R extends MaybeInsertResult<AnySchema>>(
  ctx: RepoContext,
  fn: () => Promise<R>,
): Promise<R> {
  const res = await transaction(ctx, fn)
  return res as R
}

/** A parent skipped by ON CONFLICT DO NOTHING has no key to give: its children are not inserted either. */
async function insertWithChildren<S extends AnySchema>(
  ctx: RepoContext,
  cs: Changeset<S>,
  opts: InsertOptions<S>,
): Promise<MaybeInsertResult<S>> {
  const parent = await insertOne(ctx, cs, opts)
  if (!parent.ok || parent.value === null) return parent
  return saveChildren(ctx, cs, parent.value)
}

/**
 * Inserts or updates each child with the parent's key (manyToMany: each linked record as it is,
 * then the links); the first failure returns the parent changeset carrying it.
 */
async function saveChildren<S extends AnySchema>(
  ctx: RepoContext,
  cs: Changeset<S>,
  parent: RecordOf<S>,
): Promise<WriteResult<S>> {
  const out: Record<string, unknown> = { ...parent }
  for (const [name, children] of Object.entries(cs.assocChanges)) {
    const assoc = resolveAssoc(cs.schema, name)
    const key = (parent as Record<string, unknown>)[cs.schema.primaryKey]
    const saved: Record<string, unknown>[] = []
    for (let i = 0; i < children.length; i++) {
      const child = assoc.through ? children[i]! : withParentKey(children[i]!, assoc, parent as Record<string, unknown>)
      const res = child.action === 'update' ? await update(ctx, child) : await insert(ctx, child)
      if (!res.ok) {
        if (!isChangesetError(res.error)) return res as WriteResult<S>
        const list = [...children]
        list[i] = res.error
        return err(withChanges(cs, { assocChanges: { ...cs.assocChanges, [name]: list }, valid: false }))
      }
      saved.push(res.value as Record<string, unknown>)
    }
    if (assoc.through) {
      const linked = await replaceLinks(ctx, cs, assoc, key, saved, cs.action === 'update')
      if (!linked.ok) return linked
    }
    out[name] =
      assoc.kind === 'hasOne' ? (saved[0] ?? null) : assoc.through ? onceEach(saved, assoc.related.primaryKey) : saved
  }
  return ok(out as RecordOf<S>)
}

/** The child changeset with its foreign key set to the parent's key (each column of a composite one). */
function withParentKey(child: Changeset, assoc: ResolvedAssoc, parent: Record<string, unknown>): Changeset {
  let out = child
  for (let j = 0; j < assoc.foreignKeys.length; j++)
    out = putChange(out, assoc.foreignKeys[j] as never, parent[assoc.keys[j]!] as never)
  return out
}

/** Records in order, each primary key once (a set given with a key twice is linked once). */
function onceEach(records: readonly Record<string, unknown>[], pk: string): Record<string, unknown>[] {
  const seen = new Set<unknown>()
  return records.filter((r) => !seen.has(r[pk]) && (seen.add(r[pk]), true))
}

function isChangesetError(e: unknown): e is Changeset {
  return typeof e === 'object' && e !== null && (e as { kind?: unknown }).kind === 'vela.changeset'
}

/** Ecto's stale_error_field: the row to update or delete is gone, or a filter (`optimisticLock`) no longer matches; the error goes on that filter's field. */
function stale<S extends AnySchema>(cs: Changeset<S>): Result<never, Changeset<S>> {
  return err(addError(cs, Object.keys(cs.filters)[0] ?? cs.schema.primaryKeys[0]!, 'is stale', { stale: true }))
}

type Filters = Readonly<Record<string, unknown>>

/** The changeset's filters and its schema's default scopes (scopes.ts): what an update or delete matches besides the key. */
function filtersOf(cs: Changeset, skip?: readonly string[]): Filters {
  const scope = cs.schema.scopes === undefined ? undefined : scopeFilters(cs.schema, skippedWith(skip))
  return scope ? { ...scope, ...cs.filters } : cs.filters
}

/** `WHERE pk = ?` (every key field of a composite key) plus the filters (null = IS NULL): the clause. */
function filtered(cs: Changeset, filters: Filters, b: Knex.QueryBuilder, first: number): Knex.QueryBuilder {
  let i = first
  for (const k of cs.schema.primaryKeys) b.where(columnOf(cs.schema, k), marker(i++))
  for (const f of Object.keys(filters).sort()) {
    if (filters[f] === null) b.whereNull(columnOf(cs.schema, f))
    else b.where(columnOf(cs.schema, f), marker(i++))
  }
  return b
}

function filterKey(filters: Filters): string {
  const keys = Object.keys(filters)
  return keys.length
    ? ` if ${keys
        .sort()
        .map((f) => (filters[f] === null ? f + ' null' : f))
        .join(',')}`
    : ''
}

function filterValues(cs: Changeset, filters: Filters): unknown[] {
  const out: unknown[] = []
  for (const f of Object.keys(filters).sort())
    if (filters[f] !== null) out.push(dumpValue(cs.schema.fieldsByName[f]!, filters[f]))
  return out
}

/**
 * The values a write's `WHERE` matches the key on, in key order: the value itself for a one-field
 * key (no array made), the list of values for a composite key.
 */
function keyValues(schema: AnySchema, data: Record<string, unknown>): unknown {
  if (schema.primaryKeys.length === 1) return data[schema.primaryKey]
  return schema.primaryKeys.map((k) => data[k])
}

/** Appends the key's values (as `keyValues` gave them) to a statement's values. */
function pushKey(schema: AnySchema, values: unknown[], id: unknown): void {
  if (schema.primaryKeys.length === 1) values.push(id)
  else values.push(...(id as unknown[]))
}

/** UPDATE of the changed fields by primary key (plus `updated_at`); no changes = no query. */
export function update<S extends AnySchema>(ctx: RepoContext, input: Changeset<S>): Promise<WriteResult<S>> {
  // Not `async`: the statement's own promise is handed on, with no second one around it.
  try {
    const cs = sizeErrors(withAction(input, 'update'))
    if (!cs.valid || cs.errors.length) return Promise.resolve(err(cs))
    const missing = missingKeyField(cs.schema, cs.data as Record<string, unknown>)
    if (missing !== undefined) throw new Error(`update: the changeset's data has no ${missing}; insert it instead`)
    const id = keyValues(cs.schema, cs.data as Record<string, unknown>)
    // No changes: no statement, so no hooks either.
    if (!storedChanges(cs) && !hasChildren(cs)) return Promise.resolve(ok({ ...cs.data } as RecordOf<S>))
    if (hasHooks(cs)) return withHooks(ctx, cs, 'update', sizeErrors, (c) => updateValid(ctx, c, id))
    return updateValid(ctx, cs, id)
  } catch (e) {
    return Promise.reject(e)
  }
}

/** Whether the changeset changes any stored (not virtual) field. */
function storedChanges(cs: Changeset): boolean {
  for (const k in cs.changes) if (!cs.schema.fieldsByName[k]!.virtual) return true
  return false
}

/** An update past its checks: the row (by `id`), then its children, in one transaction. */
async function updateValid<S extends AnySchema>(
  ctx: RepoContext,
  cs: Changeset<S>,
  id: unknown,
): Promise<WriteResult<S>> {
  const schema = cs.schema
  const changes: Record<string, unknown> = {}
  for (const [k, v] of Object.entries(cs.changes)) if (!schema.fieldsByName[k]!.virtual) changes[k] = v
  const fields = Object.keys(changes)
  if (fields.length === 0 && !hasChildren(cs)) return ok({ ...cs.data } as RecordOf<S>)
  if (hasChildren(cs)) {
    return inTransaction(ctx, async () => {
      const parent = await updateValid(ctx, withChanges(cs, { assocChanges: {} }), id)
      return parent.ok ? saveChildren(ctx, cs, parent.value) : (parent as WriteResult<S>)
    })
  }
  if (schema.fieldsByName.updated_at && !('updated_at' in changes)) changes.updated_at = new Date()
  const set = Object.keys(changes).sort()
  if (!kx) await loadKnex()
  const filters = filtersOf(cs)
  const c = compiled(`update ${schema.table} ${set.join(',')}${filterKey(filters)}`, () => {
    const data: Record<string, number> = {}
    set.forEach((f, i) => (data[f] = marker(i)))
    return filtered(cs, filters, kx(schema.table).update(byColumn(schema, data)), set.length).returning(
      sqlOf(schema).selectList as string[],
    )
  })
  try {
    const values = set.map((f) => dumpValue(schema.fieldsByName[f]!, changes[f]))
    pushKey(schema, values, id)
    values.push(...filterValues(cs, filters))
    const res = await exec(ctx, c.sql, paramsFor(c, values), 'UPDATE', schema.table)
    return res.rows.length ? ok(loadRows(schema, res.rows)[0] as RecordOf<S>) : stale(cs)
  } catch (e) {
    return writeFailure(cs, e)
  }
}

/** `repo.delete`'s options. */
export interface DeleteOptions {
  /** For a `softDelete` schema: remove the row instead of setting its deleted-at column. */
  readonly hard?: boolean
}

/**
 * DELETE by primary key; the value is the deleted row. A violated declared constraint
 * (noAssocConstraint) is a field error. A `softDelete` schema's row is not removed but has its
 * deleted-at column set (UPDATE), unless `hard`; one already deleted is stale, as a missing one.
 */
export function remove<S extends AnySchema>(
  ctx: RepoContext,
  input: Changeset<S>,
  opts: DeleteOptions = {},
): Promise<WriteResult<S>> {
  // Not `async`, as `update`.
  const cs = withAction(input, 'delete')
  if (!cs.valid) return Promise.resolve(err(cs))
  const missing = missingKeyField(cs.schema, cs.data as Record<string, unknown>)
  if (missing !== undefined) return Promise.reject(new Error(`delete: the record has no ${missing}`))
  const id = keyValues(cs.schema, cs.data as Record<string, unknown>)
  if (hasHooks(cs)) return withHooks(ctx, cs, 'delete', same, (c) => removeValid(ctx, c, id, opts))
  return removeValid(ctx, cs, id, opts)
}

const same = <T>(cs: T): T => cs

/** A delete past its checks: by `id` and the changeset's filters. */
async function removeValid<S extends AnySchema>(
  ctx: RepoContext,
  cs: Changeset<S>,
  id: unknown,
  opts: DeleteOptions,
): Promise<WriteResult<S>> {
  const schema = cs.schema
  if (!kx) await loadKnex()
  // A hard delete removes a row whether or not it was soft-deleted before.
  const filters = filtersOf(cs, opts.hard ? [SOFT_DELETE_SCOPE] : undefined)
  const soft = schema.softDelete !== undefined && !opts.hard ? schema.softDelete : undefined
  const c = soft
    ? compiled(`soft delete ${schema.table}${filterKey(filters)}`, () =>
        filtered(cs, filters, kx(schema.table).update({ [columnOf(schema, soft)]: marker(0) }), 1).returning(
          sqlOf(schema).selectList as string[],
        ),
      )
    : compiled(`delete ${schema.table}${filterKey(filters)}`, () =>
        filtered(cs, filters, kx(schema.table), 0)
          .del()
          .returning(sqlOf(schema).selectList as string[]),
      )
  const values: unknown[] = []
  pushKey(schema, values, id)
  values.push(...filterValues(cs, filters))
  if (soft) values.unshift(dumpValue(schema.fieldsByName[soft]!, new Date()))
  try {
    const res = await exec(ctx, c.sql, paramsFor(c, values), soft ? 'UPDATE' : 'DELETE', schema.table)
    return res.rows.length ? ok(loadRows(schema, res.rows)[0] as RecordOf<S>) : stale(cs)
  } catch (e) {
    return writeFailure(cs, e)
  }
}
