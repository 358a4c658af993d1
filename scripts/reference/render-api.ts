// An entry point's reference page: its sections in the index's order; in each, one heading per value
// (its declaration, its whole doc comment, its examples) and the types as a list of first sentences.
// Headings carry their name as anchor (`#json`), so links to them stay put.
import { firstSentence, renderDoc, tagsNamed } from './jsdoc.ts'
import type { ApiPage, ApiSection, ApiValue } from './read-api.ts'

/** A fenced block of `declare …` statements; `formatPage` lays it out and drops the `declare`. */
export const SIGNATURE_INFO = 'ts signature'

const signatureBlock = (declarations: readonly string[]) =>
  `\`\`\`${SIGNATURE_INFO}\n${declarations.join('\n')}\n\`\`\``

/** `Routes` → `routes`, `` `virtual:vela/app` `` → `virtual-vela-app`: a section's anchor. */
const slug = (title: string) =>
  title
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '')

const isDeprecated = (doc: ApiValue['doc']) => tagsNamed(doc, 'deprecated').length > 0

function valueBlock(v: ApiValue): string {
  const label = v.name === 'default' ? `\`${v.declaredName}\` (default export)` : `\`${v.name}\``
  const out = [`### ${label}${isDeprecated(v.doc) ? ' (deprecated)' : ''} {#${anchorOf(v)}}`]
  if (v.declarations.length) out.push(signatureBlock(v.declarations))
  const doc = renderDoc(v.doc)
  if (doc) out.push(doc)
  if (v.members.length)
    out.push(`**Members**\n\n${v.members.map((m) => `- \`${m.name}\`${m.summary ? `: ${m.summary}` : ''}`).join('\n')}`)
  for (const form of v.otherForms)
    out.push(`**Another form**\n\n${signatureBlock([form.declaration])}`, renderDoc(form.doc))
  return out.join('\n\n')
}

/** A value's anchor: its name (`vela/vite`'s default export: the name it is declared with). */
export const anchorOf = (v: ApiValue): string => (v.name === 'default' ? v.declaredName : v.name)

/** A section under its `##` heading; one without a title (an index without section comments) right under the page's. */
function sectionBlock(section: ApiSection): string {
  const out: string[] = []
  if (section.title) out.push(`## ${section.title} {#${slug(section.title)}}`)
  if (section.note) out.push(section.note)
  out.push(...section.values.map(valueBlock))
  if (section.types.length) {
    const items = section.types.map((t) => {
      const summary = firstSentence(t.doc.text)
      return `- \`${t.name}\`${isDeprecated(t.doc) ? ' (deprecated)' : ''}${summary ? `: ${summary}` : ''}`
    })
    out.push(`**Types${section.title ? ` (${section.title})` : ''}**\n\n${items.join('\n')}`)
  }
  return out.join('\n\n')
}

export function renderApiPage(page: ApiPage): string {
  const { entry, sections } = page
  const values = sections.reduce((n, s) => n + s.values.length, 0)
  const types = sections.reduce((n, s) => n + s.types.length, 0)
  checkAnchors(page)
  const body = sections.map(sectionBlock)
  return [
    `# \`${entry.subpath}\``,
    entry.lead,
    `\`import { … } from '${entry.subpath}'\`: ${values} values and ${types} types. Each value shows its declaration as your editor's hover does, then its documentation and examples.`,
    `:::: v-pre\n\n${body.join('\n\n')}\n\n::::`,
  ].join('\n\n')
}

/** Every anchor a page defines is defined once: a clash would make one heading unreachable. */
function checkAnchors(page: ApiPage): void {
  const seen = new Set<string>()
  for (const s of page.sections) {
    for (const a of [...(s.title ? [slug(s.title)] : []), ...s.values.map(anchorOf)]) {
      if (seen.has(a)) throw new Error(`docs-reference: the anchor #${a} is defined twice on ${page.entry.page}.md`)
      seen.add(a)
    }
  }
}
