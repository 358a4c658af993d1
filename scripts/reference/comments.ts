// Line comments of an example laid out for a narrow code block: a formatter breaks long code but
// never a comment, and examples note results at the end of a line (`… // { avg: 2.5 }`). A line too
// long for the block gets its trailing comment on the line above; a comment line too long is
// wrapped at spaces. Code itself is left to the formatter.

/** Where a trailing `//` comment starts on `line` (outside strings), or -1. */
function commentStart(line: string): number {
  let quote = ''
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!
    if (quote) {
      if (c === '\\') i++
      else if (c === quote) quote = ''
    } else if (c === "'" || c === '"' || c === '`') quote = c
    else if (c === '/' && line[i + 1] === '/' && (i === 0 || line[i - 1] === ' ')) return i
    // A regular expression literal may hold quotes or `//`: leave such a line alone.
    else if (c === '/' && /[(,=:[!&|?{};]\s*$|^\s*$/.test(line.slice(0, i))) return -1
  }
  return -1
}

/** `// text` at `indent`, wrapped at spaces to `width` (a word longer than that stays whole). */
function commentLines(indent: string, text: string, width: number): string[] {
  const lines: string[] = []
  let current = ''
  for (const word of text.split(/\s+/).filter(Boolean)) {
    if (current && `${indent}// ${current} ${word}`.length > width) {
      lines.push(`${indent}// ${current}`)
      current = word
    } else current = current ? `${current} ${word}` : word
  }
  if (current) lines.push(`${indent}// ${current}`)
  return lines
}

export function reflowComments(code: string, width: number): string {
  return code
    .split('\n')
    .flatMap((line) => {
      if (line.length <= width) return [line]
      const at = commentStart(line)
      if (at === -1) return [line]
      const indent = /^\s*/.exec(line)![0]
      const text = line.slice(at + 2).trim()
      const before = line.slice(0, at).trimEnd()
      return before.trim() ? [...commentLines(indent, text, width), before] : commentLines(indent, text, width)
    })
    .join('\n')
}
