/**
 * The tutorial (docs/getting-started.md) followed as a reader follows it, so it cannot rot: in a
 * temporary folder holding the packed package, its blocks in order (support/tutorial-blocks.ts says
 * what each kind does), each step one test. Every file it shows is written, every command run
 * (`vela new` from the tarball, the dev server, curl, the generator and migrator, `vela gen auth`,
 * the app's own tests, type check and build, the built server), and every output it shows is
 * compared with what the command printed. The build's step runs on PostgreSQL: without it the step
 * skips with a message (a failure under CI), and the steps after it run.
 *
 * Time: the tarball and the installed starter are the ones the new-app suites share
 * (support/new-app-cache.ts): `npm install ../vela-0.1.0.tgz` runs for real, but over their
 * node_modules, so npm finds everything in place instead of installing ~250 packages again.
 */
import {
  appendFileSync,
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs'
import { tmpdir } from 'node:os'
import { basename, dirname, join, relative, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import type { NewApp } from './support/new-app-cache.ts'
import { copyNodeModules, newApp } from './support/new-app-cache.ts'
import { freshPostgresDatabase, serviceAvailable } from './support/services.ts'
import type { Block } from './support/tutorial-blocks.ts'
import { missingLines, tutorialSteps } from './support/tutorial-blocks.ts'
import type { BackgroundServer } from './support/tutorial-shell.ts'
import { runLine, startServer } from './support/tutorial-shell.ts'

const PAGE = fileURLToPath(new URL('../docs/getting-started.md', import.meta.url))
/** The database the page names; the test gives each run a fresh one on the same server instead. */
const PAGE_DATABASE = 'postgres://postgres@127.0.0.1:5432/test'
/** Where the page says the app answers; the servers here run on ports of the system's choosing. */
const PAGE_PORT = ':8080'
/** How long the dev server may take to load files the page just wrote. */
const RELOAD_MS = 60_000

const steps = tutorialSteps(readFileSync(PAGE, 'utf8'))
const hasPostgres = await serviceAvailable('postgres')

let made: NewApp
let work: string
let cwd: string
let server: BackgroundServer | undefined
/** What the last command block printed, for the output block after it. */
let printed = ''
/** Files under src/ written while the dev server runs, and where its output stood then. */
let pending: { files: string[]; from: number } | undefined
let database: { url: string; drop(): Promise<void> } | undefined
/** The step that failed: the steps after it build on it, so they are skipped. */
let broken: string | undefined

beforeAll(async () => {
  made = await newApp('vela-tutorial-')
  work = mkdtempSync(join(tmpdir(), 'vela-tutorial-'))
  copyFileSync(made.packed.tarball, join(work, basename(made.packed.tarball)))
  cwd = work
}, 900_000)

afterAll(async () => {
  await server?.stop()
  await database?.drop()
  made?.remove()
  if (work) rmSync(work, { recursive: true, force: true })
})

test('the page is a tutorial: numbered steps, each with code or commands, and the setup packs this version', () => {
  const numbered = steps.filter((s) => /^\d+\. /.test(s.title))
  expect(numbered.map((s) => Number.parseInt(s.title, 10))).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8])
  const kinds = (step: (typeof steps)[number]) => step.blocks.map((b) => b.action.kind)
  for (const step of numbered.slice(1))
    expect(
      kinds(step).filter((k) => k === 'run' || k === 'server'),
      step.title,
    ).not.toEqual([])
  // Every step but the build (7) writes code.
  for (const step of numbered.slice(1).filter((s) => !s.title.startsWith('7.')))
    expect(
      kinds(step).filter((k) => k === 'file' || k === 'append'),
      step.title,
    ).not.toEqual([])
  // The reader's tarball is the one `npm pack` writes for this version.
  const setup = steps.flatMap((s) => s.blocks).find((b) => b.action.kind === 'setup')
  expect(setup?.action.kind === 'setup' && setup.action.code).toContain('npm pack')
  const commands = steps.flatMap((s) => s.blocks.flatMap((b) => (b.action.kind === 'run' ? b.action.commands : [])))
  expect(commands.some((c) => c.includes(`./${basename(made.packed.tarball)}`))).toBe(true)
})

describe('following the tutorial from the packed package', { timeout: 600_000 }, () => {
  for (const step of steps.filter((s) => s.blocks.length > 0)) {
    test(step.title, async (ctx) => {
      if (broken) ctx.skip(`step "${broken}" failed`)
      let skipped = false
      try {
        for (const block of step.blocks) {
          if (needsPostgres(block) && !hasPostgres) {
            skipped = true
            ctx.skip('PostgreSQL is not reachable')
          }
          await perform(block)
        }
      } catch (err) {
        if (!skipped) broken = step.title
        throw err
      }
    })
  }
})

const needsPostgres = (block: Block) => JSON.stringify(block.action).includes(PAGE_DATABASE)

