// Reads each entry point as the TypeScript checker sees it (the project of tsconfig.json, through
// TypeScript's API): every name it exports, in the index's sections, each value with its printed
// declaration and doc comment, each type with its summary. The reference pages (render-api.ts) and
// the doc-comment test (test/export-docs.test.ts) read this model, so they agree on what is there.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import type {
  ClassDeclaration,
  ModuleDeclaration,
  Node,
  SourceFile,
  VariableDeclaration,
} from 'typescript/unstable/ast'
import { SyntaxKind } from 'typescript/unstable/ast'
import type { Project, Symbol as TsSymbol } from 'typescript/unstable/sync'
import { API, SymbolFlags } from 'typescript/unstable/sync'
import type { Entry } from './entries.ts'
import { type DocComment, EMPTY_DOC, firstSentence, parseDocComment, tagsNamed } from './jsdoc.ts'
import { indexSections } from './sections.ts'
import {
  type Printer,
  callSignatures,
  classDeclaration,
  constDeclaration,
  functionDeclaration,
  isPublicMember,
  memberName,
} from './signature.ts'

/** An exported value: its declaration(s) as TypeScript and its doc comment. */
export interface ApiValue {
  /** The exported name (`default` for a default export). */
  name: string
  /** The name it is declared with (`vela` for `vela/vite`'s default export). */
  declaredName: string
  /** `declare …` statements: a function's overloads sharing the doc comment, a const, a class. */
  declarations: string[]
  doc: DocComment
  /** Overloads with a doc comment of their own (an older form, deprecated). */
  otherForms: { declaration: string; doc: DocComment }[]
  /** A function declaration, or a `const` whose value is an arrow function or function expression. */
  isFunction: boolean
  /** A class's public members that have a doc comment, with its first sentence. */
  members: { name: string; summary: string }[]
}

/** An exported type: its name and doc comment. */
export interface ApiType {
  name: string
  doc: DocComment
}

export interface ApiSection {
  title?: string
  note?: string
  values: ApiValue[]
  types: ApiType[]
}

export interface ApiPage {
  entry: Entry
  sections: ApiSection[]
}

const ROOT = join(import.meta.dirname, '../..')

/** Opens the repository's TypeScript project, runs `read` on it and closes it. */
export function withProject<T>(read: (project: Project) => T): T {
  const api = new API({ cwd: ROOT })
  try {
    const project = api.updateSnapshot({ openProjects: [join(ROOT, 'tsconfig.json')] }).getProjects()[0]
    if (!project) throw new Error('docs-reference: TypeScript opened no project for tsconfig.json')
    return read(project)
  } finally {
    api.close()
  }
}

/** Every entry point's page model. */
export const readApi = (entries: readonly Entry[]): ApiPage[] =>
  withProject((project) => entries.map((entry) => readEntry(project, entry)))

function readEntry(project: Project, entry: Entry): ApiPage {
  const { checker } = project
  const file = sourceFile(project, entry.index)
  const moduleSymbol = checker.getSymbolAtLocation(file)
  if (!moduleSymbol) throw new Error(`docs-reference: ${entry.index} is not a module`)
  const exported = new Map(checker.getExportsOfModule(moduleSymbol).map((s) => [s.name, s]))
  const placed = new Set<string>()
  const sections: ApiSection[] = indexSections(readFileSync(join(ROOT, entry.index), 'utf8')).map((s) => {
    const section: ApiSection = { title: s.title, note: s.note, values: [], types: [] }
    for (const name of s.names) {
      const symbol = exported.get(name)
      if (!symbol || placed.has(name)) continue
      placed.add(name)
      addExport(project, section, name, symbol, s.typeOnly.has(name))
    }
    return section
  })
  // Anything the checker sees that the index's text did not name (an `export *`): a last section.
  const rest: ApiSection = { title: 'More', values: [], types: [] }
  for (const [name, symbol] of exported) if (!placed.has(name)) addExport(project, rest, name, symbol, false)
  if (rest.values.length + rest.types.length) sections.push(rest)
  if (entry.virtualModules) sections.push(...virtualModuleSections(project, entry.virtualModules))
  return { entry, sections }
}

function sourceFile(project: Project, file: string): SourceFile {
  const found = project.program.getSourceFile(join(ROOT, file))
  if (!found) throw new Error(`docs-reference: ${file} is not in tsconfig.json's project`)
  return found
}

