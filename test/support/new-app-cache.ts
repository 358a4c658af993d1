/**
 * The new app the end-to-end suites start from (test/new-app.test.ts,
 * test/new-app-telemetry.test.ts), made once per packed tarball and shared: `vela new notes-app`
 * run from the tarball, the tarball installed into it, and one `vite build` of it as generated.
 * Making it is most of those suites' time (two npm installs and a build), and both make the same
 * app from the same tarball, so the first suite to need it makes it under
 * `node_modules/.cache/vela-new-app/<tarball hash>/` (a lock folder keeps the other waiting) and
 * each suite then works in its own copy. `npm ci` empties node_modules, so CI makes it once a run.
 */
import { execFileSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import {
  copyFileSync,
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  renameSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
} from 'node:fs'
import { tmpdir } from 'node:os'
import { basename, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { Packed } from './new-app.ts'
import { installTarball, npx, packVela, velaNew } from './new-app.ts'

const CACHE = fileURLToPath(new URL('../../node_modules/.cache/vela-new-app/', import.meta.url))
const APP_NAME = 'notes-app'
/** How long a suite waits for another process making the same app (two installs and a build on a busy machine). */
const WAIT_MS = 15 * 60_000
/** Entries of other tarballs older than this are removed (each is an app's node_modules). */
const STALE_MS = 24 * 3600_000

export interface NewApp {
  /** The tarball `npm pack` wrote for this suite. */
  readonly packed: Packed
  /** This suite's own copy of the installed app (`<tmp>/notes-app`). */
  readonly app: string
  /** A copy of the `dist/` that `vite build` wrote for the app as generated, in a folder holding nothing else. */
  readonly plainDist: string
  /** Removes the copies and the tarball. */
  remove(): void
}

/**
 * Packs this repo, then gives a private copy of the app `vela new` makes from the tarball, with
 * the tarball installed, and of its build as generated; the app and build are made once per
 * tarball content and shared between suites and runs.
 *
 * @example
 * const made = await newApp('vela-newapp-')
 * afterAll(() => made.remove())
 * await npx(made.app, 'tsc', ['--noEmit'])
 */
export async function newApp(prefix: string): Promise<NewApp> {
  const packed = await packVela()
  const packDir = join(packed.tarball, '..')
  const entry = await cachedEntry(packed.tarball).catch((err: unknown) => {
    rmSync(packDir, { recursive: true, force: true })
    throw err
  })
  const parent = mkdtempSync(join(tmpdir(), prefix))
  const app = join(parent, APP_NAME)
  copyApp(join(entry, APP_NAME), app)
  // In a folder of its own: a built server runs from its output alone.
  const plainDist = mkdtempSync(join(tmpdir(), 'vela-dist-'))
  cpSync(join(entry, 'dist'), plainDist, { recursive: true })
  const remove = () => {
    rmSync(parent, { recursive: true, force: true })
    rmSync(plainDist, { recursive: true, force: true })
    rmSync(packDir, { recursive: true, force: true })
  }
  return { packed, app, plainDist, remove }
}

/** The cache entry of this tarball's content, made now unless it exists or another process makes it. */
async function cachedEntry(tarball: string): Promise<string> {
  const hash = createHash('sha256').update(readFileSync(tarball)).digest('hex').slice(0, 16)
  const entry = join(CACHE, hash)
  const lock = `${entry}.lock`
  mkdirSync(CACHE, { recursive: true })
  const deadline = performance.now() + WAIT_MS
  for (;;) {
    if (existsSync(entry)) return used(entry)
    if (takeLock(lock)) {
      try {
        if (!existsSync(entry)) await makeEntry(tarball, entry)
        pruneOthers(hash)
        return used(entry)
      } finally {
        rmSync(lock, { recursive: true, force: true })
      }
    }
    if (performance.now() > deadline)
      throw new Error(`another process held ${lock} for more than ${WAIT_MS / 60_000} minutes`)
    await new Promise((resolve) => setTimeout(resolve, 500))
  }
}

/** Marks the entry used now: entries unused for a day are pruned. */
function used(entry: string): string {
  const now = new Date()
  utimesSync(entry, now, now)
  return entry
}

/** Takes the lock folder; a lock left by a process that no longer runs is taken over. */
function takeLock(lock: string): boolean {
  try {
    mkdirSync(lock)
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err
    const owner = Number(readFileSafe(join(lock, 'pid')))
    // A lock just made has no pid file yet: it is live.
    if (!owner || alive(owner)) return false
    rmSync(lock, { recursive: true, force: true })
    return takeLock(lock)
  }
  writeFileSync(join(lock, 'pid'), String(process.pid))
  return true
}

const readFileSafe = (file: string) => (existsSync(file) ? readFileSync(file, 'utf8') : '')

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM'
  }
}

