// A doc comment as the reference pages show it: its text (markdown as written in the source) and its
// tags, read from the comment's own text so that each overload keeps its own comment.

/** One `@tag` of a doc comment, its text without the tag (several lines for `@example`). */
export interface DocTag {
  name: string
  text: string
}

/** A parsed doc comment: the text before the first tag, then the tags in order. */
export interface DocComment {
  text: string
  tags: DocTag[]
}

export const EMPTY_DOC: DocComment = { text: '', tags: [] }

/** `/** … *\/` → its text and tags. A line starting with `@` inside a fenced block is code, not a tag. */
export function parseDocComment(raw: string): DocComment {
  const lines = raw
    .replace(/^\/\*\*/, '')
    .replace(/\*\/$/, '')
    .split('\n')
    .map((l) => l.replace(/^\s*\* ?/, '').trimEnd())
  const text: string[] = []
  const tags: { name: string; lines: string[] }[] = []
  let inFence = false
  for (const line of lines) {
    const tag = inFence ? null : /^\s*@(\w+)\s?(.*)$/.exec(line)
    if (tag) tags.push({ name: tag[1]!, lines: tag[2] ? [tag[2]] : [] })
    else (tags.at(-1)?.lines ?? text).push(line)
    if (line.trimStart().startsWith('```')) inFence = !inFence
  }
  const join = (ls: string[]) => dedent(ls).join('\n').trim()
  return { text: join(text), tags: tags.map((t) => ({ name: t.name, text: join(t.lines) })) }
}

/** Lines without the indentation they all share (an example written one space in). */
function dedent(lines: string[]): string[] {
  const indents = lines.filter((l) => l.trim()).map((l) => /^ */.exec(l)![0].length)
  const common = indents.length ? Math.min(...indents) : 0
  return lines.map((l) => l.slice(common))
}

/** `{@link X}` and `{@link X text}` as code spans (the pages have no link target for every name). */
export const resolveLinks = (s: string): string =>
  s.replace(/\{@link(?:code|plain)?\s+([^\s}|]+)(?:[\s|]+([^}]*))?\}/g, (_, target: string, label?: string) =>
    label?.trim() ? label.trim() : `\`${target}\``,
  )

/** The first sentence of a comment's text, on one line. */
export function firstSentence(docText: string): string {
  const paragraph = resolveLinks(docText).split(/\n\s*\n/)[0] ?? ''
  const text = paragraph
    .split('\n')
    .map((l) => l.trim())
    .join(' ')
    .trim()
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

export const tagsNamed = (doc: DocComment, name: string): DocTag[] => doc.tags.filter((t) => t.name === name)

/** The code of an `@example`: its fenced block(s) as written, or the whole text as one TypeScript block. */
export function exampleBlocks(text: string): string {
  if (!text.includes('```')) return `\`\`\`ts\n${text}\n\`\`\``
  let open = false
  return text
    .split('\n')
    .map((line) => {
      if (!line.trimStart().startsWith('```')) return line
      open = !open
      return open && line.trim() === '```' ? `${line}ts` : line
    })
    .join('\n')
}

/**
 * A doc comment as markdown: a `@deprecated` notice first, the text, parameters, return value and
 * other tags, then each `@example` as a code block. Labels are bold text, not headings, so the
 * page's outline lists the exports only.
 */
export function renderDoc(doc: DocComment): string {
  const out: string[] = []
  for (const d of tagsNamed(doc, 'deprecated'))
    out.push(
      `::: warning Deprecated\n${resolveLinks(d.text) || 'Kept for compatibility; do not use it in new code.'}\n:::`,
    )
  if (doc.text) out.push(resolveLinks(doc.text))
  const params = tagsNamed(doc, 'param')
  if (params.length) {
    const items = params.map((p) => {
      const m = /^(?:\{[^}]*\}\s*)?\[?([\w$.]+)(?:=[^\]]*)?\]?\s*(?:-\s*)?([\s\S]*)$/.exec(p.text)
      return m ? `- \`${m[1]}\`${m[2] ? `: ${resolveLinks(m[2]).replace(/\n/g, ' ')}` : ''}` : `- ${p.text}`
    })
    out.push(`**Parameters**\n\n${items.join('\n')}`)
  }
  for (const t of doc.tags) {
    if (['deprecated', 'param', 'example', 'internal'].includes(t.name)) continue
    const label = LABELS[t.name] ?? `@${t.name}`
    out.push(`**${label}**${t.text ? ` ${resolveLinks(t.text)}` : ''}`)
  }
  for (const e of tagsNamed(doc, 'example')) out.push(`**Example**\n\n${exampleBlocks(e.text)}`)
  return out.join('\n\n')
}

const LABELS: Record<string, string> = {
  returns: 'Returns',
  return: 'Returns',
  throws: 'Throws',
  see: 'See',
  default: 'Default',
  defaultValue: 'Default',
  since: 'Since',
}
