// Declarations as an editor's hover shows them, printed by the TypeScript checker: a function's
// overloads, a constant's type, a class with its public members. Each is a `declare …` statement,
// valid TypeScript, so the pages' formatter can lay it out (format.ts); the pages drop `declare`.
import type {
  ClassDeclaration,
  ClassElement,
  ConstructorDeclaration,
  GetAccessorDeclaration,
  MethodDeclaration,
  Node,
  PropertyDeclaration,
} from 'typescript/unstable/ast'
import { SyntaxKind } from 'typescript/unstable/ast'
import type { Checker, Emitter, Signature, Symbol as TsSymbol } from 'typescript/unstable/sync'
import { ModifierFlags, NodeBuilderFlags, SignatureKind } from 'typescript/unstable/sync'

/** Whole types (no `...`), and names as the declaring module writes them. */
const FLAGS = NodeBuilderFlags.NoTruncation | NodeBuilderFlags.UseAliasDefinedOutsideCurrentScope

export interface Printer {
  checker: Checker
  emitter: Emitter
}

/** `import("../x.ts").Name` → `Name`: where a type comes from is not what a reader needs. */
const withoutImports = (s: string): string => s.replace(/import\((["'])[^"']*\1\)\./g, '')

export function typeText(p: Printer, symbol: TsSymbol, at: Node): string {
  const type = p.checker.getTypeOfSymbolAtLocation(symbol, at)
  return withoutImports(p.checker.typeToString(type, at, FLAGS))
}

/** `(a: A): R` for one signature, printed as a declaration of `kind` (without its name). */
function signatureText(p: Printer, signature: Signature, kind: SyntaxKind, at: Node): string {
  const node = p.checker.signatureToSignatureDeclaration(signature, kind, at, FLAGS)
  return node ? withoutImports(p.emitter.printNode(node)).replace(/;\s*$/, '') : ''
}

/** The call signatures of a function, each with the declaration it comes from (for its doc comment). */
export function callSignatures(p: Printer, symbol: TsSymbol): readonly Signature[] {
  const type = p.checker.getTypeOfSymbol(symbol)
  return type ? p.checker.getSignaturesOfType(type, SignatureKind.Call) : []
}

/** `declare function name<T>(a: A): R` for one overload. */
export function functionDeclaration(p: Printer, name: string, signature: Signature, at: Node): string {
  return signatureText(p, signature, SyntaxKind.FunctionDeclaration, at).replace(
    /^function\s*/,
    `declare function ${name}`,
  )
}

/** `declare const name: T`: a constant's type, a function type included. */
export function constDeclaration(p: Printer, name: string, symbol: TsSymbol, at: Node): string {
  return `declare const ${name}: ${typeText(p, symbol, at)}`
}

/** A class member a user may touch: not private or protected, not `#private`, not `@internal`. */
export function isPublicMember(m: ClassElement): boolean {
  const flags = (m as { modifierFlags?: ModifierFlags }).modifierFlags ?? 0
  if (flags & (ModifierFlags.Private | ModifierFlags.Protected)) return false
  const name = (m as { name?: Node }).name
  if (name?.kind === SyntaxKind.PrivateIdentifier) return false
  if (m.kind === SyntaxKind.SemicolonClassElement || m.kind === SyntaxKind.ClassStaticBlockDeclaration) return false
  const doc = m.jsDoc?.at(-1)
  return !(doc && /@internal\b/.test(m.getSourceFile().text.slice(doc.pos, doc.end)))
}

/** `declare class Name<T> extends Base { …public members… }`. */
export function classDeclaration(p: Printer, name: string, decl: ClassDeclaration): string {
  const typeParameters = decl.typeParameters?.length
    ? `<${decl.typeParameters.map((t) => t.getText()).join(', ')}>`
    : ''
  const heritage = (decl.heritageClauses ?? []).map((h) => ` ${h.getText()}`).join('')
  // The constructor first, as a reader looks for how to make one.
  const members = decl.members
    .filter(isPublicMember)
    .sort((a, b) => Number(b.kind === SyntaxKind.Constructor) - Number(a.kind === SyntaxKind.Constructor))
  const setters = new Set(members.filter((m) => m.kind === SyntaxKind.SetAccessor).map((m) => memberName(m)))
  const lines = members.flatMap((m) => memberLine(p, m, decl, setters))
  return `declare class ${name}${typeParameters}${heritage} {\n${lines.map((l) => `  ${l}`).join('\n')}\n}`
}

export const memberName = (m: ClassElement): string => (m as { name?: Node }).name?.getText() ?? ''

function memberLine(p: Printer, m: ClassElement, at: ClassDeclaration, setters: Set<string>): string[] {
  const flags = (m as { modifierFlags?: ModifierFlags }).modifierFlags ?? 0
  const prefix = `${flags & ModifierFlags.Static ? 'static ' : ''}${flags & ModifierFlags.Readonly ? 'readonly ' : ''}`
  const name = memberName(m)
  const signature = (kind: SyntaxKind) => {
    const s = p.checker.getSignatureFromDeclaration(m)
    return s ? signatureText(p, s, kind, at) : ''
  }
  switch (m.kind) {
    case SyntaxKind.Constructor:
      return [signature(SyntaxKind.Constructor as ConstructorDeclaration['kind'])]
    case SyntaxKind.MethodDeclaration:
      return [`${prefix}${name}${signature(SyntaxKind.MethodDeclaration as MethodDeclaration['kind'])}`]
    case SyntaxKind.GetAccessor: {
      const type = signature(SyntaxKind.GetAccessor as GetAccessorDeclaration['kind']).replace(/^get\s*\(\)\s*/, '')
      // A getter without a setter reads as a readonly property, as hover shows it.
      return [`${prefix}${setters.has(name) ? '' : 'readonly '}${name}${type}`]
    }
    case SyntaxKind.PropertyDeclaration: {
      const optional = (m as PropertyDeclaration).postfixToken?.kind === SyntaxKind.QuestionToken ? '?' : ''
      const type = p.checker.getTypeAtLocation(m)
      return [
        `${prefix}${name}${optional}: ${type ? withoutImports(p.checker.typeToString(type, at, FLAGS)) : 'unknown'}`,
      ]
    }
    default:
      return []
  }
}
