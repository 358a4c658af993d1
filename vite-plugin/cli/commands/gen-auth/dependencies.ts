/**
 * The packages a part of `vela gen auth` imports, added to the app's package.json. Read and
 * checked before any file is written (an app without a readable package.json gets nothing), then
 * written after the part's files. A package the app lists already, in `dependencies` or
 * `devDependencies`, keeps its range: the app chose it.
 */
import { readFile, writeFile } from 'node:fs/promises'
import { resolve } from 'node:path'

/** The app's package.json with the missing packages added, ready to write. */
export interface PackageJsonEdit {
  readonly file: string
  readonly text: string
  /** The packages added (`name@range`); empty when the app lists them all. */
  readonly added: readonly string[]
}

/**
 * The edit adding `wanted` to the `dependencies` of `root`'s package.json, keeping its indentation
 * and key order (new names sorted in). Throws, naming the file, when it is missing or not a JSON
 * object.
 */
export async function planDependencies(
  root: string,
  wanted: Readonly<Record<string, string>>,
  display: (file: string) => string,
): Promise<PackageJsonEdit> {
  const file = resolve(root, 'package.json')
  const text = await readFile(file, 'utf8').catch(() => {
    throw new Error(`${display(file)} not found: passkeys add @simplewebauthn/server to it; nothing was written`)
  })
  let pkg: Record<string, unknown>
  try {
    pkg = JSON.parse(text) as Record<string, unknown>
    if (typeof pkg !== 'object' || pkg === null || Array.isArray(pkg)) throw new Error('not an object')
  } catch (err) {
    throw new Error(`${display(file)} is not a JSON object (${(err as Error).message}); nothing was written`)
  }
  const listed = { ...(pkg.devDependencies as object), ...(pkg.dependencies as object) }
  const missing = Object.entries(wanted).filter(([name]) => !Object.hasOwn(listed, name))
  if (missing.length === 0) return { file, text, added: [] }
  const dependencies = { ...(pkg.dependencies as Record<string, string>) }
  for (const [name, range] of missing) dependencies[name] = range
  const sorted = Object.fromEntries(Object.entries(dependencies).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
  const indent = /^[ \t]+(?=")/m.exec(text)?.[0] ?? '  '
  const edited = `${JSON.stringify({ ...pkg, dependencies: sorted }, null, indent)}\n`
  return { file, text: edited, added: missing.map(([name, range]) => `${name}@${range}`) }
}

/** Writes the edit (nothing when it adds nothing). */
export async function applyDependencies(edit: PackageJsonEdit): Promise<void> {
  if (edit.added.length > 0) await writeFile(edit.file, edit.text)
}
