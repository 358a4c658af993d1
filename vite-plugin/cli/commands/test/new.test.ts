// `vela new <dir>`: the files written and what they say, the migration being the generator's own
// output, refusals (a folder in use: exit 1) and usage errors (exit 2), nothing written by either.
// new-app.test.ts runs the generated app.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, describe, expect, it } from 'vitest'
import { generateMigration } from '../../../../dbl/migrations/generate.ts'
import { Note } from '../../../template/src/schemas/note.ts'
import { usageText } from '../args.ts'
import { newCommand } from '../new.ts'
import { runMain } from './run-cli.ts'

const REPO = fileURLToPath(new URL('../../../../', import.meta.url))
const TEMPLATE = join(REPO, 'vite-plugin/template')
const velaVersion = (JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8')) as { version: string }).version

const temp = mkdtempSync(join(tmpdir(), 'vela-new-'))
afterAll(() => rmSync(temp, { recursive: true, force: true }))
let n = 0
/** A path under the temp folder that does not exist yet, ending in `name`. */
const fresh = (name: string) => join(temp, String(n++), name)

const NEW_USAGE = usageText(newCommand)
/** A path as the CLI prints it: relative to the working directory when under it, else absolute. */
const shown = (file: string) => {
  const rel = relative(process.cwd(), file)
  return rel && !rel.startsWith('..') ? rel : file
}

/** `vela new …` in-process, each stream without its final newline. */
async function vela(args: string[]) {
  const { code, stdout, stderr } = await runMain(['new', ...args])
  return { code, stdout: stdout.replace(/\n$/, ''), stderr: stderr.replace(/\n$/, '') }
}

/** Every file under `dir`, relative, sorted. */
const filesIn = (dir: string): string[] =>
  readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => relative(dir, join(e.parentPath, e.name)))
    .sort()

const read = (dir: string, file: string) => readFileSync(join(dir, file), 'utf8')

