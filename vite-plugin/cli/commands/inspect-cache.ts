/**
 * The inspection cache, `.vela/inspect.json` in the app root: the reports of `vela routes`,
 * `plugins`, `audit` and `config` (inspect-reports.ts) as the app last loaded made them, so
 * those commands answer without booting Vite or loading the app. It is written by the dev server
 * each time an app starts serving, and by those commands when they had to load the app.
 *
 * It holds what it was made from, and is used only while all of it still holds:
 * - every file the app evaluated (its modules, Vela's own when they are not in node_modules), the
 *   app's `vite.config.*`, `package.json`, lock files, `tsconfig*.json` and `.env*` files, and this
 *   module's own file (another Vela, another output), each with its modification time and size;
 * - no file under `src/` that it does not list (an added route file is discovered);
 * - the environment variables loading the app read (env-reads.ts), and those the reports read,
 *   with the same values (unset included).
 * A cache made while one of its files changed is not written. Written atomically (write-atomically.ts);
 * one that cannot be read or written is ignored: the command loads the app as before.
 */
import { readFileSync, readdirSync, statSync } from 'node:fs'
import { isAbsolute, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { writeAtomically } from '../../write-atomically.ts'
import type { Reports } from './inspect-reports.ts'

export const CACHE_FILE = '.vela/inspect.json'
// 2: the `middleware` report became `plugins`.
const FORMAT = 2
/** The files in the app root that change what the app loads, besides its modules. */
const ROOT_FILE =
  /^(vite\.config\.[cm]?[jt]s|package(-lock)?\.json|pnpm-lock\.yaml|yarn\.lock|tsconfig.*\.json|\.env(\..*)?)$/
const SELF = fileURLToPath(import.meta.url)

interface CacheFile {
  readonly format: number
  readonly root: string
  /** Absolute path → `mtime:size`. */
  readonly files: Record<string, string>
  readonly env: Record<string, string | null>
  readonly reports: Reports
}

const stamp = (file: string): string | undefined => {
  const s = statSync(file, { throwIfNoEntry: false })
  return s?.isFile() ? `${s.mtimeMs}:${s.size}` : undefined
}

/** The files every cache lists: the app's `src/` and root files, and this module's own file. */
function watchedFiles(root: string): string[] {
  const src = join(root, 'src')
  const inSrc = readdirSync(src, { recursive: true, encoding: 'utf8', withFileTypes: false }).map((f) => join(src, f))
  const atRoot = readdirSync(root)
    .filter((f) => ROOT_FILE.test(f))
    .map((f) => join(root, f))
  return [...inSrc, ...atRoot, SELF].filter((f) => stamp(f) !== undefined)
}

/** The cached reports for the app in `root`, if the cache holds for it now. */
export function cachedReports(root: string): Reports | undefined {
  try {
    const cache = JSON.parse(readFileSync(join(root, CACHE_FILE), 'utf8')) as CacheFile
    if (cache.format !== FORMAT || cache.root !== resolve(root)) return undefined
    for (const [file, was] of Object.entries(cache.files)) if (stamp(file) !== was) return undefined
    for (const file of watchedFiles(root)) if (!(file in cache.files)) return undefined
    for (const [name, value] of Object.entries(cache.env)) if ((process.env[name] ?? null) !== value) return undefined
    return cache.reports
  } catch {
    return undefined
  }
}

export interface CacheSource {
  /** The files the app's modules were evaluated from (absolute paths; others are skipped). */
  readonly evaluated: Iterable<string>
  /** The environment variables read while loading, with their values then. */
  readonly env: Record<string, string | null>
  /** When loading began (ms since the epoch): a file changed since makes the cache unwritten. */
  readonly since: number
}

/** Writes the cache for the app in `root`; false when it was not written (a file changed meanwhile, or the write failed). */
export async function writeInspectCache(root: string, reports: Reports, source: CacheSource): Promise<boolean> {
  try {
    const dir = resolve(root)
    const files: Record<string, string> = {}
    const evaluated = [...source.evaluated].filter((f) => isAbsolute(f) && !f.split(/[\\/]/).includes('node_modules'))
    for (const file of [...watchedFiles(dir), ...evaluated]) {
      const s = statSync(file, { throwIfNoEntry: false })
      if (!s?.isFile()) continue
      if (s.mtimeMs >= source.since) return false
      files[file] = `${s.mtimeMs}:${s.size}`
    }
    const cache: CacheFile = { format: FORMAT, root: dir, files, env: source.env, reports }
    await writeAtomically(join(dir, CACHE_FILE), `${JSON.stringify(cache)}\n`)
    return true
  } catch {
    return false
  }
}
