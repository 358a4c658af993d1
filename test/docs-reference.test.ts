// The reference pages as scripts/docs-reference.ts writes them (run here into a folder of its own,
// as `npm run docs:reference` runs it): one heading per exported value with its declaration, doc
// comment and examples, the types in a list, no tables; and the CLI page, one heading per command
// `vela --help` lists, with the options `vela <command> --help` prints. The built site (links,
// anchors, rendering) is test/docs-site.test.ts's.
import { execFile } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { runMain } from '../vite-plugin/cli/commands/test/run-cli.ts'

const ROOT = fileURLToPath(new URL('..', import.meta.url))
const OUT = mkdtempSync(join(tmpdir(), 'vela-docs-reference-'))
const page = (name: string) => readFileSync(join(OUT, `${name}.md`), 'utf8')

/** The part of `markdown` from the heading that starts with `start` to the next heading of that level or above. */
function sectionOf(markdown: string, start: string): string {
  const at = markdown.indexOf(`\n${start}`)
  if (at === -1) return ''
  const level = /^#+/.exec(start)![0].length
  const rest = markdown.slice(at + 1)
  const next = rest.slice(1).search(new RegExp(`\\n#{1,${level}} `))
  return next === -1 ? rest : rest.slice(0, next + 1)
}

/** The fenced code blocks of `markdown`: their info string and code. */
const codeBlocks = (markdown: string) =>
  [...markdown.matchAll(/^```(\w*)[^\n]*\n([\s\S]*?)\n```$/gm)].map((m) => ({ lang: m[1]!, code: m[2]! }))

const PAGES = {
  vela: '../server/index.ts',
  vite: '../vite-plugin/index.ts',
  dbl: '../dbl/index.ts',
  telemetry: '../telemetry/index.ts',
  testing: '../server/testing/index.ts',
  client: '../client/index.ts',
} as const

beforeAll(async () => {
  await promisify(execFile)(process.execPath, ['--import', 'tsx', 'scripts/docs-reference.ts', OUT], { cwd: ROOT })
}, 180_000)
afterAll(() => rmSync(OUT, { recursive: true, force: true }))

