/**
 * Small types every layer names. Like every module in `server/contracts/`, this one holds types
 * only and sits at the bottom of the import graph, so any module may import it without making a
 * cycle (the repo's cycle check fails on one).
 */

/** A value, or a promise of it: what hooks and callbacks may return. */
export type MaybePromise<T> = T | Promise<T>

/** The app's JSON library (`jsonLib`): every JSON body is encoded and decoded with it. */
export interface JsonLib {
  encode(value: unknown): string
  decode(text: string): unknown
}

/** Module namespaces keyed by file path or name, as `import.meta.glob(…, { eager: true })` gives them. */
export type ModuleMap<T> = Readonly<Record<string, T>>
