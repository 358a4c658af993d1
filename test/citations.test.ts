// Sources, tests and docs describe behaviour in their own words: they never point readers at a
// specification, design document or section number that is not in the repository, nor at an
// issue of the project's own tracker by its number (readers of the published package and of the
// repository cannot open those; a link to a public issue is fine). Every tracked text file is
// read (CHANGELOG.md keeps its history as written); each citation is reported as file:line.
import { execFileSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'

const ROOT = fileURLToPath(new URL('..', import.meta.url))
const SELF = relative(ROOT, fileURLToPath(import.meta.url))

/** What a citation of an outside document looks like; each is explained by its name. */
const CITATIONS: readonly { readonly name: string; readonly pattern: RegExp }[] = [
  { name: 'section sign', pattern: /\u00a7/ },
  { name: 'design document', pattern: /\bDESIGN\b/ },
  { name: 'design or seed document', pattern: /\bdesign doc|\bseed\.md\b/i },
  { name: 'the spec', pattern: /\bthe spec\b|\bspec's\b/i },
  { name: 'numbered spec section', pattern: /\bspec\s+(table\s+)?\d/i },
  // `issue 3`, `issues 11 and 17`, `Issue #12`; a URL's `/issues/12345` has no space, so it passes.
  { name: 'numbered tracker issue', pattern: /\bissues?\s+#?\d/i },
]

/** Files that may keep citations: the changelog records history as it was written. */
const EXEMPT = new Set(['CHANGELOG.md', SELF])

/** Each line of `text` that cites an outside document, as `line: text`. */
function citationsIn(text: string): string[] {
  const found: string[] = []
  text.split('\n').forEach((line, i) => {
    if (CITATIONS.some((c) => c.pattern.test(line))) found.push(`${i + 1}: ${line.trim()}`)
  })
  return found
}

function trackedTextFiles(): string[] {
  const out = execFileSync('git', ['ls-files', '-z'], { cwd: ROOT, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 })
  return out.split('\0').filter((f) => f !== '' && !EXEMPT.has(f) && !f.split('/').includes('node_modules'))
}

describe('citations of documents readers cannot open', () => {
  it('are recognised: section signs, design documents, "the spec", numbered spec sections and issues', () => {
    expect(citationsIn('// Routing rules (spec 4.1): static over params')).toHaveLength(1)
    expect(citationsIn(" * Plugins (the spec's `fw_plugin` behaviour).")).toHaveLength(1)
    expect(citationsIn('// Spec table 4.5 (plugin results)')).toHaveLength(1)
    expect(citationsIn('  /** Query telemetry (spec \u00a76.1). */')).toHaveLength(1)
    // The design file's name is assembled, so this sample is not itself a citation in the source.
    expect(citationsIn(`// See ${['DESIGN', 'md'].join('.')} for the reasons`)).toHaveLength(1)
    expect(citationsIn('// as the design doc says')).toHaveLength(1)
    expect(citationsIn("it('a log function receives exactly the spec keys')")).toHaveLength(1)
    expect(citationsIn('// Path traversal (issue 3 "Must show"): every spelling below')).toHaveLength(1)
    expect(citationsIn(' * LIKE / ILIKE (issue 11, item 10): text from a user')).toHaveLength(1)
    expect(citationsIn('## Many fields and two `Host` headers (issues 11 and 17)')).toHaveLength(1)
    expect(citationsIn("Issue 11's numbered faults and the case that shows each")).toHaveLength(1)
    expect(citationsIn('// Works around the lost reply (see issue #12)')).toHaveLength(1)
  })

  it('leave ordinary uses of the words alone', () => {
    const ordinary = [
      'export function select(q: Query, spec: readonly string[]): Query {',
      'async function runCommand(spec: CommandSpec, args: readonly string[]) {',
      ' * Spec shapes and types: preload_spec.ts.',
      'await seed(t)',
      '// Raw SQL is opaque to the model by design; see `execute` in operations.ts.',
      " * Changesets (Ecto's design): a plain immutable value",
      'ignoring `Host` as RFC 9112 section 3.2.2 asks',
      '// The issue with a paused socket is that the kernel buffers fill first.',
      ' * If it still fails, open a GitHub issue with the output of `vela doctor`.',
      '// node keeps the first Host header (https://github.com/nodejs/node/issues/12345).',
      'See https://github.com/vitest-dev/vitest/issues/3077 for the worker pool.',
      'issues: the known issues of this release, 3 in all',
    ]
    expect(ordinary.flatMap(citationsIn)).toEqual([])
  })

  it('appear in no tracked file', () => {
    const files = trackedTextFiles()
    expect(files.length).toBeGreaterThan(100)
    const found: string[] = []
    for (const file of files) {
      let text: string
      try {
        text = readFileSync(join(ROOT, file), 'utf8')
      } catch {
        continue // listed by git but deleted in the working tree
      }
      if (text.includes('\0')) continue // binary
      for (const hit of citationsIn(text)) found.push(`${file}:${hit}`)
    }
    expect(found, 'describe the behaviour instead of citing a document readers cannot open').toEqual([])
  })
})
