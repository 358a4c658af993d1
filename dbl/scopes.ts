/**
 * Default scopes: conditions a schema declares once (`softDelete`, `scopes`) that every query,
 * preload, update and delete of its rows applies, unless told otherwise (`q.unscoped()`,
 * `q.withDeleted()`, or `withoutScopes(fn)` around a block of repository calls).
 *
 * A scope is a function run each time a statement is built, so it can read a value of the
 * current request: `requestValue` keeps one per async call chain (AsyncLocalStorage, as
 * transactions do), which a plugin sets for the request (`tenant.run(id, next)`).
 *
 * Schemas without scopes pay one property read per statement (`schema.scopes === undefined`).
 */
import { AsyncLocalStorage } from 'node:async_hooks'
import type { Cond } from './query/types.ts'
import type { AnySchema } from './schema.ts'

/** Which scopes a statement leaves out: all of them (`true`), or these names. */
export type SkippedScopes = true | readonly string[]

const skippedHere = new AsyncLocalStorage<SkippedScopes>()

/**
 * Runs `fn` with the schemas' default scopes left out of every statement it makes through a
 * repository (all of them, or only the named ones): for an admin screen, a seed, a job that works
 * across tenants, a hard look at deleted rows.
 *
 * @example
 * const everything = await withoutScopes(() => repo.all(from(Product)))
 * await withoutScopes(() => repo.update(change(Product, product, { price: 10 })), ['tenant'])
 */
export function withoutScopes<T>(fn: () => T, names?: readonly string[]): T {
  return skippedHere.run(names === undefined ? true : [...names], fn)
}

function isSkipped(name: string, skipped: SkippedScopes | undefined): boolean {
  return skipped !== undefined && (skipped === true || skipped.includes(name))
}

/** The equality map every scope of `schema` currently gives (null = IS NULL), minus those skipped. */
export function scopeFilters(
  schema: AnySchema,
  skipped: SkippedScopes | undefined = skippedHere.getStore(),
): Record<string, unknown> | undefined {
  const scopes = schema.scopes
  if (scopes === undefined || skipped === true) return undefined
  let out: Record<string, unknown> | undefined
  for (const name in scopes) {
    if (isSkipped(name, skipped)) continue
    const clauses = scopes[name]!()
    for (const field in clauses) {
      if (!Object.hasOwn(schema.fieldsByName, field))
        throw new Error(`scope ${schema.table}.${name}: schema ${schema.table} has no field ${JSON.stringify(field)}`)
      const value = clauses[field]
      if (value === undefined)
        throw new Error(`scope ${schema.table}.${name}: { ${field}: undefined } (give a value, or null for IS NULL)`)
      ;(out ??= {})[field] = value
    }
  }
  return out
}

/** What a statement leaves out: what it asked for (`skipped`) and what a surrounding `withoutScopes(fn)` did. */
export function skippedWith(skipped: SkippedScopes | undefined): SkippedScopes | undefined {
  const here = skippedHere.getStore()
  return skipped === true || here === true ? true : here && skipped ? [...skipped, ...here] : (skipped ?? here)
}

/**
 * The conditions a statement over `schema` adds for its scopes: `skipped` is what the query itself
 * left out (`unscoped`, `withDeleted`); a surrounding `withoutScopes(fn)` adds to it.
 */
export function scopeConds(schema: AnySchema, skipped: SkippedScopes | undefined): Cond[] | undefined {
  const filters = scopeFilters(schema, skippedWith(skipped))
  if (filters === undefined) return undefined
  const out: Cond[] = []
  for (const field in filters) {
    const value = filters[field]
    out.push(
      value === null
        ? { '~cond': 'op', field, op: 'is null', value: undefined }
        : { '~cond': 'op', field, op: '=', value },
    )
  }
  return out
}

/**
 * A value of the current request (a tenant, an account), read by scopes: a plugin sets it with
 * `run` around the request's handling, a scope reads it with `get`.
 */
export interface RequestValue<T> {
  readonly name: string
  /** Runs `fn` with the value set for every call it makes, however deep. */
  run<R>(value: T, fn: () => R): R
  /** The value; throws when none is set, so a query never runs unfiltered by mistake. */
  get(): T
  /** The value, or `undefined` when none is set. */
  peek(): T | undefined
}

/**
 * A request-scoped value for scopes to read (AsyncLocalStorage). `get()` outside `run` throws,
 * naming the value: a tenant scope then fails closed instead of reading every tenant's rows.
 *
 * @example
 * export const tenant = requestValue<number>('tenant')
 *
 * export const Product = defineSchema({
 *   table: 'products',
 *   fields: { id: 'id', name: 'string', tenant_id: 'integer' },
 *   scopes: { tenant: () => ({ tenant_id: tenant.get() }) },
 * })
 *
 * // in a plugin's hook, around the request:
 * return tenant.run(Number(req.headers['x-tenant']), next)
 */
export function requestValue<T>(name: string): RequestValue<T> {
  const store = new AsyncLocalStorage<{ readonly value: T }>()
  return {
    name,
    run: (value, fn) => store.run({ value }, fn),
    get() {
      const box = store.getStore()
      if (box === undefined)
        throw new Error(
          `requestValue ${name}: no value is set here; run the code inside ${name}.run(value, fn) (a plugin sets it per request), or withoutScopes(fn) to leave the scopes out`,
        )
      return box.value
    },
    peek: () => store.getStore()?.value,
  }
}
