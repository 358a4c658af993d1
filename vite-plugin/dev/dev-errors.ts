/**
 * Errors of the app under the dev server as one short framed message: where (file:line:column,
 * relative to the app root), what (the message), and the source lines around it, with a caret:
 *
 *   src/controllers/greetings_controller.ts:4:1: Unexpected token [PARSE_ERROR]
 *     2 | export const hello = () =>
 *     3 |   json({ message:
 *   > 4 | }
 *       | ^
 *
 * Used for code that fails to load, swaps that fail and start hooks that throw (dev-app.ts), and
 * shown in the 503 page the dev server answers while the app cannot run (dev-failure.ts).
 *
 * - Transform errors (Vite 8's Oxc/Rolldown, other plugins): their `errors[]` / `loc`, `id`,
 *   `plugin`, the code the plugin was given (`pluginCode`). Their own message carries ANSI colours
 *   and a frame of its own; only its first line is kept, the frame is made here.
 * - Errors thrown while the app's modules run (at import, in `create`, in a hook): the stack, whose
 *   positions the module runner already maps back to the source files; the first frame in an app
 *   file (not under node_modules) is framed, and the stack is cut to the app's own frames.
 *
 * **Choice:** no colours, and no code-frame dependency: what is printed is read in terminals, logs
 * and CI output alike, and a frame is a dozen lines of code.
 */
import { readFileSync } from 'node:fs'
import { isAbsolute, relative, sep } from 'node:path'
import { stripVTControlCharacters } from 'node:util'

interface Located {
  file: string
  line: number
  /** 1-based. */
  column: number
}

interface TransformError {
  message?: string
  code?: string
  id?: unknown
  plugin?: string
  pluginCode?: unknown
  loc?: { file?: string; line: number; column: number }
  errors?: TransformError[]
}

export function formatError(err: unknown, root: string): string {
  if (!(err instanceof Error)) return String(err)
  const e = err as Error & TransformError
  const show = (file: string) =>
    isAbsolute(file) && !relative(root, file).startsWith('..') ? relative(root, file) : file
  const paths = (text: string) => text.split(root + sep).join('')
  const firstLine = (m: string | undefined) =>
    stripVTControlCharacters(m ?? '')
      .trim()
      .split('\n')[0]!
      .trim()
  if (e.loc || e.plugin || e.errors?.[0]?.loc) {
    const t = e.errors?.[0] ?? e
    const id = [t.id, e.id].find((i): i is string => typeof i === 'string')
    let code = t.code
    let message = firstLine(t.message).replace(/^\[(\w+)\]\s*/, (_, c: string) => ((code ??= c), ''))
    if (code && code !== 'PLUGIN_ERROR') message += ` [${code}]`
    if ((e.errors?.length ?? 0) > 1) message += ` (and ${e.errors!.length - 1} more)`
    if (!t.loc) return `${id ? `${show(id)}: ` : ''}${paths(message)}${e.plugin ? ` (${e.plugin})` : ''}`
    // Rollup's convention: 1-based line, 0-based column.
    const at = { file: t.loc.file ?? id ?? '', line: t.loc.line, column: t.loc.column + 1 }
    return [
      `${show(at.file)}:${at.line}:${at.column}: ${paths(message)}`,
      ...codeFrame(at, typeof e.pluginCode === 'string' ? e.pluginCode : undefined),
    ].join('\n')
  }
  const title = `${e.name && e.name !== 'Error' ? `${e.name}: ` : ''}${paths(firstLine(e.message) || e.name)}`
  const frames = appFrames(e.stack ?? '', root)
  const at = frames[0]
  if (!at) return title
  return [
    `${show(at.file)}:${at.line}:${at.column}: ${title}`,
    ...codeFrame(at),
    ...frames.map(
      (f) =>
        `    at ${f.fn ? `${f.fn} (${show(f.file)}:${f.line}:${f.column})` : `${show(f.file)}:${f.line}:${f.column}`}`,
    ),
  ].join('\n')
}

/** The stack's frames in the app's own files, top first (at most 5). */
function appFrames(stack: string, root: string): Array<Located & { fn?: string }> {
  const frames: Array<Located & { fn?: string }> = []
  for (const line of stack.split('\n')) {
    const m = /^\s+at (?:(.+?) \()?(?:file:\/\/)?(\/[^()]+?):(\d+):(\d+)\)?$/.exec(line)
    if (!m || !m[2]!.startsWith(root + sep) || m[2]!.includes(`${sep}node_modules${sep}`)) continue
    const fn = m[1] === 'eval' || m[1]?.startsWith('async eval') ? undefined : m[1]
    frames.push({ fn, file: m[2]!, line: Number(m[3]), column: Number(m[4]) })
    if (frames.length === 5) break
  }
  return frames
}

/** Two lines before the position, the line with a caret under the column, one line after. */
function codeFrame(at: Located, source?: string): string[] {
  let text = source
  try {
    text ??= readFileSync(at.file, 'utf8')
  } catch {
    return []
  }
  const lines = text.split(/\r?\n/)
  if (at.line < 1 || at.line > lines.length) return []
  const first = Math.max(1, at.line - 2)
  const last = Math.min(lines.length, at.line + 1)
  const width = String(last).length
  const out: string[] = []
  for (let n = first; n <= last; n++) {
    const line = lines[n - 1]!
    out.push(`${n === at.line ? '>' : ' '} ${String(n).padStart(width)} | ${line.replace(/\t/g, '  ')}`)
    if (n === at.line)
      out.push(`  ${' '.repeat(width)} | ${' '.repeat(line.slice(0, at.column - 1).replace(/\t/g, '  ').length)}^`)
  }
  return out.map((l) => `  ${l}`.trimEnd())
}