describe('a new app', () => {
  const before = Date.now()
  const dir = fresh('notes-app')
  const created = vela([dir])

  it('writes the starter files, one "Generated" line each, then the next steps', async () => {
    const { code, stdout, stderr } = await created
    expect(stderr).toBe('')
    expect(code).toBe(0)
    const files = filesIn(dir)
    const migration = files.find((f) => f.startsWith('src/migrations/'))
    expect(migration).toMatch(/^src\/migrations\/m\d{14}_create_notes\.ts$/)
    expect(files).toEqual(
      [
        '.gitignore',
        '.node-version',
        'README.md',
        'package.json',
        'tsconfig.json',
        'vite.config.ts',
        'src/app.ts',
        'src/repo.ts',
        'src/schemas/note.ts',
        migration,
        'src/routes/notes.ts',
        'src/controllers/notes_controller.ts',
        'src/views/notes.liquid',
        'priv/schemas/note.json',
        'priv/schemas/note_page.json',
        'priv/static/app.css',
        'test/notes.test.ts',
      ].sort(),
    )
    const lines = stdout.split('\n')
    expect(
      lines
        .slice(0, files.length)
        .map((l) => l.replace(/^Generated /, ''))
        .sort(),
    ).toEqual(files.map((f) => shown(join(dir, f))).sort())
    expect(lines.slice(files.length)).toEqual(['', 'Next:', `  cd ${shown(dir)}`, '  npm install', '  npm run dev'])
  })

  it('package.json: named after the folder, private ESM, the scripts, vela at this version, the toolchain', async () => {
    await created
    expect(JSON.parse(read(dir, 'package.json'))).toEqual({
      name: 'notes-app',
      version: '0.1.0',
      private: true,
      type: 'module',
      engines: { node: '^22.15.0 || ^24.0.0 || >=26.0.0' },
      scripts: {
        dev: 'vite',
        build: 'vite build',
        start: 'node dist/server/index.mjs',
        test: 'vitest run',
        typecheck: 'vela types && tsc --noEmit',
      },
      dependencies: { vela: `^${velaVersion}` },
      devDependencies: {
        '@types/node': expect.stringMatching(/^\^22\./),
        typescript: expect.stringMatching(/^\^5\./),
        vite: '^8.3.8',
        vitest: '^5.1.2',
      },
    })
  })

  it('typescript: a 5.x range from 5.9, which tools that peer on typescript@^5 install beside', async () => {
    await created
    // openapi-typescript (peer `^5.x`) and typescript-eslint (peer `>=4.8.4 <6.1.0`): npm refuses
    // to install them next to a TypeScript outside that range.
    const range = (JSON.parse(read(dir, 'package.json')) as { devDependencies: Record<string, string> }).devDependencies
      .typescript!
    const [, major, minor] = /^\^(\d+)\.(\d+)\.\d+$/.exec(range) ?? []
    expect({ range, major: Number(major), fromMinor9: Number(minor) >= 9 }).toEqual({
      range,
      major: 5,
      fromMinor9: true,
    })
  })

  it('tsconfig.json, vite.config.ts, .gitignore, .node-version, and the app named in app.ts and the README', async () => {
    await created
    const { compilerOptions, include } = JSON.parse(read(dir, 'tsconfig.json')) as {
      compilerOptions: Record<string, unknown>
      include: string[]
    }
    expect(compilerOptions).toMatchObject({
      strict: true,
      moduleResolution: 'bundler',
      allowImportingTsExtensions: true,
      noEmit: true,
      skipLibCheck: true,
      types: ['node', 'vela/client'],
    })
    expect(include).toEqual(['src', 'test', 'vite.config.ts', '.vela/routes.d.ts'])
    expect(read(dir, 'vite.config.ts')).toContain("import vela from 'vela/vite'")
    expect(read(dir, 'vite.config.ts')).toContain('export default defineConfig({ plugins: [vela()] })')
    // vitest's `test` block type-checks in it (the testing guide sets `test.env` there).
    expect(read(dir, 'vite.config.ts')).toMatch(/^\/\/\/ <reference types="vitest\/config" \/>\n/)
    expect(read(dir, '.gitignore').split('\n')).toEqual([
      'node_modules/',
      'dist/',
      '.data/',
      '# written by vite build / vela openapi from priv/schemas',
      'priv/assets/',
      "# route types for vela/client, and the inspection commands' cache (vela routes, plugins, audit, config)",
      '.vela/',
      '',
    ])
    expect(read(dir, '.node-version')).toBe('24\n')
    expect(read(dir, 'src/app.ts')).toContain("bootstrapApplication: 'notes-app',")
    expect(read(dir, 'README.md').split('\n')[0]).toBe('# notes-app')
    expect(read(dir, 'README.md')).toContain('npm install && npm run dev')
    // Every other file is the template's, as it is.
    for (const file of [
      'src/repo.ts',
      'src/routes/notes.ts',
      'src/controllers/notes_controller.ts',
      'src/views/notes.liquid',
      'priv/static/app.css',
      'test/notes.test.ts',
    ]) {
      expect(read(dir, file), file).toBe(read(TEMPLATE, file))
    }
  })

  it('the migration is what `vela migrations generate` writes for the schema, named for the time it was created', async () => {
    await created
    const migration = filesIn(dir).find((f) => f.startsWith('src/migrations/'))!
    const stamp = /m(\d{14})_/.exec(migration)![1]!
    const asDate = Date.UTC(
      +stamp.slice(0, 4),
      +stamp.slice(4, 6) - 1,
      +stamp.slice(6, 8),
      +stamp.slice(8, 10),
      +stamp.slice(10, 12),
      +stamp.slice(12, 14),
    )
    expect(asDate).toBeGreaterThanOrEqual(Math.floor(before / 1000) * 1000)
    expect(asDate).toBeLessThanOrEqual(Date.now())

    expect(read(dir, 'src/schemas/note.ts')).toBe(read(TEMPLATE, 'src/schemas/note.ts'))
    const generated = await generateMigration({ schemas: [Note], migrationsDir: join(temp, 'generated') })
    expect(generated.name).toBe('create_notes')
    expect(read(dir, migration)).toBe(readFileSync(generated.written!, 'utf8'))
  })
})

