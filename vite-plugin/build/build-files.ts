/**
 * The files a built server reads at run time besides its bundle, put under the build's output so
 * that a copy of `dist/` alone runs anywhere (CONTEXT decision 2: the built server's app root is
 * the folder above `dist/server/index.mjs`):
 * - the app's own files, mirrored from the app root: the views folder (`views.dir`, default
 *   `src/views` → `dist/src/views/`), the mail templates (`src/mail` → `dist/src/mail/`) and
 *   `priv/` (`dist/priv/`: `priv/schemas`, and the OpenAPI
 *   document and explorer the build has just written in `priv/assets`). A previous build's copies
 *   are removed first, so a deleted template does not linger, but only when the output lies inside
 *   the app root (Vite's own rule for emptying `outDir`): nothing outside the project is deleted.
 *   An absolute `views.dir` is used as given at run time and not copied; one outside the app root
 *   is not copied either (a warning). A temporary file (`*.tmp`) in them, left by a write that was
 *   interrupted (write-atomically.ts), fails the build naming it, rather than being copied and served.
 * - files bundled packages read beside themselves (`new URL('./x', import.meta.url)`): embedded
 *   PGlite's WebAssembly and data files, copied next to the server file.
 */
import { copyFileSync, cpSync, existsSync, readdirSync, rmSync } from 'node:fs'
import { dirname, isAbsolute, join, relative, resolve, sep } from 'node:path'
import { MAIL_TEMPLATES_DIR } from '../../mail/templates.ts'

const overlaps = (a: string, b: string) => a === b || a.startsWith(b + sep) || b.startsWith(a + sep)

/**
 * Copies the app's views, mail templates and `priv/` from `root` into the folder above `serverDir` (the server's
 * app root); returns the folders copied, relative to both. Throws, copying nothing, when they hold
 * a stray `*.tmp` file.
 */
export function mirrorAppFiles(
  root: string,
  serverDir: string,
  viewsDir: string,
  warn: (message: string) => void,
): string[] {
  const from = resolve(root)
  const to = dirname(resolve(serverDir))
  // An output folder placed so that the server's root is the app folder itself: nothing to copy.
  if (from === to) return []
  const copies: { rel: string; source: string; target: string }[] = []
  for (const dir of [viewsDir, MAIL_TEMPLATES_DIR, 'priv']) {
    if (isAbsolute(dir)) continue
    const rel = relative(from, resolve(from, dir))
    if (rel === '' || rel === '..' || rel.startsWith(`..${sep}`) || isAbsolute(rel)) {
      warn(
        `[vela build] ${dir} is outside the app root: not copied into ${relative(from, to) || '.'}; the built server reads it from ${resolve(to, dir)}`,
      )
      continue
    }
    const target = join(to, rel)
    if (overlaps(target, resolve(serverDir)) || overlaps(join(from, rel), to)) {
      warn(`[vela build] ${dir} overlaps the build output ${relative(from, serverDir)}: not copied`)
      continue
    }
    copies.push({ rel, source: join(from, rel), target })
  }
  const strays = copies.flatMap(({ source }) => strayTempFiles(source)).map((file) => relative(from, file))
  if (strays.length) {
    throw new Error(
      `[vela build] stray temporary file${strays.length > 1 ? 's' : ''} ${strays.join(', ')}: left by a write that was interrupted, ` +
        `not copied into the build; delete ${strays.length > 1 ? 'them' : 'it'} and build again`,
    )
  }
  const copied: string[] = []
  for (const { rel, source, target } of copies) {
    if (to.startsWith(from + sep)) rmSync(target, { recursive: true, force: true })
    if (!existsSync(source)) continue
    // Symlinks are followed: the copy must not point back into the source tree.
    cpSync(source, target, { recursive: true, dereference: true })
    copied.push(rel)
  }
  return copied
}

/** The temporary files (`*.tmp`, as generated files' writers name them) under `dir`. */
function strayTempFiles(dir: string): string[] {
  if (!existsSync(dir)) return []
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.tmp'))
    .sort()
    .map((file) => join(dir, file))
}

const RUNTIME_ASSETS = [
  { pkg: '@electric-sql/pglite', dir: 'dist', files: ['pglite.wasm', 'pglite.data', 'initdb.wasm'] },
]

/** Copies next to the server file the package files its bundle (`code`) loads beside itself. */
export function copyRuntimeAssets(root: string, outDir: string, code: string): string[] {
  const copied: string[] = []
  for (const { pkg, dir, files } of RUNTIME_ASSETS) {
    if (!files.some((f) => code.includes(`"./${f}"`))) continue
    const from = findUp(resolve(root), join('node_modules', pkg, dir))
    if (!from) continue
    for (const f of files) {
      if (!existsSync(join(from, f))) continue
      copyFileSync(join(from, f), join(outDir, f))
      copied.push(f)
    }
  }
  return copied
}

function findUp(start: string, rel: string): string | undefined {
  for (let dir = start; ; dir = dirname(dir)) {
    if (existsSync(join(dir, rel))) return join(dir, rel)
    if (dirname(dir) === dir) return undefined
  }
}
