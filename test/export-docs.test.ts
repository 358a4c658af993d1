// Every public export is documented where editors show it on hover: each name a subpath exports
// (values and types, and the virtual modules `vela/client` declares) has a doc comment with a
// one-line summary, and each exported function a user calls (`define*` helpers, reply helpers,
// `createApp`, `listen`, …) also has an `@example`. Classes, constants and types need the summary
// only. The exports and their comments are read as the TypeScript checker sees them by
// scripts/reference/read-api.ts, the same reader that writes the reference pages, so what passes
// here is what those pages show.
import { beforeAll, describe, expect, it } from 'vitest'
import { ENTRIES } from '../scripts/reference/entries.ts'
import { type ApiPage, type ExportDoc, exportDocs, readApi } from '../scripts/reference/read-api.ts'

/** The names among `docs` without a summary, and the functions among them without an example. */
function undocumented(docs: readonly ExportDoc[]): { withoutSummary: string[]; functionsWithoutExample: string[] } {
  return {
    withoutSummary: docs.filter((d) => d.summary.trim() === '').map((d) => d.name),
    functionsWithoutExample: docs.filter((d) => d.isFunction && !d.hasExample).map((d) => d.name),
  }
}

let pages: ApiPage[] = []
// Opening the project starts TypeScript's checker: a few seconds on a busy machine.
beforeAll(() => {
  pages = readApi(ENTRIES)
}, 120_000)

describe('doc comments of the public API', () => {
  for (const entry of ENTRIES) {
    it(`every export of ${entry.subpath} has a summary, and every exported function an @example`, () => {
      const docs = exportDocs(pages.find((p) => p.entry === entry)!)
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

  it('functions are told from other values: `json` and `defineApp` are, `requestPlugin` (made by a call) is not', () => {
    const vela = exportDocs(pages.find((p) => p.entry.subpath === 'vela')!)
    const byName = (name: string) => vela.find((d) => d.name === name)
    expect(byName('json')).toMatchObject({ kind: 'value', isFunction: true, hasExample: true })
    expect(byName('defineApp')).toMatchObject({ kind: 'value', isFunction: true })
    expect(byName('requestPlugin')).toMatchObject({ kind: 'value', isFunction: false })
    expect(byName('AppConfig')).toMatchObject({ kind: 'type', isFunction: false })
    const client = exportDocs(pages.find((p) => p.entry.subpath === 'vela/client')!)
    expect(client.map((d) => d.name)).toContain('virtual:vela/app: create')
  })
})
