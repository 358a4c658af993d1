// Writes docs/reference/<entry>.md, one page per subpath export of the package, from the entry
// points' own source: every name an index file exports (values and types), found where it is
// declared, with the first sentence of its doc comment. Run by `npm run docs:build` and
// `npm run docs:dev` (`npm run docs:reference` alone), so the pages never lag the code; they are
// not committed (.gitignore). A name without a doc comment is listed with "(no summary)".
// test/export-docs.test.ts reads the same exports to require a summary of each and an `@example`
// of each function.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'

const ROOT = fileURLToPath(new URL('..', import.meta.url))
const OUT = join(ROOT, 'docs/reference')

/** One subpath export: its import name, the page it gets and the file it comes from. */
interface Entry {
  subpath: string
  page: string
  index: string
  /** A declaration file of `declare module '…'` blocks whose modules the page lists too. */
  virtualModules?: string
}

/** One exported name with what the page says about it. */
export interface ExportDoc {
  name: string
  kind: 'value' | 'type'
  summary: string
  source: string
  /** A value declared as a function (`function`, or a `const` arrow function or function expression). */
  isFunction: boolean
  /** Whether its doc comment has an `@example` tag. */
  hasExample: boolean
}

export const ENTRIES: Entry[] = [
  { subpath: 'vela', page: 'vela', index: 'server/index.ts' },
  { subpath: 'vela/vite', page: 'vite', index: 'vite-plugin/index.ts' },
  { subpath: 'vela/dbl', page: 'dbl', index: 'dbl/index.ts' },
  { subpath: 'vela/telemetry', page: 'telemetry', index: 'telemetry/index.ts' },
  { subpath: 'vela/testing', page: 'testing', index: 'server/testing/index.ts' },
  { subpath: 'vela/client', page: 'client', index: 'client/index.ts', virtualModules: 'vite-plugin/client.d.ts' },
]

const read = (file: string): string => readFileSync(join(ROOT, file), 'utf8')

/** The first sentence of a doc comment's text (`/** … *\/` without the stars), on one line. */
export function firstSentence(comment: string): string {
  const body = comment
    .replace(/^\/\*\*/, '')
    .replace(/\*\/$/, '')
    .split('\n')
    .map((l) => l.replace(/^\s*\* ?/, ''))
  const paragraph: string[] = []
  for (const line of body) {
    if (line.trim().startsWith('@')) break
    if (line.trim() === '') {
      if (paragraph.length) break
      continue
    }
    paragraph.push(line.trim())
  }
  const text = paragraph.join(' ')
  // The first `.`, `!` or `?` before a space or the end, outside code spans and abbreviations.
  let inCode = false
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!
    if (c === '`') inCode = !inCode
    else if (
      !inCode &&
      '.!?'.includes(c) &&
      (i + 1 === text.length || text[i + 1] === ' ') &&
      !/\b(e\.g|i\.e|vs|etc)$/.test(text.slice(0, i))
    ) {
      return text.slice(0, i + 1)
    }
  }
  return text
}

/** Whether a doc comment has an `@example` tag. */
export const hasExampleTag = (comment: string | undefined): boolean =>
  comment !== undefined && /^\s*\*?\s*@example\b/m.test(comment)

/**
 * Whether a declaration declares a function: `keyword` is what precedes its name (`function`,
 * `const`, …) and `rest` the text after the name. A `const` counts when its value is an arrow
 * function or a function expression (`= (a) => …`, `= <S>(a: S): R => …`, `= async x => …`,
 * `= function …`); a `const` given a function by a call (`= definePlugin({ … })`) does not.
 */
