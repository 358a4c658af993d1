/**
 * Factories: a schema's default attributes declared once (`defineFactory`), so a test (or a seed)
 * names only the fields it cares about. Built on changesets: `factory(Product, { price: 5 })` is an
 * insert changeset of the defaults with the overrides on top, checked like any changeset (unknown
 * fields throw; a factory may use the app's own changeset function, validations included).
 *
 * The defaults function gets a sequence number, 1, 2, 3, … per factory, for unique fields
 * (`email: \`user${n}@example.com\``). Numbers are never reused within a process, so rows built in
 * different tests of a file never collide.
 */
import { applyChanges, change, errorsToJson, withChanges, type Changeset } from './changeset.ts'
import type { Repo } from './repo.ts'
import type { AnySchema, RecordOf } from './schema.ts'

/** What a factory's overrides may give: any field of the schema. */
export type FactoryAttrs<S extends AnySchema> = { readonly [K in keyof RecordOf<S>]?: RecordOf<S>[K] }

/** What `defineFactory` takes besides the defaults. */
export interface FactoryOptions<S extends AnySchema> {
  /**
   * Builds the changeset from the merged attributes, e.g. the app's own
   * `(attrs) => productChangeset(null, attrs)`, so factory rows pass the same validations. Default:
   * `change(schema, null, attrs)`, which writes the attributes as they are.
   */
  readonly changeset?: (attrs: FactoryAttrs<S>) => Changeset<S>
}

/** A schema's factory, as `defineFactory` returns it. */
export interface Factory<S extends AnySchema> {
  readonly schema: S
  /** The defaults (with the next sequence number) and `overrides` on top. */
  attrs(overrides?: FactoryAttrs<S>): FactoryAttrs<S>
  /** An insert changeset of those attributes (`repo.insert(f.changeset())`). */
  changeset(overrides?: FactoryAttrs<S>): Changeset<S>
  /** The record those attributes make, not stored (no id unless given); throws when the changeset is invalid. */
  build(overrides?: FactoryAttrs<S>): Partial<RecordOf<S>>
  /** Inserts one record and gives it as stored; throws, naming the errors, when the insert fails. */
  insert(repo: Repo, overrides?: FactoryAttrs<S>): Promise<RecordOf<S>>
  /** Inserts `count` records, one after the other, each with its own sequence number. */
  insertMany(repo: Repo, count: number, overrides?: FactoryAttrs<S>): Promise<RecordOf<S>[]>
}

const factories = new WeakMap<AnySchema, Factory<AnySchema>>()

/**
 * Declares the default attributes of `schema`'s test records: a function of a sequence number
 * (1, 2, 3, … per factory) for unique fields. Registers the factory for `factory(schema, …)` too
 * (a second `defineFactory` of the same schema replaces the first).
 *
 * @example
 * export const products = defineFactory(Product, (n) => ({ name: `Product ${n}`, price: 100 }))
 *
 * const tea = await products.insert(repo, { name: 'Tea' })     // stored, with its id
 * const draft = products.build({ price: 0 })                   // not stored
 * const [a, b] = await products.insertMany(repo, 2)
 */
export function defineFactory<S extends AnySchema>(
  schema: S,
  defaults: (n: number) => FactoryAttrs<S>,
  opts: FactoryOptions<S> = {},
): Factory<S> {
  if (typeof defaults !== 'function')
    throw new Error(`defineFactory ${schema.table}: give the defaults as a function, (n) => ({ … })`)
  let n = 0
  const make = opts.changeset ?? ((attrs: FactoryAttrs<S>) => change(schema, null, attrs as never))
  const f: Factory<S> = {
    schema,
    attrs: (overrides = {}) => ({ ...defaults(++n), ...overrides }),
    changeset(overrides) {
      const cs = make(f.attrs(overrides))
      return cs.action === 'insert' ? cs : withChanges(cs, { action: 'insert' })
    },
    build(overrides) {
      const cs = f.changeset(overrides)
      if (!cs.valid) throw new Error(`factory ${schema.table}: invalid: ${JSON.stringify(errorsToJson(cs))}`)
      return applyChanges(cs)
    },
    async insert(repo, overrides) {
      const res = await repo.insert(f.changeset(overrides))
      if (!res.ok) throw new Error(`factory ${schema.table}: insert failed: ${JSON.stringify(errorsToJson(res.error))}`)
      return res.value
    },
    async insertMany(repo, count, overrides) {
      if (!Number.isSafeInteger(count) || count < 0)
        throw new Error(`factory ${schema.table}: insertMany takes a whole number of records, got ${String(count)}`)
      const out: RecordOf<S>[] = []
      for (let i = 0; i < count; i++) out.push(await f.insert(repo, overrides))
      return out
    },
  }
  factories.set(schema, f as unknown as Factory<AnySchema>)
  return f
}

/**
 * The insert changeset of `schema`'s registered factory (`defineFactory`) with `overrides` on top;
 * throws for a schema without a factory.
 *
 * @example
 * const res = await repo.insert(factory(Product, { price: 5 }))
 */
export function factory<S extends AnySchema>(schema: S, overrides?: FactoryAttrs<S>): Changeset<S> {
  const f = factories.get(schema) as Factory<S> | undefined
  if (!f)
    throw new Error(
      `factory: schema ${schema.table} has no factory; declare its defaults once with defineFactory(<schema>, (n) => ({ … }))`,
    )
  return f.changeset(overrides)
}
