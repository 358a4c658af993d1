/**
 * The tutorial (docs/getting-started.md) read as a script: its `##` sections are steps, and each
 * fenced block says what it does in its info string, after the language (VitePress highlights by
 * the language alone and shows none of the rest):
 *
 * | info string | what test/tutorial.test.ts does |
 * |---|---|
 * | ```` ```ts file=src/x.ts ```` | writes the whole file (its first line must be `// src/x.ts`); `// [!code ++]` markers, which VitePress shows as added lines, are removed, and lines marked `// [!code --]` left out |
 * | ```` ```ts append=src/x.ts ```` | adds the block at the end of the file |
 * | ```` ```ts generated=src/migrations/m*_x.ts ```` | the one file matching the pattern must hold exactly the block |
 * | ```` ```sh ```` | runs each command in bash in the current folder (`cd` lines move it); a request to `localhost:8080` goes to the running server |
 * | ```` ```sh server ```` | starts the command in the background (`PORT=0`) and waits until it answers; it runs until a block marked `stop` or the next server |
 * | ```` ```sh setup ```` | not run: what the test does itself (`npm pack` of this repository) |
 * | ```` ```text output ```` | each of its lines must match a line of what the previous command block printed (`…` matches anything, a 14-digit number any migration version) |
 * | `stop` (with any of these) | stops the running server first |
 *
 * Any other block is an error, so a block cannot drop out of the test by a typo.
 */
import { stripVTControlCharacters } from 'node:util'

export type Action =
  | { readonly kind: 'file'; readonly path: string; readonly code: string }
  | { readonly kind: 'append'; readonly path: string; readonly code: string }
  | { readonly kind: 'generated'; readonly pattern: string; readonly code: string }
  | { readonly kind: 'run'; readonly commands: readonly string[] }
  | { readonly kind: 'server'; readonly command: string }
  | { readonly kind: 'setup'; readonly code: string }
  | { readonly kind: 'output'; readonly text: string }

export interface Block {
  /** The line its fence opens on (1-based), for messages. */
  readonly line: number
  readonly stop: boolean
  readonly action: Action
}

export interface Step {
  readonly title: string
  readonly blocks: readonly Block[]
}

const FENCE = /^(`{3,})(\S*)(.*)$/

/** The page's `##` sections in order, each with its blocks (sections without blocks included). */
export function tutorialSteps(markdown: string): Step[] {
  const steps: { title: string; blocks: Block[] }[] = [{ title: '(before the first step)', blocks: [] }]
  const lines = markdown.split('\n')
  for (let i = 0; i < lines.length; i++) {
    const heading = /^## (.+)$/.exec(lines[i]!)
    if (heading) {
      steps.push({ title: heading[1]!.trim(), blocks: [] })
      continue
    }
    const open = FENCE.exec(lines[i]!)
    if (!open) continue
    const [, fence, lang, rest] = open
    let end = i + 1
    while (end < lines.length && lines[end]!.trimEnd() !== fence) end++
    if (end === lines.length) throw new Error(`line ${i + 1}: the code block is never closed`)
    const step = steps.at(-1)!
    const block = parseBlock(
      i + 1,
      lang!,
      rest!.trim().split(/\s+/).filter(Boolean),
      lines.slice(i + 1, end).join('\n'),
    )
    if (block.action.kind === 'output' && !['run', 'server'].includes(step.blocks.at(-1)?.action.kind ?? ''))
      throw new Error(`line ${i + 1}: an output block must follow a command block of the same step`)
    step.blocks.push(block)
    i = end
  }
  return steps
}

function parseBlock(line: number, lang: string, words: string[], code: string): Block {
  const fail = (why: string): never => {
    throw new Error(`line ${line}: \`\`\`${[lang, ...words].join(' ')}: ${why}`)
  }
  const flags = new Set(words.filter((w) => !w.includes('=')))
  const attrs = new Map(words.filter((w) => w.includes('=')).map((w) => w.split('=', 2) as [string, string]))
  const stop = flags.delete('stop')
  const known = (allowedFlags: string[], allowedAttrs: string[]) => {
    for (const f of flags) if (!allowedFlags.includes(f)) fail(`unknown word "${f}"`)
    for (const a of attrs.keys()) if (!allowedAttrs.includes(a)) fail(`unknown attribute "${a}"`)
  }
  if (flags.has('output')) {
    known(['output'], [])
    return { line, stop, action: { kind: 'output', text: code } }
  }
  if (lang === 'sh') {
    known(['server', 'setup'], [])
    if (flags.has('setup')) return { line, stop, action: { kind: 'setup', code } }
    const commands = shellCommands(code)
    if (commands.length === 0) fail('no command')
    if (!flags.has('server')) return { line, stop, action: { kind: 'run', commands } }
    if (commands.length !== 1) fail('a server block holds one command')
    return { line, stop, action: { kind: 'server', command: commands[0]! } }
  }
  known([], ['file', 'append', 'generated'])
  if (attrs.size !== 1) fail('a code block names one of file=, append= or generated=')
  const [[attr, value]] = [...attrs]
  if (attr === 'generated') return { line, stop, action: { kind: 'generated', pattern: value, code } }
  if (attr === 'append') return { line, stop, action: { kind: 'append', path: value, code: withoutMarkers(code) } }
  const first = code.split('\n')[0]!.trim()
  if (first !== `// ${value}` && first !== `# ${value}`) fail(`its first line should name the file: // ${value}`)
  return { line, stop, action: { kind: 'file', path: value, code: withoutMarkers(code) } }
}

/** The commands of a shell block: `\`-continued lines joined; blank and comment-only lines left out. */
function shellCommands(code: string): string[] {
  return code
    .replace(/\s*\\\n\s*/g, ' ')
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith('#'))
}

/** The code as a reader copies it: VitePress's diff markers gone, removed lines left out. */
function withoutMarkers(code: string): string {
  return code
    .split('\n')
    .filter((l) => !/\/\/ \[!code --\]\s*$/.test(l))
    .map((l) => l.replace(/\s*\/\/ \[!code \+\+\]\s*$/, ''))
    .join('\n')
}

const normalize = (line: string) => line.trim().replace(/\s+/g, ' ')

function lineMatcher(line: string): RegExp {
  const literal = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/\d{14}/g, '\\d{14}')
  return new RegExp(`^${line.split('…').map(literal).join('.*')}$`)
}

/**
 * The lines of `expected` that match no line of `actual`: none when the output is as the page
 * says. Whitespace runs count as one space, colours are ignored, a line of `…` alone is a reminder
 * that lines were left out and matches nothing itself.
 *
 * @example
 * missingLines('HTTP/1.1 201 Created\n…\n{"id":…}', 'HTTP/1.1 201 Created\r\nvary: Origin\r\n\r\n{"id":1}') // []
 */
export function missingLines(expected: string, actual: string): string[] {
  const got = stripVTControlCharacters(actual).split(/\r?\n/).map(normalize)
  return expected
    .split('\n')
    .map(normalize)
    .filter((l) => l && l !== '…')
    .filter((l) => !got.some((g) => lineMatcher(l).test(g)))
}