export function declaresFunction(keyword: string, rest: string): boolean {
  if (keyword.startsWith('function')) return true
  if (keyword !== 'const' && keyword !== 'let') return false
  const value = /^\s*(?::[^=]*?)?=(?!=)\s*(?:async\s+)?/.exec(rest)
  if (!value) return false
  let s = rest.slice(value[0].length)
  if (/^function\b/.test(s) || /^[A-Za-z_$][\w$]*\s*=>/.test(s)) return true
  if (s.startsWith('<')) s = s.slice(s.indexOf('>') + 1).trimStart()
  if (!s.startsWith('(')) return false
  let depth = 0
  for (let i = 0; i < s.length; i++) {
    if (s[i] === '(') depth++
    else if (s[i] === ')' && --depth === 0) return /^\s*(?::[^;{]*?)?=>/.test(s.slice(i + 1))
  }
  return false
}

/** The doc comment right above `index` in `text` (only blank lines and `//` comments between), if any. */
function commentBefore(text: string, index: number): string | undefined {
  let before = text.slice(0, index).trimEnd()
  // Line comments (an eslint directive, a note on the next line) stand between some doc comments and their declaration.
  for (
    let line = before.slice(before.lastIndexOf('\n') + 1);
    line.trimStart().startsWith('//');
    line = before.slice(before.lastIndexOf('\n') + 1)
  ) {
    before = before.slice(0, before.length - line.length).trimEnd()
  }
  if (!before.endsWith('*/')) return undefined
  const start = before.lastIndexOf('/**')
  return start === -1 ? undefined : before.slice(start)
}

const DECLARATION = (name: string) =>
  new RegExp(
    `^[ \\t]*export\\s+(?:declare\\s+)?(?:default\\s+)?(?:abstract\\s+)?(?:async\\s+)?(function\\*?|const|let|class|interface|type|enum)\\s+${name}\\b`,
    'm',
  )

/** `export { a, b as c } from './x.ts'` and `export type { … } from …` statements of a module. */
function reExports(text: string): { names: { local: string; exported: string; type: boolean }[]; from: string }[] {
  const out: { names: { local: string; exported: string; type: boolean }[]; from: string }[] = []
  for (const m of text.matchAll(/^export\s+(type\s+)?\{([^}]*)\}\s*from\s*'([^']+)'/gm)) {
    const names = m[2]!
      .split(',')
      .map((s) => s.replace(/\/\/.*$/gm, '').trim())
      .filter(Boolean)
      .map((s) => {
        const type = Boolean(m[1]) || s.startsWith('type ')
        const [local, exported] = s.replace(/^type\s+/, '').split(/\s+as\s+/)
        return { local: local!.trim(), exported: (exported ?? local)!.trim(), type }
      })
    out.push({ names, from: m[3]! })
  }
  return out
}

/** A declaration as the pages and the doc-comment test need it. */
interface Declaration {
  file: string
  comment?: string
  keyword: string
  isFunction: boolean
}

/** The declaration in `text` (of `file`) starting at `start`, whose name ends at `nameEnd`. */
function declarationAt(file: string, text: string, start: number, keyword: string, nameEnd: number): Declaration {
  return {
    file,
    comment: commentBefore(text, start),
    keyword,
    isFunction: declaresFunction(keyword, text.slice(nameEnd, nameEnd + 2000)),
  }
}

/** Where `name` is declared, starting from module `file` and following its re-exports. */
function findDeclaration(file: string, name: string, depth = 0): Declaration | undefined {
  if (depth > 5) return undefined
  const text = read(file)
  const m = DECLARATION(name).exec(text)
  if (m) return declarationAt(file, text, m.index, m[1]!, m.index + m[0].length)
  for (const r of reExports(text)) {
    const hit = r.names.find((n) => n.exported === name)
    if (hit) return findDeclaration(relative(ROOT, resolve(ROOT, dirname(file), r.from)), hit.local, depth + 1)
  }
  // `import type { X } from './y.ts'` then `export type { X }`: declared where it is imported from.
  const exported = [...text.matchAll(/^export\s+(?:type\s+)?\{([^}]*)\}\s*$/gm)].some((m) =>
    namesIn(m[1]!).includes(name),
  )
  const imported =
    exported &&
    [...text.matchAll(/^import\s+(?:type\s+)?\{([^}]*)\}\s*from\s*'([^']+)'/gm)].find((m) =>
      namesIn(m[1]!).includes(name),
    )
  if (imported) return findDeclaration(relative(ROOT, resolve(ROOT, dirname(file), imported[2]!)), name, depth + 1)
  return undefined
}

/** The names a `{ a, type b, c as d }` list binds locally (`a`, `b`, `d`). */
const namesIn = (list: string): string[] =>
  list
    .split(',')
    .map((s) =>
      s
        .replace(/^\s*type\s+/, '')
        .split(/\s+as\s+/)
        .pop()!
        .trim(),
    )
    .filter(Boolean)

