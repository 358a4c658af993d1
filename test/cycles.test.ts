// The import-cycle check's rule (scripts/check-cycles.ts, run by `npm test` over the real tree):
// which imports count as on a cycle, which are allowed, and what it says about the allowed list.
import { describe, expect, it } from 'vitest'
import { checkCycles, cycleEdges, type ImportGraph } from '../scripts/check-cycles.ts'

const graph = (edges: Record<string, string[]>): ImportGraph => new Map(Object.entries(edges))

describe('import cycle check', () => {
  it('an import is on a cycle when what it imports leads back to it', () => {
    const g = graph({
      'server/a.ts': ['server/b.ts'],
      'server/b.ts': ['server/c.ts'],
      'server/c.ts': ['server/a.ts', 'server/leaf.ts'],
      'server/top.ts': ['server/a.ts'],
    })
    expect(cycleEdges(g)).toEqual([
      ['server/a.ts', 'server/b.ts'],
      ['server/b.ts', 'server/c.ts'],
      ['server/c.ts', 'server/a.ts'],
    ])
    expect(cycleEdges(graph({ 'server/a.ts': ['server/b.ts'], 'server/b.ts': ['server/leaf.ts'] }))).toEqual([])
  })

  it('fails on an import on a cycle the list does not allow, including one closing a new cycle through allowed imports', () => {
    const known = [
      ['server/a.ts', 'server/b.ts'],
      ['server/b.ts', 'server/a.ts'],
    ] as const
    expect(checkCycles(graph({ 'server/a.ts': ['server/b.ts'], 'server/b.ts': ['server/a.ts'] }), known)).toEqual({
      unexpected: [],
      gone: [],
    })
    const grown = graph({
      'server/a.ts': ['server/b.ts'],
      'server/b.ts': ['server/a.ts', 'server/c.ts'],
      'server/c.ts': ['server/b.ts'],
    })
    expect(checkCycles(grown, known).unexpected).toEqual([
      ['server/b.ts', 'server/c.ts'],
      ['server/c.ts', 'server/b.ts'],
    ])
  })

  it('a cycle in dbl/ fails even if listed; listed imports no longer on a cycle are reported', () => {
    const dbl = graph({ 'dbl/model.ts': ['dbl/foreign-keys.ts'], 'dbl/foreign-keys.ts': ['dbl/model.ts'] })
    const listed = [
      ['dbl/model.ts', 'dbl/foreign-keys.ts'],
      ['dbl/foreign-keys.ts', 'dbl/model.ts'],
    ] as const
    expect(checkCycles(dbl, listed).unexpected).toHaveLength(2)
    const fixed = graph({ 'dbl/model.ts': ['dbl/table-model.ts'], 'dbl/foreign-keys.ts': ['dbl/table-model.ts'] })
    expect(checkCycles(fixed, [['server/a.ts', 'server/b.ts']])).toEqual({
      unexpected: [],
      gone: [['server/a.ts', 'server/b.ts']],
    })
  })
})
