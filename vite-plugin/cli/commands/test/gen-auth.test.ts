// `vela gen auth`: the files it writes (every file of its parts, as in the template folder), the
// next steps it prints, and its refusals (a target that exists, an app without src/repo.ts), run
// through the CLI's `main` in-process. The generated app itself is type-checked, migrated and
// tested in test/new-app-auth.test.ts.
import { cpSync, existsSync, readFileSync, readdirSync } from 'node:fs'
import { join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { NEXT_STEPS, authFiles } from '../gen-auth/command.ts'
import { AUTH_PARTS, CORE_PART } from '../gen-auth/parts.ts'
import { runMain, useTempApps } from './run-cli.ts'

const TEMPLATE = fileURLToPath(new URL('../gen-auth/template/', import.meta.url))
const REPO_TS = "import { defineRepo } from 'vela/dbl'\nexport const repo = defineRepo({})\n"
const tempApp = useTempApps()

/** Every file under `dir`, relative to it. */
const filesUnder = (dir: string): string[] =>
  readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => relative(dir, join(e.parentPath, e.name)))
    .sort()

describe('vela gen auth', () => {
  it('lists every file of each part folder, and only those', () => {
    for (const part of AUTH_PARTS) expect([...part.files].sort()).toEqual(filesUnder(join(TEMPLATE, part.name)))
  })

  it('writes every file of the template into the app, prints each and the next steps', async () => {
    const dir = tempApp({ 'src/repo.ts': REPO_TS })
    const { code, stdout, stderr } = await runMain(['gen', 'auth'], dir)
    expect(stderr).toBe('')
    expect(code).toBe(0)
    expect(filesUnder(dir)).toEqual([...CORE_PART.files, 'src/repo.ts'].sort())
    for (const path of CORE_PART.files)
      expect(readFileSync(join(dir, path), 'utf8'), path).toBe(readFileSync(join(TEMPLATE, 'core', path), 'utf8'))
    expect(stdout).toBe(`${CORE_PART.files.map((p) => `Generated ${p}`).join('\n')}\n\n${NEXT_STEPS}\n`)
    expect(stdout).toContain('npx vela migrations generate')
    expect(stdout).toContain('npx vela migrate')
  })

  it('answers to gen_auth too, and to --root', async () => {
    const dir = tempApp({ 'src/repo.ts': REPO_TS })
    const { code, stdout } = await runMain(['gen_auth', '--root', dir])
    expect(code).toBe(0)
    expect(stdout).toMatch(/^Generated .*src\/schemas\/user\.ts$/m)
    expect(existsSync(join(dir, 'src/routes/auth.ts'))).toBe(true)
  })

  it('refuses when a file it would write exists: names it, writes nothing, leaves it as it was', async () => {
    const dir = tempApp({ 'src/repo.ts': REPO_TS, 'src/schemas/user.ts': '// mine\n' })
    const { code, stdout, stderr } = await runMain(['gen', 'auth'], dir)
    expect(code).toBe(1)
    expect(stdout).toBe('')
    expect(stderr).toBe(
      'vela gen auth: src/schemas/user.ts already exists; nothing was written (remove or rename it to generate again)\n',
    )
    expect(filesUnder(dir)).toEqual(['src/repo.ts', 'src/schemas/user.ts'])
    expect(readFileSync(join(dir, 'src/schemas/user.ts'), 'utf8')).toBe('// mine\n')
  })

  it('names every file that exists', async () => {
    const dir = tempApp({ 'src/repo.ts': REPO_TS, 'src/routes/auth.ts': '', 'test/auth/browser.ts': '' })
    const { code, stderr } = await runMain(['gen', 'auth'], dir)
    expect(code).toBe(1)
    expect(stderr).toBe(
      'vela gen auth: these files already exist: src/routes/auth.ts, test/auth/browser.ts; nothing was written (remove or rename them to generate again)\n',
    )
    expect(filesUnder(dir)).toEqual(['src/repo.ts', 'src/routes/auth.ts', 'test/auth/browser.ts'])
  })

  it('refuses an app without src/repo.ts, which the generated code imports', async () => {
    const dir = tempApp({ 'package.json': '{}' })
    const { code, stderr } = await runMain(['gen', 'auth'], dir)
    expect(code).toBe(1)
    expect(stderr).toMatch(/^vela gen auth: src\/repo\.ts not found: the generated code imports `repo` from it/)
    expect(filesUnder(dir)).toEqual(['package.json'])
  })

  it('takes no arguments; `vela gen` alone names the subcommand', async () => {
    const dir = tempApp({ 'src/repo.ts': REPO_TS })
    const extra = await runMain(['gen', 'auth', 'passkeys'], dir)
    expect(extra.code).toBe(2)
    expect(filesUnder(dir)).toEqual(['src/repo.ts'])
    const bare = await runMain(['gen'], dir)
    expect(bare.code).toBe(2)
    expect(bare.stderr).toContain('vela gen: needs a subcommand')
    expect(bare.stderr).toContain('vela gen auth')
  })

  it('a later part adds files and replaces a core file of the same path (the seam for passkeys)', async () => {
    const methods = 'src/views/users/log_in_methods.liquid'
    const templates = tempApp({
      [`passkeys/${methods}`]: '<button>passkey</button>',
      'passkeys/priv/static/passkeys.js': '',
    })
    cpSync(join(TEMPLATE, 'core'), join(templates, 'core'), { recursive: true })
    const passkeys = { name: 'passkeys', files: [methods, 'priv/static/passkeys.js'] }
    const files = await authFiles([CORE_PART, passkeys], templates)
    expect(files.map((f) => f.path)).toEqual([...CORE_PART.files, 'priv/static/passkeys.js'])
    expect(files.find((f) => f.path === methods)?.text).toBe('<button>passkey</button>')
  })
})
