/**
 * A new embedded database starts from a copy of an empty one instead of running initdb. On an
 * empty data folder (or in memory) `PGlite.create` runs initdb in a second WebAssembly instance:
 * about 5.5 s of CPU (3.9 s of wall time) on a quiet 2-core machine, where starting from a tarball
 * of an empty database (PGlite's `loadDataDir`) takes about 2 s of CPU (1.6 s); most of that is
 * PostgreSQL's own start in WebAssembly, which every new instance pays. The tarball is the first
 * new database of a PGlite version, dumped right after it started (`dumpDataDir`, before any query
 * of the caller), and is kept in a file in the user's temporary folder: each test file of an app
 * (its own in-memory database), and the next new app's `.data/pglite`, then start from it. A
 * tarball this PGlite cannot start from (cut short, made by another build) is removed and the
 * database made as before.
 *
 * A new database in a folder starts from a copy of a second template, a folder holding the empty
 * database as PostgreSQL left it when shut down (beside the tarball, `….dir`), copied by the file
 * system: loading the tarball goes file by file through PGlite's file system layer, about 1 s of
 * CPU and 100 MB more per new database (`vela migrate` on a new app). That folder is made the first
 * time a database is made in a folder, from the tarball (or initdb), under a temporary name then
 * renamed, so no process sees it half made; a copy PGlite cannot start from is removed and the
 * database made from the tarball.
 */
import {
  cpSync,
  existsSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import type { PGlite, PGliteOptions } from '@electric-sql/pglite'

/** The template file for the installed PGlite; undefined when there is no safe place for it. */
export function templateFile(): string | undefined {
  const version = pgliteVersion()
  const dir = privateTempDir()
  return version && dir ? join(dir, `pglite-${version}-empty.tgz`) : undefined
}

type PGliteClass = typeof PGlite

/**
 * `PGlite.create(dataDir, options)`, from a template when the database is new (in memory, or an
 * empty or missing folder); a folder holding anything is left to PGlite as it is. `file`: the
 * template tarball (`templateFile()`; undefined = no template); the template folder is beside it.
 */
export async function openPglite(
  dataDir: string | undefined,
  options: PGliteOptions,
  file: string | undefined = templateFile(),
): Promise<PGlite> {
  // Imported here, not with the module: importing `vela/dbl` (an app's modules) does not load PGlite.
  const { PGlite } = await import('@electric-sql/pglite')
  if (!file || (dataDir !== undefined && !isEmptyOrMissing(dataDir))) return PGlite.create(dataDir, options)
  const folder = dataDir === undefined ? undefined : await templateFolder(PGlite, file)
  if (dataDir !== undefined && folder) {
    try {
      cpSync(folder, dataDir, { recursive: true })
      return await PGlite.create(dataDir, options)
    } catch {
      rmSync(folder, { recursive: true, force: true })
      clear(dataDir)
    }
  }
  return fromTarball(PGlite, dataDir, options, file)
}

/** A new database from the tarball `file`, or made with initdb (which writes the tarball) when there is none PGlite can start from. */
async function fromTarball(
  PGlite: PGliteClass,
  dataDir: string | undefined,
  options: PGliteOptions,
  file: string,
): Promise<PGlite> {
  const template = readTemplate(file)
  if (template) {
    try {
      return await PGlite.create(dataDir, { ...options, loadDataDir: template })
    } catch {
      forget(file)
      // The folder was empty before: what the failed load left there goes, so initdb finds it empty.
      if (dataDir !== undefined) clear(dataDir)
    }
  }
  const db = await PGlite.create(dataDir, options)
  await saveTemplate(db, file)
  return db
}

/** The template folder beside `file`, made the first time from the tarball; undefined when it cannot be made. */
async function templateFolder(PGlite: PGliteClass, file: string): Promise<string | undefined> {
  const folder = `${file.replace(/\.tgz$/, '')}.dir`
  if (existsSync(folder)) return folder
  const partial = `${folder}.${process.pid}.${Date.now()}.partial`
  try {
    // Shut down cleanly, so a copy starts as the database it was (no recovery to run).
    await (await fromTarball(PGlite, partial, {}, file)).close()
    renameSync(partial, folder)
  } catch {
    // Another process made it meanwhile, or it could not be made: the database comes from the tarball.
    rmSync(partial, { recursive: true, force: true })
  }
  return existsSync(folder) ? folder : undefined
}

function clear(dir: string): void {
  if (!existsSync(dir)) return
  for (const entry of readdirSync(dir)) rmSync(join(dir, entry), { recursive: true, force: true })
}

// One read per process: an app's repos, and a test file's databases, share it.
const loaded = new Map<string, Blob>()

function readTemplate(file: string): Blob | undefined {
  let blob = loaded.get(file)
  if (!blob && existsSync(file)) {
    try {
      blob = new Blob([readFileSync(file)])
      loaded.set(file, blob)
    } catch {
      return undefined
    }
  }
  return blob
}

function forget(file: string): void {
  loaded.delete(file)
  rmSync(file, { force: true })
}

async function saveTemplate(db: PGlite, file: string): Promise<void> {
  try {
    // Called before the caller's first query, so the dump is of the empty database.
    const bytes = new Uint8Array(await (await db.dumpDataDir('gzip')).arrayBuffer())
    // Written under another name, then renamed: a process reading it never sees half a file.
    const partial = `${file}.${process.pid}.${Date.now()}.partial`
    writeFileSync(partial, bytes, { mode: 0o600 })
    renameSync(partial, file)
  } catch {
    // Without a template the next database is made with initdb, as this one was.
  }
}

function isEmptyOrMissing(dir: string): boolean {
  try {
    return readdirSync(dir).length === 0
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'ENOENT'
  }
}

function pgliteVersion(): string | undefined {
  try {
    // The package exports no package.json; its entry point is dist/index.cjs beside it.
    const entry = createRequire(import.meta.url).resolve('@electric-sql/pglite')
    return (JSON.parse(readFileSync(join(dirname(entry), '..', 'package.json'), 'utf8')) as { version: string }).version
  } catch {
    return undefined
  }
}

/**
 * `<tmp>/vela-<uid>`, made readable by its owner only: a template is loaded as a database, so it
 * must not be one another user of the machine could have put there. Undefined when the folder
 * is not a directory of this user's with no access for others.
 */
function privateTempDir(): string | undefined {
  const uid = process.getuid?.()
  const dir = join(tmpdir(), uid === undefined ? 'vela' : `vela-${uid}`)
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 })
    const stat = lstatSync(dir)
    if (!stat.isDirectory()) return undefined
    if (uid !== undefined && (stat.uid !== uid || (stat.mode & 0o077) !== 0)) return undefined
    return dir
  } catch {
    return undefined
  }
}
