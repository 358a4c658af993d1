// Every public export is documented where editors show it on hover: each name a subpath exports
// (values and types, and the virtual modules `vela/client` declares) has a doc comment with a
// one-line summary, and each exported function a user calls (`define*` helpers, reply helpers,
// `createApp`, `listen`, …) also has an `@example`. Classes, constants and types need the summary
// only. The exports and their comments are read from the sources by scripts/docs-reference.ts, the
// same reader that writes the reference pages, so what passes here is what those pages show.
import { describe, expect, it } from 'vitest'
import { ENTRIES, clientModules, exportsOf, type ExportDoc } from '../scripts/docs-reference.ts'

/** The names among `docs` without a summary, and the functions among them without an example. */
function undocumented(docs: readonly ExportDoc[]): { withoutSummary: string[]; functionsWithoutExample: string[] } {
  return {
    withoutSummary: docs.filter((d) => d.summary.trim() === '').map((d) => d.name),
    functionsWithoutExample: docs.filter((d) => d.isFunction && !d.hasExample).map((d) => d.name),
  }
}

describe('doc comments of the public API', () => {
  for (const entry of ENTRIES) {
    it(`every export of ${entry.subpath} has a summary, and every exported function an @example`, () => {
      const docs = [
        ...exportsOf(entry.index),
        ...(entry.virtualModules
          ? clientModules(entry.virtualModules).flatMap((m) =>
              m.docs.map((d) => ({ ...d, name: `${m.module}: ${d.name}` })),
            )
          : []),
      ]
      expect(docs.length, `${entry.subpath}: no exports found in ${entry.index}`).toBeGreaterThan(0)
      expect(
        undocumented(docs),
        `${entry.subpath} (${entry.index}): names missing a doc comment or an @example`,
      ).toEqual({
        withoutSummary: [],
        functionsWithoutExample: [],
      })
    })
  }
})
