// Lays out the pages' TypeScript (declarations and examples) for the width a code block has on the
// site: Biome, the repository's formatter, with its settings and a narrower line, over all snippets
// at once, and long line comments moved and wrapped (comments.ts). At 1280 px a code block shows
// about 69 characters (68 leave room for other fonts); a longer line needs scrolling. A snippet
// Biome cannot parse (an example with a placeholder) keeps its code as written.
import { execFileSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { reflowComments } from './comments.ts'

export const CODE_WIDTH = 68

const BIOME_CONFIG = {
  formatter: { enabled: true, indentStyle: 'space', indentWidth: 2, lineWidth: CODE_WIDTH },
  javascript: {
    formatter: { quoteStyle: 'single', semicolons: 'asNeeded', trailingCommas: 'all', arrowParentheses: 'always' },
  },
  linter: { enabled: false },
  assist: { enabled: false },
}

/** `snippets` formatted, in order; each one Biome refuses comes back unchanged. */
export function formatTypeScript(snippets: readonly string[]): string[] {
  const dir = mkdtempSync(join(tmpdir(), 'vela-reference-'))
  try {
    writeFileSync(join(dir, 'biome.json'), JSON.stringify(BIOME_CONFIG))
    const files = snippets.map((code, i) => {
      const file = join(dir, `s${i}.ts`)
      writeFileSync(file, code)
      return file
    })
    const biome = createRequire(import.meta.url).resolve('@biomejs/biome/bin/biome')
    try {
      execFileSync(process.execPath, [biome, 'format', '--write', '--no-errors-on-unmatched', dir], {
        cwd: dir,
        stdio: 'pipe',
        maxBuffer: 64 * 1024 * 1024,
      })
    } catch {
      // Biome exits non-zero when some snippet does not parse; the others are written all the same.
    }
    return files.map((file) => readFileSync(file, 'utf8').trimEnd())
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

/** A ```` ```ts ```` block of a page (the signature blocks too): its fence's indent, info and code. */
const TS_BLOCK = /^( *)```(ts|typescript|ts signature)\n([\s\S]*?)\n\1```$/gm

/**
 * `pages` with every TypeScript block formatted, all in one Biome run; a signature block
 * (```` ```ts signature ````) becomes a plain ```` ```ts ```` block without its `declare`s.
 */
export function formatCodeBlocks(pages: readonly string[]): string[] {
  const code = pages.flatMap((page) => [...page.matchAll(TS_BLOCK)].map((m) => dedentBlock(m[1]!, m[3]!)))
  const wrapped = code.map((c) => wrapFragment(reflowComments(c, CODE_WIDTH)))
  // Comments again after Biome: it may indent a comment line further.
  const formatted = formatTypeScript(wrapped).map((c) => reflowComments(unwrapFragment(c), CODE_WIDTH))
  let next = 0
  return pages.map((page) =>
    page.replace(TS_BLOCK, (_, indent: string, info: string) => {
      let text = formatted[next++]!
      if (info === 'ts signature') text = text.replace(/^declare /gm, '')
      return [`${indent}\`\`\`ts`, ...text.split('\n').map((l) => (l ? indent + l : l)), `${indent}\`\`\``].join('\n')
    }),
  )
}

const dedentBlock = (indent: string, code: string) =>
  code
    .split('\n')
    .map((l) => (l.startsWith(indent) ? l.slice(indent.length) : l))
    .join('\n')

/**
 * An example without imports or exports is a fragment of a handler (`if (!res.ok) return …`): in a
 * function body its `return` parses, so Biome formats it too. `unwrapFragment` takes it out again.
 */
const WRAPPER = 'async function example() {'
const wrapFragment = (code: string) => (/^(import|export|declare)\b/m.test(code) ? code : `${WRAPPER}\n${code}\n}`)

function unwrapFragment(code: string): string {
  if (!code.startsWith(`${WRAPPER}\n`) || !code.endsWith('\n}')) return code
  const body = code.slice(WRAPPER.length + 1, -2).split('\n')
  // Not formatted (Biome refused it): the lines are as written, not indented by the wrapper.
  if (!body.every((l) => l === '' || l.startsWith('  '))) return body.join('\n')
  return body.map((l) => l.slice(2)).join('\n')
}
