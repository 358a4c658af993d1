// `vela gen auth --passkeys`: core's files and the passkeys part's (two of them replacing core's
// login-methods partial and settings page), @simplewebauthn/server added to the app's
// package.json, and the refusals: no package.json, one that is not JSON. The generated app is
// type-checked, tested and driven in Chromium by test/auth-browser.test.ts.
import { readFileSync, readdirSync } from 'node:fs'
import { join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { NEXT_STEPS } from '../gen-auth/command.ts'
import { CORE_PART, PASSKEYS_PART } from '../gen-auth/parts.ts'
import { runMain, useTempApps } from './run-cli.ts'

const TEMPLATE = fileURLToPath(new URL('../gen-auth/template/', import.meta.url))
const REPO_TS = "import { defineRepo } from 'vela/dbl'\nexport const repo = defineRepo({})\n"
const PACKAGE_JSON = `{
    "name": "shop",
    "private": true,
    "dependencies": {
        "vela": "^0.1.0",
        "zod": "^4.0.0"
    },
    "devDependencies": {
        "vite": "^8.4.1"
    }
}
`
const tempApp = useTempApps()

const filesUnder = (dir: string): string[] =>
  readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => relative(dir, join(e.parentPath, e.name)))
    .sort()
const template = (part: string, path: string) => readFileSync(join(TEMPLATE, part, path), 'utf8')
const REPLACED = ['src/views/users/log_in_methods.liquid', 'src/views/users/settings.liquid']

describe('vela gen auth --passkeys', () => {
  it('lists every file of the passkeys folder, and only those', () => {
    expect([...PASSKEYS_PART.files].sort()).toEqual(filesUnder(join(TEMPLATE, 'passkeys')))
  })

  it('adds the @simplewebauthn/server range this repo tests with (its devDependency)', () => {
    const repo = JSON.parse(readFileSync(new URL('../../../../package.json', import.meta.url), 'utf8')) as {
      devDependencies: Record<string, string>
    }
    expect(PASSKEYS_PART.dependencies).toEqual({
      '@simplewebauthn/server': repo.devDependencies['@simplewebauthn/server'],
    })
  })

  it("the passkeys settings page is core's with the Passkeys section before the logout", () => {
    // A change to core's page must be made to this copy too: this fails until it is.
    const core = template('core', 'src/views/users/settings.liquid')
    const section =
      '<h2>Passkeys</h2>\n<p><a href="/users/settings/passkeys">Your passkeys</a>: log in with this device\'s screen lock or a security key.</p>\n'
    expect(template('passkeys', 'src/views/users/settings.liquid')).toBe(
      core.replace('<h2>Log out</h2>', `${section}<h2>Log out</h2>`),
    )
  })

  it("writes core's files and the part's, adds @simplewebauthn/server to package.json, says to npm install", async () => {
    const dir = tempApp({ 'src/repo.ts': REPO_TS, 'package.json': PACKAGE_JSON })
    const { code, stdout, stderr } = await runMain(['gen', 'auth', '--passkeys'], dir)
    expect(stderr).toBe('')
    expect(code).toBe(0)
    const written = [...new Set([...CORE_PART.files, ...PASSKEYS_PART.files])]
    expect(filesUnder(dir)).toEqual([...written, 'package.json', 'src/repo.ts'].sort())
    for (const path of PASSKEYS_PART.files)
      expect(readFileSync(join(dir, path), 'utf8'), path).toBe(template('passkeys', path))
    for (const path of CORE_PART.files.filter((p) => !REPLACED.includes(p)))
      expect(readFileSync(join(dir, path), 'utf8'), path).toBe(template('core', path))

    // Sorted in, the app's indentation and other keys kept.
    expect(readFileSync(join(dir, 'package.json'), 'utf8')).toBe(
      PACKAGE_JSON.replace('"dependencies": {\n', '"dependencies": {\n        "@simplewebauthn/server": "^14.1.0",\n'),
    )
    expect(stdout).toContain('Generated src/routes/auth_passkeys.ts\n')
    expect(stdout).toContain('Added @simplewebauthn/server@^14.1.0 to package.json: run npm install\n')
    expect(stdout).toContain(NEXT_STEPS)
    expect(stdout).toContain('Passkeys are bound to the host name of APP_URL')
  })

  it('keeps the range of an app that lists @simplewebauthn/server already', async () => {
    const pkg = '{ "devDependencies": { "@simplewebauthn/server": "14.0.0" } }\n'
    const dir = tempApp({ 'src/repo.ts': REPO_TS, 'package.json': pkg })
    const { code, stdout } = await runMain(['gen', 'auth', '--passkeys'], dir)
    expect(code).toBe(0)
    expect(readFileSync(join(dir, 'package.json'), 'utf8')).toBe(pkg)
    expect(stdout).not.toContain('Added ')
  })

  it('refuses an app without package.json, or with one that is not JSON: nothing is written', async () => {
    const bare = tempApp({ 'src/repo.ts': REPO_TS })
    const missing = await runMain(['gen', 'auth', '--passkeys'], bare)
    expect(missing.code).toBe(1)
    expect(missing.stderr).toBe(
      'vela gen auth: package.json not found: passkeys add @simplewebauthn/server to it; nothing was written\n',
    )
    expect(filesUnder(bare)).toEqual(['src/repo.ts'])

    const broken = tempApp({ 'src/repo.ts': REPO_TS, 'package.json': '{ "name": ' })
    const invalid = await runMain(['gen', 'auth', '--passkeys'], broken)
    expect(invalid.code).toBe(1)
    expect(invalid.stderr).toMatch(/^vela gen auth: package\.json is not a JSON object \(.+\); nothing was written\n$/)
    expect(filesUnder(broken)).toEqual(['package.json', 'src/repo.ts'])
  })
})
