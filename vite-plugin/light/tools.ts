/**
 * What the light loader borrows from Vite's own dependencies, so it transforms and globs exactly
 * as Vite does: Oxc's TypeScript transform and parser (`rolldown/utils`, the transform Vite's
 * `vite:oxc` plugin runs, with the same tsconfig lookup) and `tinyglobby` (what `import.meta.glob`
 * matches with). Resolved from the installed `vite` package, as Vite resolves them; undefined when
 * they cannot be (another Vite, a package manager that hides them): the CLI then loads through Vite.
 */
import { createRequire } from 'node:module'
import { pathToFileURL } from 'node:url'
import type { ParseProgram } from './plain-config.ts'

/** Vite's transform, parser and glob, as the light loader uses them. */
export interface LightTools {
  /** The module's JavaScript; throws the transform's errors. */
  transform(file: string, code: string): string
  readonly parse: ParseProgram
  /**
   * Absolute paths matching `patterns` (absolute, or `!` negations matched from `cwd`), sorted,
   * as `import.meta.glob` lists them.
   */
  glob(patterns: readonly string[], cwd: string): string[]
  /** `path` with the characters globs give a meaning to escaped. */
  escape(path: string): string
}

interface RolldownUtils {
  transformSync(
    file: string,
    code: string,
    options: { lang: 'ts'; sourcemap: boolean },
    cache?: unknown,
  ): { code: string; errors: { message: string }[] }
  parseSync: ParseProgram
  TsconfigCache: new () => unknown
}
interface Tinyglobby {
  globSync(patterns: string[], options: Record<string, unknown>): string[]
  escapePath(path: string): string
}

let loaded: Promise<LightTools | undefined> | undefined

/** The tools, loaded once per process. */
export function lightTools(): Promise<LightTools | undefined> {
  return (loaded ??= load().catch(() => undefined))
}

async function load(): Promise<LightTools> {
  const fromVite = createRequire(createRequire(import.meta.url).resolve('vite/package.json'))
  const utils = (await import(pathToFileURL(fromVite.resolve('rolldown/utils')).href)) as RolldownUtils
  const globby = fromVite('tinyglobby') as Tinyglobby
  // One tsconfig cache for the process, as Vite keeps one per config.
  const tsconfigs = new utils.TsconfigCache()
  return {
    transform(file, code) {
      const result = utils.transformSync(file, code, { lang: 'ts', sourcemap: false }, tsconfigs)
      if (result.errors.length) throw new Error(result.errors.map((e) => e.message).join('\n'))
      return result.code
    },
    parse: utils.parseSync,
    glob: (patterns, cwd) =>
      globby
        .globSync([...patterns], {
          absolute: true,
          cwd,
          dot: false,
          expandDirectories: false,
          caseSensitiveMatch: true,
          ignore: ['**/node_modules/**'],
          extglob: false,
        })
        .sort(),
    escape: (path) => globby.escapePath(path),
  }
}
