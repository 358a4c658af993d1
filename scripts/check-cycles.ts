// The import-cycle check run by `npm test` (`npm run cycles`). dpdm reads every module of
// server/, dbl/, telemetry/ and vite-plugin/ (tests' support files included; apps under fixtures/
// and the starter template are not Vela's modules), type-only and dynamic imports included: a
// cycle through types still ties the modules' contracts together, and a dynamic import only hides
// one. An import u → v is on a cycle when v leads back to u. The check fails on every such import
// that scripts/known-cycles.ts does not list, and on any cycle in dbl/, and prints the list it
// allows, so the list can only shrink; listed imports no longer on a cycle are named, to be
// removed from it.
import { parseDependencyTree } from 'dpdm'
import { pathToFileURL } from 'node:url'
import { KNOWN_CYCLE_EDGES, type ImportEdge } from './known-cycles.ts'

export const FOLDERS = ['client', 'server', 'dbl', 'telemetry', 'jobs', 'mail', 'vite-plugin']
const EXCLUDE = /node_modules|\.test\.ts$|\/fixtures\/|vite-plugin\/template\/|\.d\.ts$/

/** `file → [imported files]` for every module of FOLDERS (paths relative to `cwd`, `/`-separated). */
export type ImportGraph = ReadonlyMap<string, readonly string[]>

export async function importGraph(cwd = process.cwd()): Promise<ImportGraph> {
  const tree = await parseDependencyTree(
    FOLDERS.map((f) => `${f}/**/*.ts`),
    { context: cwd, transform: false, exclude: EXCLUDE, skipDynamicImports: false },
  )
  const ours = (id: string | null): id is string =>
    id !== null && FOLDERS.some((f) => id.startsWith(`${f}/`)) && !EXCLUDE.test(id)
  const graph = new Map<string, string[]>()
  for (const [file, deps] of Object.entries(tree)) {
    if (!ours(file)) continue
    graph.set(file, [...new Set((deps ?? []).map((d) => d.id).filter(ours))])
  }
  return graph
}

/** Every import `[from, to]` that lies on a cycle: `to` leads back to `from`. */
export function cycleEdges(graph: ImportGraph): ImportEdge[] {
  const reaches = (start: string, goal: string): boolean => {
    const seen = new Set([start])
    const stack = [start]
    while (stack.length) {
      const node = stack.pop()!
      if (node === goal) return true
      for (const next of graph.get(node) ?? []) {
        if (!seen.has(next)) {
          seen.add(next)
          stack.push(next)
        }
      }
    }
    return false
  }
  const edges: ImportEdge[] = []
  for (const [from, tos] of graph) for (const to of tos) if (reaches(to, from)) edges.push([from, to])
  return edges.sort((a, b) => `${a[0]} ${a[1]}`.localeCompare(`${b[0]} ${b[1]}`))
}

/** What the check reports: imports on a cycle that are not allowed, and allowed ones no longer on one. */
export function checkCycles(
  graph: ImportGraph,
  allowed: readonly ImportEdge[],
): { unexpected: ImportEdge[]; gone: ImportEdge[] } {
  const key = ([from, to]: ImportEdge) => `${from} -> ${to}`
  const allowedKeys = new Set(allowed.filter(([from]) => !from.startsWith('dbl/')).map(key))
  const found = cycleEdges(graph)
  const foundKeys = new Set(found.map(key))
  return {
    unexpected: found.filter((e) => !allowedKeys.has(key(e))),
    gone: allowed.filter((e) => !foundKeys.has(key(e))),
  }
}

async function main(): Promise<void> {
  const graph = await importGraph()
  const { unexpected, gone } = checkCycles(graph, KNOWN_CYCLE_EDGES)
  console.log(
    `cycles: ${graph.size} modules of ${FOLDERS.join(', ')}; ${KNOWN_CYCLE_EDGES.length} imports on known cycles allowed until removed (scripts/known-cycles.ts):`,
  )
  for (const [from, to] of KNOWN_CYCLE_EDGES) console.log(`  ${from} -> ${to}`)
  for (const [from, to] of gone)
    console.log(`cycles: ${from} -> ${to} is no longer on a cycle: remove it from scripts/known-cycles.ts`)
  if (unexpected.length) {
    console.error(
      `cycles: ${unexpected.length} import(s) on a new import cycle (make the shared contract a leaf module both sides import):`,
    )
    for (const [from, to] of unexpected) console.error(`  ${from} -> ${to}`)
    process.exitCode = 1
  } else console.log('cycles: no new import cycle')
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) await main()
