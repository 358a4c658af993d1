// The sections of an index file: a `//` comment at the start of a line, directly above an export (or
// a side-effect import before one), opens a section ("// App: its configuration, …"); every name
// exported below it, up to the next one, belongs to it. An index without such comments is one
// section without a title.

/** A section of an index: its title and note (from its comment) and the names it exports, in order. */
export interface IndexSection {
  title?: string
  note?: string
  names: string[]
  /** The names exported as types only (`export type { … }`, `export { type X }`). */
  typeOnly: Set<string>
}

export function indexSections(text: string): IndexSection[] {
  const lines = text.split('\n')
  const sections: IndexSection[] = [{ names: [], typeOnly: new Set() }]
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!
    if (line.startsWith('//') && !lines[i - 1]?.startsWith('//')) {
      let end = i
      while (lines[end + 1]?.startsWith('//')) end++
      let next = end + 1
      while (/^import\s+'[^']+'/.test(lines[next] ?? '')) next++
      if ((lines[next] ?? '').startsWith('export ')) {
        const comment = lines
          .slice(i, end + 1)
          .map((l) => l.replace(/^\/\/\s?/, ''))
          .join(' ')
        sections.push({ ...titleAndNote(comment), names: [], typeOnly: new Set() })
      }
      i = end
      continue
    }
    if (!line.startsWith('export ')) continue
    // The statement may span lines (`export {\n  a,\n  b,\n} from …`).
    let statement = line
    if (/^export\s+(type\s+)?\{/.test(line))
      while (!statement.includes('}') && i + 1 < lines.length) statement += `\n${lines[++i]}`
    const section = sections.at(-1)!
    for (const { name, type } of exportedNames(statement)) {
      section.names.push(name)
      if (type) section.typeOnly.add(name)
    }
  }
  return sections.filter((s) => s.names.length > 0)
}

/** The names one `export …` statement exports; `default` for a default export. */
function exportedNames(statement: string): { name: string; type: boolean }[] {
  const list = /^export\s+(type\s+)?\{([^}]*)\}/.exec(statement)
  if (list) {
    return list[2]!
      .split(',')
      .map((s) => s.replace(/\/\/.*$/gm, '').trim())
      .filter(Boolean)
      .map((s) => ({
        name: s
          .replace(/^type\s+/, '')
          .split(/\s+as\s+/)
          .pop()!
          .trim(),
        type: Boolean(list[1]) || s.startsWith('type '),
      }))
  }
  if (/^export\s+default\b/.test(statement)) return [{ name: 'default', type: false }]
  const declared =
    /^export\s+(?:declare\s+)?(?:abstract\s+)?(?:async\s+)?(function\*?|const|let|class|interface|type|enum)\s+([\w$]+)/.exec(
      statement,
    )
  return declared ? [{ name: declared[2]!, type: declared[1] === 'interface' || declared[1] === 'type' }] : []
}

/**
 * "App: its configuration, …" → title `App`, note "Its configuration, …". A parenthesis naming only
 * source files is for maintainers and left out.
 */
function titleAndNote(comment: string): { title: string; note?: string } {
  const text = comment.replace(/\s*\((?:[\w./-]+\.ts(?:,\s*)?)+\)/g, '').trim()
  const m = /^([^:.]+?)[:.](?:\s+|$)([\s\S]*)$/.exec(text)
  if (!m) return { title: text }
  const note = m[2]!.trim()
  return { title: m[1]!.trim(), note: note ? note[0]!.toUpperCase() + note.slice(1) : undefined }
}
