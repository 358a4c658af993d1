/**
 * The apps under examples/, each set up as a user who cloned it would have it: its own files in a
 * temporary folder, with `vela` from the packed tarball and the toolchain a `vela new` starter
 * installs. The node_modules come from the new app test/support/new-app-cache.ts makes once per
 * tarball (hard links), not from an install per example: an example's package.json must ask for
 * the starter's dependencies and versions, which `useExample` checks first.
 */
import { cpSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { copyApp } from './new-app-cache.ts'

export const EXAMPLES = fileURLToPath(new URL('../../examples/', import.meta.url))

/** What `npm install` or a run leaves in an app's folder, never part of an example. */
const NOT_SOURCE = new Set(['node_modules', 'dist', '.data', '.vela', 'package-lock.json'])

interface PackageJson {
  dependencies?: Record<string, string>
  devDependencies?: Record<string, string>
}

const readJson = (file: string) => JSON.parse(readFileSync(file, 'utf8')) as PackageJson

/**
 * The dependencies of the example that the starter's install does not provide as asked: a name
 * the starter lacks, or another version range. Empty when the shared node_modules serve it.
 */
export function unmetDependencies(example: PackageJson, starter: PackageJson): string[] {
  const have = { ...starter.dependencies, ...starter.devDependencies }
  const want = { ...example.dependencies, ...example.devDependencies }
  return Object.entries(want)
    .filter(([name, range]) => name !== 'vela' && have[name] !== range)
    .map(([name, range]) => `${name}@${range} (the starter has ${have[name] ?? 'nothing'})`)
}

/**
 * Copies `examples/<name>` into `<parent>/<name>` with the starter's node_modules (from `starter`,
 * an installed new app) and its `vela` dependency pointing at `tarball`, as `npm install
 * <tarball>` would leave it. Throws when the example asks for what the starter does not have.
 */
export function useExample(name: string, parent: string, starter: string, tarball: string): string {
  const source = join(EXAMPLES, name)
  const pkg = readJson(join(source, 'package.json'))
  const unmet = unmetDependencies(pkg, readJson(join(starter, 'package.json')))
  if (unmet.length > 0) throw new Error(`examples/${name}/package.json asks for ${unmet.join(', ')}`)
  const app = join(parent, name)
  // The starter's files but node_modules are replaced by the example's.
  copyApp(starter, app)
  for (const entry of readdirSync(app)) if (entry !== 'node_modules') rmSync(join(app, entry), { recursive: true })
  for (const entry of readdirSync(source))
    if (!NOT_SOURCE.has(entry)) cpSync(join(source, entry), join(app, entry), { recursive: true })
  const installed = { ...pkg, dependencies: { ...pkg.dependencies, vela: `file:${tarball}` } }
  writeFileSync(join(app, 'package.json'), `${JSON.stringify(installed, null, 2)}\n`)
  return app
}