describe('the API reference pages', () => {
  it('`json` on the vela page: a heading, its overloads, its doc comment and example, its deprecated form marked', () => {
    const json = sectionOf(page('vela'), '### `json` {#json}')
    expect(json).not.toBe('')
    const [signature, ...rest] = codeBlocks(json)
    expect(signature!.lang).toBe('ts')
    expect(signature!.code).toMatch(/^function json<T, const S extends number = 200>\(/)
    expect(signature!.code).toContain('options?: ReplyOptions<S>')
    expect(json).toContain('A JSON reply: `json(body)` is a 200')
    const example = rest.find((b) => b.code.includes("import { json, type VelaRequest } from 'vela'"))
    // Laid out for the column's width: compared without the line breaks the formatter chose.
    const squash = (code = '') => code.replace(/\s+/g, ' ').replace(/([({]) | ([)}])/g, '$1$2')
    expect(squash(example?.code)).toContain(
      squash('export const show = (req: VelaRequest) => json({ id: req.bindings.id })'),
    )
    expect(json).toContain('**Another form**')
    expect(json).toContain('::: warning Deprecated')
    expect(
      rest.some((b) => /^function json<.*>\(\s*status: S,\s*headers: Headers,\s*body: T,?\s*\)/.test(b.code)),
    ).toBe(true)
  })

  it('a class shows its constructor and public members, not its private ones', () => {
    const request = sectionOf(page('vela'), '### `VelaRequest` {#VelaRequest}')
    const [declaration] = codeBlocks(request)
    expect(declaration!.code).toMatch(/^class VelaRequest<A = unknown> \{\n {2}constructor\(/)
    expect(declaration!.code).toContain('readonly bindings: Readonly<Record<string, string>>')
    expect(declaration!.code).toContain('setCookie(')
    expect(declaration!.code).not.toContain('#')
    expect(request).toMatch(/^- `bindings`: /m)
  })

  it('a const with a function type shows its type', () => {
    const [declaration] = codeBlocks(sectionOf(page('vela'), '### `requestPlugin` {#requestPlugin}'))
    expect(declaration!.code).toMatch(/^const requestPlugin: \S/)
  })

  it('sections follow the index: its section comments are headings, in its order', () => {
    const titles = (markdown: string) => [...markdown.matchAll(/^## (.+?) \{#/gm)].map((m) => m[1])
    const comments = (file: string) =>
      [...readFileSync(join(ROOT, file), 'utf8').matchAll(/^\/\/ ([A-Z][\w ]*?)[:.\n]/gm)].map((m) => m[1])
    expect(titles(page('vela'))).toEqual(comments('server/index.ts'))
    expect(titles(page('dbl'))).toEqual(comments('dbl/index.ts'))
    expect(titles(page('vela')).slice(0, 3)).toEqual(['App', 'Routes', 'Replies'])
  })

  for (const [name, module] of Object.entries(PAGES)) {
    it(`${name}.md: every value ${module.slice(3)} exports has a heading with its name as anchor, every type a list item`, async () => {
      const markdown = page(name)
      const values = Object.keys(await import(module))
      expect(values.length).toBeGreaterThan(0)
      const withoutHeading = values.filter((v) => {
        const anchor = v === 'default' ? 'vela' : v
        return !new RegExp(`^### \`${anchor}\`.* \\{#${anchor}\\}$`, 'm').test(markdown)
      })
      expect(withoutHeading).toEqual([])
      const source = readFileSync(join(ROOT, module.slice(3)), 'utf8')
      const types = [...source.matchAll(/^export type \{([^}]*)\}/gm)].flatMap((m) =>
        m[1]!
          .split(',')
          .map(
            (s) =>
              s
                .trim()
                .split(/\s+as\s+/)
                .pop()!,
          )
          .filter(Boolean),
      )
      expect(types.filter((t) => !new RegExp(`^- \`${t}\`[ :]`, 'm').test(markdown))).toEqual([])
      // No table: a wide third column was cut off at 1280 px.
      expect(markdown).not.toMatch(/^\|.*\|$/m)
    })
  }
})

describe('the CLI reference page', () => {
  /** `--help`'s two-column lines under `heading:` (`commands:`, `options:`), as [label, text]. */
  const columns = (help: string, heading: string) => {
    const part = help.split(`\n${heading}\n`)[1]!.split('\n\n')[0]!
    return part.split('\n').map((line) => line.trim().split(/\s{2,}/) as [string, string])
  }
  /** A markdown line as plain text: no code spans' backticks, no escapes. */
  const plain = (s: string) => s.replace(/`/g, '').replace(/\\(.)/g, '$1')

  it('has a heading for each command `vela --help` lists', async () => {
    const list = await runMain(['--help'])
    const names = columns(list.stdout, 'commands:').map(([label]) => label.replace(/ [[<].*$/, ''))
    expect(names).toContain('migrations generate')
    expect(names).toContain('help')
    const cli = page('cli')
    expect(names.filter((n) => !cli.includes(`\n## \`vela ${n}\` {#${n.replace(' ', '-')}}\n`))).toEqual([])
  })

  it('lists for `vela openapi` the options `vela openapi --help` prints, with their defaults, and its usage and example', async () => {
    const help = (await runMain(['openapi', '--help'])).stdout
    const openapi = sectionOf(page('cli'), '## `vela openapi` {#openapi}')
    const listed = openapi
      .split('\n')
      .filter((l) => l.startsWith('- `'))
      .map((l) => plain(l.slice(2)))
    expect(listed).toEqual(columns(help, 'options:').map(([label, text]) => `${label}: ${text}`))
    expect(listed).toContain('--api-version <version>: its info.version (default: 0.1.0)')
    const blocks = codeBlocks(openapi)
    expect(blocks[0]!.code).toBe(help.split('\n')[0]!.replace(/^usage: /, ''))
    expect(blocks.at(-1)!.code).toBe(help.split('\nexample:\n')[1]!.split('\n\n')[0]!.replace(/^ {2}/gm, ''))
  })
})
