/**
 * The code blocks of the documentation that declare themselves type-checkable: a fence whose info
 * string has the word `check` after the language (```` ```ts check ````). Each block becomes a
 * module of a small app, one app per page: a block whose first line is a `// <path>.ts` comment
 * is written at that path (so `import { apiKeyPlugin } from '../plugins/api_key.ts'` finds the
 * page's earlier block `// src/plugins/api_key.ts`), any other at `block-<n>.ts`. tsc then
 * compiles every app against the package's published types, as an app that installed it would.
 */
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { dirname, join, relative } from 'node:path'

/** One checkable block: the page it is on, the line its fence opens on, and its code. */
export interface CodeBlock {
  page: string
  line: number
  lang: string
  code: string
}

/** Every markdown file under `dir` (the site's own folders `.vitepress` and `node_modules` left out). */
export function markdownFiles(dir: string): string[] {
  const out: string[] = []
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name.startsWith('.') || entry.name === 'node_modules') continue
    const path = join(dir, entry.name)
    if (entry.isDirectory()) out.push(...markdownFiles(path))
    else if (entry.name.endsWith('.md')) out.push(path)
  }
  return out.sort()
}

/** The blocks of one page whose fence reads ```` ```ts check ```` (or `tsx`, `js`, `mjs`). */
export function checkBlocks(page: string, text: string): CodeBlock[] {
  const blocks: CodeBlock[] = []
  const lines = text.split('\n')
  for (let i = 0; i < lines.length; i++) {
    const open = /^(\s*)(`{3,})(ts|tsx|js|mjs)\b(.*)$/.exec(lines[i]!)
    if (!open) continue
    const [, indent, fence, lang, rest] = open
    let end = i + 1
    while (end < lines.length && !lines[end]!.trimStart().startsWith(fence!)) end++
    if (/(^|\s)check(\s|$)/.test(rest!)) {
      const code = lines.slice(i + 1, end).map((l) => (l.startsWith(indent!) ? l.slice(indent!.length) : l))
      blocks.push({ page, line: i + 1, lang: lang!, code: code.join('\n') })
    }
    i = end
  }
  return blocks
}

/**
 * Writes every checkable block of `docsDir` into `outDir` (emptied first), one app folder per
 * page, with a tsconfig that resolves `vela/...` through the package's exports. Returns the blocks
 * and where each went, so a tsc error can be traced back to its page and line.
 */
export function writeCheckApps(
  docsDir: string,
  outDir: string,
): { blocks: (CodeBlock & { file: string })[]; tsconfig: string } {
  rmSync(outDir, { recursive: true, force: true })
  mkdirSync(outDir, { recursive: true })
  const blocks: (CodeBlock & { file: string })[] = []
  for (const path of markdownFiles(docsDir)) {
    const page = relative(docsDir, path)
    const appDir = join(outDir, page.replace(/\.md$/, '').replace(/[/\\]/g, '__'))
    checkBlocks(page, readFileSync(path, 'utf8')).forEach((block, n) => {
      const named = /^\/\/\s*(\S+\.(?:ts|tsx|js|mjs))\s*$/.exec(block.code.split('\n')[0] ?? '')
      const file = join(appDir, named ? named[1]! : `block-${n + 1}.${block.lang}`)
      mkdirSync(dirname(file), { recursive: true })
      writeFileSync(file, `${block.code}\n`)
      blocks.push({ ...block, file })
    })
  }
  const tsconfig = join(outDir, 'tsconfig.json')
  writeFileSync(
    tsconfig,
    JSON.stringify(
      {
        compilerOptions: {
          target: 'ES2023',
          lib: ['ES2023', 'DOM', 'DOM.Iterable'],
          module: 'ESNext',
          moduleResolution: 'bundler',
          allowImportingTsExtensions: true,
          verbatimModuleSyntax: true,
          allowJs: true,
          checkJs: true,
          strict: true,
          noEmit: true,
          skipLibCheck: true,
          types: ['node'],
        },
        include: ['**/*.ts', '**/*.tsx', '**/*.js', '**/*.mjs'],
        // The virtual modules' types (`virtual:vela/migrations`…), which an app gets from
        // `"types": ["node", "vela/client"]`: the starter's `src/app.ts` compiles as it is.
        files: [join(docsDir, '..', 'vite-plugin/client.d.ts')],
      },
      null,
      2,
    ),
  )
  return { blocks, tsconfig }
}
