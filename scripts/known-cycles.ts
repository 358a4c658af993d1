// Imports on the import cycles Vela had when the cycle check was added, allowed until they are
// removed: scripts/check-cycles.ts fails on any other import on a cycle. Remove a line once its
// import is no longer on a cycle (the check says which); never add one. dbl/ may have none (the
// check ignores dbl/ lines), and telemetry/ has none.
//
// All of them are gone (server/contracts/ holds the shared types; vite-plugin/app-loader.ts is the
// one loader): the list stays empty, so any import cycle fails the check.

/** An import: the importing module and the imported one, relative to the repo root. */
export type ImportEdge = readonly [from: string, to: string]

export const KNOWN_CYCLE_EDGES: readonly ImportEdge[] = []