/**
 * Makes the entry in a temporary folder beside it, renamed into place when complete, so an entry
 * that exists is whole. The build runs in a copy outside the repo, as a user's app is, so nothing
 * resolves from this repo's node_modules; the installed app itself stays unbuilt.
 */
async function makeEntry(tarball: string, entry: string): Promise<void> {
  const work = `${entry}.tmp-${process.pid}`
  rmSync(work, { recursive: true, force: true })
  mkdirSync(work)
  try {
    await fillEntry(tarball, work)
    renameSync(work, entry)
  } catch (err) {
    rmSync(work, { recursive: true, force: true })
    throw err
  }
}

async function fillEntry(tarball: string, work: string): Promise<void> {
  const ownTarball = join(work, basename(tarball))
  copyFileSync(tarball, ownTarball)
  // Packages already in npm's cache (the repo's own install put most there) are not checked
  // again with the registry: the same packages, without a round trip for each.
  const npmEnv = { npm_config_prefer_offline: 'true' }
  const app = await velaNew(work, APP_NAME, ownTarball, npmEnv)
  await installTarball(app, ownTarball, npmEnv)
  const buildDir = mkdtempSync(join(tmpdir(), 'vela-newapp-build-'))
  try {
    const copy = join(buildDir, APP_NAME)
    copyApp(app, copy)
    await npx(copy, 'vite', ['build'])
    cpSync(join(copy, 'dist'), join(work, 'dist'), { recursive: true })
  } finally {
    rmSync(buildDir, { recursive: true, force: true })
  }
}

/**
 * Copies an installed app: its own files for real (tests edit them in place), its node_modules as
 * hard links where the platform allows (`cp -al`, seconds instead of a minute; nothing writes into
 * an installed package's files, and Vite's and vitest's caches are new files in the copy's folders).
 */
export function copyApp(from: string, to: string): void {
  mkdirSync(to, { recursive: true })
  for (const name of readdirSync(from)) {
    if (name !== 'node_modules') cpSync(join(from, name), join(to, name), { recursive: true })
  }
  copyNodeModules(from, to)
}

/**
 * Copies an installed app's node_modules into another app folder, as hard links where the
 * platform allows (see copyApp); nothing when `from` has none.
 *
 * @example
 * copyNodeModules(made.app, join(work, 'my-app')) // then `npm install` there finds everything in place
 */
export function copyNodeModules(from: string, to: string): void {
  if (!existsSync(join(from, 'node_modules'))) return
  if (process.platform === 'linux' && linkCopy(join(from, 'node_modules'), join(to, 'node_modules'))) return
  cpSync(join(from, 'node_modules'), join(to, 'node_modules'), { recursive: true })
}

/** `cp -al`: false when it is not available or fails (another file system). */
function linkCopy(from: string, to: string): boolean {
  try {
    execFileSync('cp', ['-al', from, to], { stdio: 'ignore' })
    return true
  } catch {
    rmSync(to, { recursive: true, force: true })
    return false
  }
}

/** Removes the entries of other tarballs not used for a day (and their leftovers of a killed run). */
function pruneOthers(keep: string): void {
  for (const name of readdirSync(CACHE)) {
    if (name.startsWith(keep) || name.endsWith('.lock')) continue
    const path = join(CACHE, name)
    if (Date.now() - statSync(path).mtimeMs > STALE_MS) rmSync(path, { recursive: true, force: true })
  }
}