/** Every name `index` exports, with its kind, summary and declaring file. */
export function exportsOf(index: string): ExportDoc[] {
  const text = read(index)
  const docs: ExportDoc[] = []
  const add = (name: string, kind: ExportDoc['kind'], found: Declaration | undefined) =>
    docs.push({
      name,
      kind,
      summary: found?.comment ? firstSentence(found.comment) : '',
      source: found?.file ?? index,
      isFunction: kind === 'value' && Boolean(found?.isFunction),
      hasExample: hasExampleTag(found?.comment),
    })
  for (const r of reExports(text)) {
    const from = relative(ROOT, resolve(ROOT, dirname(index), r.from))
    for (const n of r.names) {
      const found = findDeclaration(from, n.local)
      const isType = n.type || found?.keyword === 'interface' || found?.keyword === 'type'
      add(n.exported, isType ? 'type' : 'value', found)
    }
  }
  for (const m of text.matchAll(
    /^export\s+(?:declare\s+)?(default\s+)?(?:async\s+)?(function|const|class|interface|type)\s+(\w+)/gm,
  )) {
    const name = m[1] ? 'default' : m[3]!
    const kind = m[2] === 'interface' || m[2] === 'type' ? 'type' : 'value'
    add(
      name === 'default' ? `default (${m[3]})` : name,
      kind,
      declarationAt(index, text, m.index, m[2]!, m.index + m[0].length),
    )
  }
  return docs.sort((a, b) => a.name.localeCompare(b.name))
}

/** The virtual modules `vela/client` declares: each module's exports with their summaries. */
export function clientModules(index: string): { module: string; docs: ExportDoc[] }[] {
  const text = read(index)
  const out: { module: string; docs: ExportDoc[] }[] = []
  for (const m of text.matchAll(/declare module '([^']+)' \{([\s\S]*?)\n\}/g)) {
    const body = m[2]!
    const docs: ExportDoc[] = []
    for (const d of body.matchAll(/^\s*export\s+(?:declare\s+)?(function|const|interface|type)\s+(\w+)/gm)) {
      const comment = commentBefore(body, d.index)
      const kind = d[1] === 'interface' || d[1] === 'type' ? 'type' : 'value'
      const isFunction =
        kind === 'value' && declaresFunction(d[1]!, body.slice(d.index + d[0].length, d.index + d[0].length + 2000))
      docs.push({
        name: d[2]!,
        kind,
        summary: comment ? firstSentence(comment) : '',
        source: index,
        isFunction,
        hasExample: hasExampleTag(comment),
      })
    }
    out.push({ module: m[1]!, docs })
  }
  return out
}

/** Markdown text with `<` outside code spans made literal (VitePress compiles pages as Vue templates). */
function escapeText(s: string): string {
  return s
    .split(/(`[^`]*`)/)
    .map((part, i) => (i % 2 ? part : part.replace(/</g, '&lt;')))
    .join('')
}

/** A table cell: escaped text, and `|` (in code spans too, as GFM tables read them) escaped. */
const cell = (s: string): string => escapeText(s).replace(/\|/g, '\\|')

function table(docs: ExportDoc[]): string {
  const rows = docs.map((d) => `| \`${d.name}\` | ${d.summary ? cell(d.summary) : '(no summary)'} | \`${d.source}\` |`)
  return ['| name | summary | declared in |', '|---|---|---|', ...rows].join('\n')
}

/** The module doc comment at the top of an index file, as paragraphs. */
function moduleIntro(index: string): string {
  const text = read(index).trimStart()
  if (!text.startsWith('/**')) return ''
  const comment = text.slice(0, text.indexOf('*/') + 2)
  return escapeText(
    comment
      .replace(/^\/\*\*/, '')
      .replace(/\*\/$/, '')
      .split('\n')
      .map((l) => l.replace(/^\s*\* ?/, ''))
      .join('\n')
      .trim(),
  )
}

function page(entry: Entry): string {
  const head = `# \`${entry.subpath}\`\n\nGenerated from \`${entry.index}\` by \`scripts/docs-reference.ts\`: edit the doc comments there.\n\n`
  const intro = moduleIntro(entry.index)
  const all = exportsOf(entry.index)
  const values = all.filter((d) => d.kind === 'value')
  const types = all.filter((d) => d.kind === 'type')
  return (
    `${head}::: v-pre\n${intro}\n\n` +
    `\`import { … } from '${entry.subpath}'\`: ${values.length} values and ${types.length} types.\n\n` +
    `## Values\n\n${table(values)}\n\n## Types\n\n${table(types)}\n` +
    (entry.virtualModules
      ? clientModules(entry.virtualModules)
          .map((m) => `\n## \`${m.module}\`\n\n${table(m.docs)}\n`)
          .join('')
      : '') +
    ':::\n'
  )
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  mkdirSync(OUT, { recursive: true })
  for (const entry of ENTRIES) writeFileSync(join(OUT, `${entry.page}.md`), page(entry))
  console.log(`docs-reference: wrote ${ENTRIES.length} pages into ${relative(ROOT, OUT)}/`)
}
