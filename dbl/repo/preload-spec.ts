/**
 * What `repo.preload` takes (Ecto's preload lists) and the record type it gives back.
 *
 *   'posts'                                        one association
 *   ['posts', 'profile']                           several
 *   { posts: ['comments'] }                        posts, and each post's comments
 *   ['profile', { posts: [{ comments: ['author'] }] }]
 *
 * Names are checked against the schema's associations (any name for an `AnySchema`); the result is
 * `RecordOf<S>` plus each preloaded association: hasMany / manyToMany a list, belongsTo / hasOne a record or null,
 * themselves with their nested preloads.
 */
import { resolveAssoc, type ResolvedAssoc } from '../assoc.ts'
import type { AnySchema, Association, AssociationsOf, RecordOf } from '../schema.ts'

type AssocName<S> = keyof AssociationsOf<S> & string
type RelatedOf<S, K> = AssociationsOf<S>[K & keyof AssociationsOf<S>] extends Association<infer _K, infer T> ? T : never

/** One entry of a preload list: an association's name, or `{ name: nested list }` to load inside it too. */
export type PreloadItem<S extends AnySchema> =
  | AssocName<S>
  | { readonly [K in AssocName<S>]?: PreloadSpec<RelatedOf<S, K>> }
/** What `repo.preload` loads: one item or a list of them (`['profile', { posts: ['comments'] }]`). */
export type PreloadSpec<S extends AnySchema> = PreloadItem<S> | readonly PreloadItem<S>[]

/**
 * `P` again, with every object key that is not an association of its schema turned into `never`:
 * the parameter is `P & CheckSpec<S, P>`, so `{ posts: [], nope: [] }` is an error on `nope`
 * (the constraint alone lets extra keys of an object through).
 */
export type CheckSpec<S extends AnySchema, P> = P extends string
  ? P
  : P extends readonly unknown[]
    ? { readonly [I in keyof P]: CheckSpec<S, P[I]> }
    : { readonly [K in keyof P]: K extends AssocName<S> ? CheckSpec<RelatedOf<S, K>, P[K]> : never }

/** The association names a spec loads at its top level. */
type TopNames<P> = P extends string ? P : P extends readonly (infer E)[] ? TopNames<E> : keyof P & string
/** What a spec asks to load inside association `K` (never: nothing nested). */
type Nested<P, K extends string> = P extends readonly (infer E)[]
  ? Nested<E, K>
  : P extends { readonly [N in K]?: infer Sub }
    ? Sub
    : never

type Loaded<A, P> =
  A extends Association<infer Kind, infer T>
    ? Kind extends 'hasMany' | 'manyToMany'
      ? Preloaded<T, P>[]
      : Preloaded<T, P> | null
    : never

/**
 * A record of `S` with the associations of spec `P` loaded. An association whose schema is
 * `AnySchema` (a cut cycle) may be of any kind, so its value is the union of the three shapes.
 */
export type Preloaded<S extends AnySchema, P> = [TopNames<P>] extends [never]
  ? RecordOf<S>
  : RecordOf<S> & { [K in TopNames<P>]: Loaded<AssociationsOf<S>[K & keyof AssociationsOf<S>], Nested<P, K>> }

/** A spec resolved against the schemas: each association once, with what to load inside it. */
export interface PreloadNode {
  readonly assoc: ResolvedAssoc
  readonly children: readonly PreloadNode[]
}

/**
 * Resolves and checks a whole spec before any query runs, so a misspelt name deep inside costs no
 * query. Entries naming the same association merge (`['posts', { posts: ['comments'] }]`).
 */
export function resolveSpec(schema: AnySchema, spec: unknown, path: string = schema.table): PreloadNode[] {
  const wanted = new Map<string, unknown[]>()
  const add = (name: string, sub: unknown): void => {
    const subs = wanted.get(name) ?? []
    if (sub !== undefined) subs.push(sub)
    wanted.set(name, subs)
  }
  for (const item of Array.isArray(spec) ? spec : [spec]) {
    if (typeof item === 'string') add(item, undefined)
    else if (typeof item === 'object' && item !== null && !Array.isArray(item))
      for (const [k, v] of Object.entries(item)) add(k, v)
    else throw new Error(`preload ${path}: ${JSON.stringify(item)} is not an association name or { name: [...] }`)
  }
  return [...wanted].map(([name, subs]) => {
    if (!Object.hasOwn(schema.associations, name)) {
      throw new Error(`preload ${path}: schema ${schema.table} has no association "${name}"`)
    }
    const assoc = resolveAssoc(schema, name)
    return { assoc, children: resolveSpec(assoc.related, subs.flat(), `${path}.${name}`) }
  })
}
