/**
 * Whether an app's Vite config is plain enough for the CLI's light loader (loader.ts), decided
 * from its text, without running it: the config may only be
 *
 *   import vela from 'vela/vite'
 *   import { defineConfig } from 'vite'            // optional; `import type` lines too
 *   export default defineConfig({ plugins: [vela({ … })], server: { … }, test: { … } })
 *
 * (or the object without `defineConfig`): `vela()` the only plugin, its options and the values of
 * `server`, `preview`, `build`, `test`, `logLevel` and `clearScreen` made of literals (objects,
 * arrays, strings, numbers, `process.env.X`), and no other key. Those keys change nothing in how
 * Vite loads the app's modules. Anything else — another plugin, `resolve.alias`, `define`, a
 * function, a computed value, another import, a CommonJS config — may, so the app goes through
 * Vite. `vela({ app })`, when given, must be a string path from the root (`/src/main.ts`).
 */
import { existsSync, readFileSync } from 'node:fs'
import { basename, join } from 'node:path'

/** Vite's own config file names, in the order it looks for them. */
const VITE_CONFIG_FILES = [
  'vite.config.js',
  'vite.config.mjs',
  'vite.config.ts',
  'vite.config.cjs',
  'vite.config.mts',
  'vite.config.cts',
]
const OTHER_KEYS = new Set(['server', 'preview', 'build', 'test', 'logLevel', 'clearScreen'])

/** The config's verdict: the app module `vela()` names, or why Vite must load the app. */
export type PlainConfig = { readonly app: string | undefined } | { readonly fallback: string }

// The ESTree nodes the check reads (oxc's parser gives ESTree).
interface Node {
  readonly type: string
  readonly [key: string]: unknown
}
/** Oxc's `parseSync`, as tools.ts gives it: an ESTree program and the parse errors. */
export type ParseProgram = (file: string, code: string) => { program: { body: Node[] }; errors: unknown[] }

const unwrap = (n: Node): Node =>
  n.type === 'TSAsExpression' || n.type === 'TSSatisfiesExpression' || n.type === 'TSNonNullExpression'
    ? unwrap(n.expression as Node)
    : n

const keyName = (p: Node): string | undefined => {
  if (p.type !== 'Property' || p.computed || p.method || p.shorthand || p.kind !== 'init') return undefined
  const key = p.key as Node
  return key.type === 'Identifier' ? (key.name as string) : key.type === 'Literal' ? String(key.value) : undefined
}

/** A value made of literals and `process.env` reads: evaluating it does nothing else. */
function inert(node: Node): boolean {
  const n = unwrap(node)
  switch (n.type) {
    case 'Literal':
      return true
    case 'Identifier':
      return n.name === 'undefined'
    case 'TemplateLiteral':
      return (n.expressions as Node[]).every(inert)
    case 'ArrayExpression':
      return (n.elements as (Node | null)[]).every((e) => e === null || inert(e))
    case 'ObjectExpression':
      return (n.properties as Node[]).every((p) => keyName(p) !== undefined && inert(p.value as Node))
    case 'UnaryExpression':
      return n.operator !== 'delete' && inert(n.argument as Node)
    case 'BinaryExpression':
    case 'LogicalExpression':
      return inert(n.left as Node) && inert(n.right as Node)
    case 'ConditionalExpression':
      return inert(n.test as Node) && inert(n.consequent as Node) && inert(n.alternate as Node)
    case 'MemberExpression':
      return envRead(n)
    default:
      return false
  }
}

/** `process.env.X` or `process.env['X']`. */
function envRead(n: Node): boolean {
  const object = n.object as Node
  const env =
    object.type === 'MemberExpression' &&
    !object.computed &&
    (object.object as Node).type === 'Identifier' &&
    (object.object as Node).name === 'process' &&
    (object.property as Node).name === 'env'
  return env && (!n.computed || (n.property as Node).type === 'Literal')
}