async function perform(block: Block): Promise<void> {
  const where = `${relative(process.cwd(), PAGE)}:${block.line}`
  if (block.stop) await stopServer()
  const { action } = block
  switch (action.kind) {
    case 'setup':
      return // the test packed this repository itself (beforeAll)
    case 'file':
    case 'append': {
      const file = inside(action.path)
      mkdirSync(dirname(file), { recursive: true })
      if (action.kind === 'file') writeFileSync(file, `${action.code}\n`)
      else appendFileSync(file, `\n${action.code}\n`)
      if (server && action.path.startsWith('src/'))
        pending = { files: [...(pending?.files ?? []), action.path], from: pending?.from ?? server.output().length }
      return
    }
    case 'generated': {
      const dir = inside(dirname(action.pattern))
      const name = new RegExp(
        `^${basename(action.pattern)
          .replace(/[.+?^${}()|[\]\\]/g, '\\$&')
          .replaceAll('*', '.*')}$`,
      )
      const found = readdirSync(dir).filter((f) => name.test(f))
      expect(found, `${where}: files matching ${action.pattern}`).toHaveLength(1)
      const content = readFileSync(join(dir, found[0]!), 'utf8')
      expect(content.trimEnd(), `${where}: ${action.pattern} as the page shows it`).toBe(action.code.trimEnd())
      return
    }
    case 'run': {
      await reloaded()
      const outputs: string[] = []
      for (const command of action.commands) outputs.push(await run(command, where))
      printed = outputs.join('\n')
      return
    }
    case 'server': {
      await stopServer()
      server = await startServer(cwd, await withDatabase(action.command), npmEnv)
      printed = server.output()
      return
    }
    case 'output': {
      const expected = server ? action.text.replaceAll(PAGE_PORT, `:${server.port}`) : action.text
      expect(
        missingLines(expected, printed),
        `${where}: lines the page shows that the command did not print:\n${printed}`,
      ).toEqual([])
    }
  }
}

/** npm as the shared install ran it: packages in npm's cache are not checked again with the registry. */
const npmEnv = { npm_config_prefer_offline: 'true', npm_config_fund: 'false', npm_config_audit: 'false' }

async function run(command: string, where: string): Promise<string> {
  const cd = /^cd\s+(\S+)$/.exec(command)
  if (cd) {
    cwd = inside(cd[1]!)
    expect(existsSync(cwd), `${where}: ${command}`).toBe(true)
    return ''
  }
  expect(command, `${where}: \`cd\` goes on a line of its own (the test follows it)`).not.toMatch(/(^|[;&|]\s*)cd\s/)
  if (
    /^npm install\b/.test(command) &&
    existsSync(join(cwd, 'package.json')) &&
    !existsSync(join(cwd, 'node_modules'))
  ) {
    // The shared install of the same tarball, laid out as this app's (`../vela-0.1.0.tgz` beside it).
    copyNodeModules(made.app, cwd)
    copyFileSync(join(made.app, 'package-lock.json'), join(cwd, 'package-lock.json'))
  }
  let line = await withDatabase(command)
  if (line.includes(PAGE_PORT)) {
    expect(server, `${where}: \`${command}\` needs a running server`).toBeDefined()
    line = line.replaceAll(PAGE_PORT, `:${server!.port}`)
  }
  return runLine(cwd, line, npmEnv)
}

/** The command with the page's database replaced by a fresh one (made at its first use). */
async function withDatabase(command: string): Promise<string> {
  if (!command.includes(PAGE_DATABASE)) return command
  database ??= await freshPostgresDatabase('vela_tutorial')
  return command.replaceAll(PAGE_DATABASE, database.url)
}

/** Waits until the dev server has loaded the files written since the last command (it logs each reload). */
async function reloaded(): Promise<void> {
  if (!server || !pending) return
  const { files, from } = pending
  pending = undefined
  const last = files.at(-1)!
  const deadline = performance.now() + RELOAD_MS
  for (;;) {
    const since = server.output().slice(from)
    // A failed load is not fatal here: the watcher may see a file while it is being written, and
    // the next swap loads it whole; a file that cannot load never gets its reload line.
    if (since.split('\n').some((l) => /app (reloaded|restarted)/.test(l) && l.includes(last))) return
    if (performance.now() > deadline)
      throw new Error(`the dev server did not reload ${files.join(', ')} within ${RELOAD_MS} ms:\n${since}`)
    await new Promise((r) => setTimeout(r, 50))
  }
}

async function stopServer(): Promise<void> {
  await server?.stop()
  server = undefined
  pending = undefined
}

/** A path of the page resolved in the current folder, refused if it leaves the test's folder. */
function inside(path: string): string {
  const full = resolve(cwd, path)
  if (relative(work, full).startsWith('..')) throw new Error(`${path} leaves the tutorial's folder`)
  return full
}
