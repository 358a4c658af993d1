// Writes the reference pages: docs/reference/<entry>.md for each subpath export of the package, and
// docs/reference/cli.md for the `vela` command. An entry's page is read from the entry point as the
// TypeScript checker sees it (scripts/reference/read-api.ts): per section of the index file, each
// exported value with its declaration (overloads included), its whole doc comment and its
// examples, and the types with their first sentence. The CLI page is made from the commands'
// declarations, the ones `--help` prints. Run by `npm run docs:build` and `npm run docs:dev`
// (`npm run docs:reference` alone), so the pages never lag the code; they are not committed
// (.gitignore). `node --import tsx scripts/docs-reference.ts <dir>` writes them into <dir> instead.
// test/export-docs.test.ts reads the same model to require a summary of each export and an
// `@example` of each function.
import { mkdirSync, writeFileSync } from 'node:fs'
import { join, relative, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { COMMANDS } from '../vite-plugin/cli/commands/table.ts'
import { ENTRIES } from './reference/entries.ts'
import { formatCodeBlocks } from './reference/format.ts'
import { readApi } from './reference/read-api.ts'
import { renderApiPage } from './reference/render-api.ts'
import { renderCliPage } from './reference/render-cli.ts'

const ROOT = fileURLToPath(new URL('..', import.meta.url))

/** Writes every reference page into `out`; returns the files written. */
export function writeReference(out = join(ROOT, 'docs/reference')): string[] {
  const pages = [
    ...readApi(ENTRIES).map((page) => ({ name: page.entry.page, text: renderApiPage(page) })),
    { name: 'cli', text: renderCliPage(COMMANDS) },
  ]
  const texts = formatCodeBlocks(pages.map((p) => p.text))
  mkdirSync(out, { recursive: true })
  return pages.map((p, i) => {
    const file = join(out, `${p.name}.md`)
    writeFileSync(file, `${texts[i]}\n`)
    return file
  })
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const out = process.argv[2] ? resolve(process.argv[2]) : undefined
  const files = writeReference(out)
  console.log(
    `docs-reference: wrote ${files.length} pages into ${relative(process.cwd(), join(files[0]!, '..')) || '.'}/`,
  )
}