/** The `declare module '…'` blocks of a declaration file, one section each. */
function virtualModuleSections(project: Project, file: string): ApiSection[] {
  return sourceFile(project, file)
    .statements.filter((s): s is ModuleDeclaration => s.kind === SyntaxKind.ModuleDeclaration)
    .map((m) => {
      const name = m.name.getText().replace(/^['"]|['"]$/g, '')
      const symbol = project.checker.getSymbolAtLocation(m.name) ?? project.checker.getSymbolAtLocation(m)
      const section: ApiSection = { title: `\`${name}\``, values: [], types: [] }
      for (const s of symbol ? project.checker.getExportsOfModule(symbol) : [])
        addExport(project, section, s.name, s, false)
      return section
    })
}

function addExport(project: Project, section: ApiSection, name: string, exported: TsSymbol, typeOnly: boolean): void {
  const { checker } = project
  const symbol = exported.flags & SymbolFlags.Alias ? checker.getAliasedSymbol(exported) : exported
  const decl = symbol.declarations[0]?.resolve(project)
  if (!decl) throw new Error(`docs-reference: no declaration found for ${name}`)
  if (typeOnly || !(symbol.flags & SymbolFlags.Value)) {
    section.types.push({ name, doc: docOf(symbol.declarations.map((d) => d.resolve(project)).find(hasDoc) ?? decl) })
    return
  }
  section.values.push(readValue({ checker, emitter: project.emitter }, project, name, symbol, decl))
}

function readValue(p: Printer, project: Project, name: string, symbol: TsSymbol, decl: Node): ApiValue {
  // `export default function vela(…)`: the page calls it by the name it is declared and imported with.
  const declaredName = name === 'default' ? ((decl as { name?: Node }).name?.getText() ?? name) : name
  const value: ApiValue = {
    name,
    declaredName,
    declarations: [],
    doc: docOf(decl),
    otherForms: [],
    isFunction: false,
    members: [],
  }
  if (decl.kind === SyntaxKind.FunctionDeclaration) {
    value.isFunction = true
    let first: DocComment | undefined
    for (const signature of callSignatures(p, symbol)) {
      const at = signature.declaration?.resolve(project) ?? decl
      const doc = docOf(at)
      const declaration = functionDeclaration(p, value.declaredName, signature, at)
      first ??= doc
      // An overload without a comment of its own reads with the first one's.
      if (doc === EMPTY_DOC || sameDoc(doc, first)) value.declarations.push(declaration)
      else value.otherForms.push({ declaration, doc })
    }
    value.doc = first ?? value.doc
  } else if (decl.kind === SyntaxKind.ClassDeclaration) {
    const cls = decl as ClassDeclaration
    value.declarations.push(classDeclaration(p, value.declaredName, cls))
    value.members = cls.members
      .filter((m) => isPublicMember(m) && m.kind !== SyntaxKind.Constructor && hasDoc(m))
      .map((m) => ({ name: memberName(m), summary: firstSentence(docOf(m).text) }))
      .filter((m, i, all) => all.findIndex((o) => o.name === m.name) === i)
  } else {
    value.declarations.push(constDeclaration(p, value.declaredName, symbol, decl))
    const init = (decl as VariableDeclaration).initializer?.kind
    value.isFunction = init === SyntaxKind.ArrowFunction || init === SyntaxKind.FunctionExpression
  }
  return value
}

const sameDoc = (a: DocComment, b: DocComment) => JSON.stringify(a) === JSON.stringify(b)

/** The node a declaration's doc comment is attached to: a `const`'s statement, else itself. */
const docHolder = (node: Node): Node =>
  node.kind === SyntaxKind.VariableDeclaration ? (node.parent?.parent ?? node) : node

const hasDoc = (node: Node | undefined): node is Node => Boolean(node && docHolder(node).jsDoc?.length)

/** The (last) doc comment above a declaration, parsed from its text. */
function docOf(node: Node): DocComment {
  const holder = docHolder(node)
  const js = holder.jsDoc?.at(-1)
  if (!js) return EMPTY_DOC
  const text = holder.getSourceFile().text.slice(js.pos, js.end)
  return parseDocComment(text.slice(text.indexOf('/**')))
}

/** One export as test/export-docs.test.ts checks it. */
export interface ExportDoc {
  name: string
  kind: 'value' | 'type'
  summary: string
  isFunction: boolean
  hasExample: boolean
}

/** Every export of a page (virtual modules' as `module: name`), flat. */
export function exportDocs(page: ApiPage): ExportDoc[] {
  return page.sections.flatMap((s) => {
    const prefix = s.title?.startsWith('`virtual:') ? `${s.title.replace(/`/g, '')}: ` : ''
    return [
      ...s.values.map((v) => ({
        name: prefix + v.name,
        kind: 'value' as const,
        summary: firstSentence(v.doc.text),
        isFunction: v.isFunction,
        hasExample: tagsNamed(v.doc, 'example').length > 0,
      })),
      ...s.types.map((t) => ({
        name: prefix + t.name,
        kind: 'type' as const,
        summary: firstSentence(t.doc.text),
        isFunction: false,
        hasExample: tagsNamed(t.doc, 'example').length > 0,
      })),
    ]
  })
}