describe('names', () => {
  it('--name names the package and the app', async () => {
    const dir = fresh('whatever')
    expect((await vela([dir, '--name', '@me/notes'])).code).toBe(0)
    expect(JSON.parse(read(dir, 'package.json')).name).toBe('@me/notes')
    expect(read(dir, 'src/app.ts')).toContain("bootstrapApplication: '@me/notes',")
  })

  it('a folder name is made a package name: lowercase, other characters as dashes', async () => {
    const dir = fresh('My Notes!')
    expect((await vela([dir])).code).toBe(0)
    expect(JSON.parse(read(dir, 'package.json')).name).toBe('my-notes')
  })
})

describe('refusals: exit 1, nothing written', () => {
  it('an empty folder is used; a folder with anything in it is refused', async () => {
    const empty = fresh('empty')
    mkdirSync(empty, { recursive: true })
    expect((await vela([empty])).code).toBe(0)

    const used = fresh('used')
    mkdirSync(used, { recursive: true })
    writeFileSync(join(used, 'notes.txt'), 'mine')
    const res = await vela([used])
    expect(res).toEqual({
      code: 1,
      stdout: '',
      stderr: `vela new: ${shown(used)} is not empty (1 entry); use a new or empty folder; nothing was written`,
    })
    expect(filesIn(used)).toEqual(['notes.txt'])
    expect(read(used, 'notes.txt')).toBe('mine')
  })

  it('a file in the way is refused', async () => {
    const file = fresh('taken')
    mkdirSync(join(file, '..'), { recursive: true })
    writeFileSync(file, '')
    expect(await vela([file])).toEqual({
      code: 1,
      stdout: '',
      stderr: `vela new: ${shown(file)} exists and is not a folder; nothing was written`,
    })
  })
})

describe('usage: exit 2 with the usage line, no folder made', () => {
  const usageError = async (args: string[], message: string | RegExp) => {
    const res = await vela(args)
    expect(res.code).toBe(2)
    expect(res.stdout).toBe('')
    const [first, blank, ...usage] = res.stderr.split('\n')
    expect(first).toMatch(message)
    expect([blank, ...usage]).toEqual(['', ...NEW_USAGE.split('\n')])
    for (const arg of args) if (arg.startsWith(temp)) expect(existsSync(arg), arg).toBe(false)
  }

  it('a missing folder, two folders, an unknown flag, --name without a value', async () => {
    await usageError([], 'vela new: <dir> is required')
    await usageError([fresh('a'), fresh('b')], /^vela new: unexpected argument "/)
    await usageError([fresh('a'), '--force'], 'vela new: unknown option --force')
    await usageError([fresh('a'), '--name'], 'vela new: --name needs a value: --name <app>')
  })

  it('a name that is not a package name, or is one of the app’s dependencies', async () => {
    await usageError(
      [fresh('a'), '--name', 'My App'],
      'vela new: --name "My App" is not a valid package name (lowercase letters, digits, - . _ ~, an optional @scope/)',
    )
    await usageError(
      [fresh('vela')],
      'vela new: the app cannot be named "vela": it depends on a package of that name; add --name <app>',
    )
    await usageError([fresh('a'), '--name', 'vite'], /the app cannot be named "vite"/)
    await usageError(
      [fresh('!!!')],
      'vela new: no package name can be made from the folder name "!!!": add --name <app>',
    )
  })

  it('--help prints the usage and exits 0', async () => {
    expect(await vela(['--help'])).toEqual({ code: 0, stdout: NEW_USAGE, stderr: '' })
  })
})