/** `defineConfig` (or a type) in `import { … } from 'vite'`. */
const isDefineConfigImport = (s: Node): boolean =>
  s.type === 'ImportSpecifier' && (s.importKind === 'type' || (s.imported as Node).name === 'defineConfig')

/** The verdict on the config file `file` (absolute), parsed with `parse`. */
export function plainConfig(file: string, parse: ParseProgram): PlainConfig {
  const name = basename(file)
  const no = (why: string): PlainConfig => ({ fallback: `${name}: ${why}` })
  if (/\.c[jt]s$/.test(file)) return no('a CommonJS config')
  const { program, errors } = parse(file, readFileSync(file, 'utf8'))
  if (errors.length) return no('does not parse')
  let velaName: string | undefined
  let defineConfigName: string | undefined
  let exported: Node | undefined
  for (const statement of program.body) {
    if (statement.type === 'ImportDeclaration') {
      if (statement.importKind === 'type') continue
      const from = (statement.source as Node).value
      const specifiers = statement.specifiers as Node[]
      const local = (s: Node) => (s.local as Node).name as string
      if (from === 'vela/vite' && specifiers.length === 1 && specifiers[0]!.type === 'ImportDefaultSpecifier')
        velaName = local(specifiers[0]!)
      else if (from === 'vite' && specifiers.every(isDefineConfigImport))
        defineConfigName = specifiers.filter((s) => s.importKind !== 'type').map(local)[0]
      else return no(`imports ${String(from)}`)
    } else if (statement.type === 'ExportDefaultDeclaration') exported = unwrap(statement.declaration as Node)
    else return no(`has a ${statement.type}`)
  }
  if (exported?.type === 'CallExpression') {
    const args = exported.arguments as Node[]
    const callee = exported.callee as Node
    if (callee.type !== 'Identifier' || callee.name !== defineConfigName || args.length !== 1)
      return no('exports a call other than defineConfig({ … })')
    exported = unwrap(args[0]!)
  }
  if (exported?.type !== 'ObjectExpression') return no('does not export a config object')
  let app: string | undefined
  let plugins = false
  for (const property of exported.properties as Node[]) {
    const key = keyName(property)
    const value = unwrap((property.value as Node | undefined) ?? property)
    if (key === 'plugins') {
      const elements = value.type === 'ArrayExpression' ? (value.elements as (Node | null)[]) : []
      const call = elements.length === 1 && elements[0] ? unwrap(elements[0]) : undefined
      const args = (call?.arguments as Node[] | undefined) ?? []
      if (call?.type !== 'CallExpression' || (call.callee as Node).name !== velaName || args.length > 1)
        return no('has plugins other than vela()')
      const options = args[0] ? unwrap(args[0]) : undefined
      if (options && (options.type !== 'ObjectExpression' || !inert(options)))
        return no('gives vela() computed options')
      for (const option of (options?.properties as Node[] | undefined) ?? []) {
        if (keyName(option) !== 'app') continue
        const given = unwrap(option.value as Node)
        if (given.type !== 'Literal' || typeof given.value !== 'string' || !given.value.startsWith('/'))
          return no('gives vela() an app that is not a path from the root')
        app = given.value
      }
      plugins = true
    } else if (key === undefined || !OTHER_KEYS.has(key)) return no(`sets ${key ?? 'a computed key'}`)
    else if (!inert(value)) return no(`computes ${key}`)
  }
  return plugins && velaName !== undefined ? { app } : no('does not use vela()')
}

/** The app's Vite config file, the first of Vite's names that exists in `root`; undefined without one. */
export function viteConfigFile(root: string): string | undefined {
  return VITE_CONFIG_FILES.map((f) => join(root, f)).find((f) => existsSync(f))
}

/** The `.env` files Vite reads for `mode` that exist in `root` (Vite sets variables from them). */
export function envFiles(root: string, mode: string): string[] {
  return ['.env', '.env.local', `.env.${mode}`, `.env.${mode}.local`].filter((f) => existsSync(join(root, f)))
}
