// `vela routes`, `middleware`, `audit` and `config` answer from `.vela/inspect.json` without
// loading the app while it is unchanged (its files, the environment variables it read), with the
// output a loaded run prints; an edit, a new route file or another value of such a variable makes
// the next run load the app again. The dev server writes the cache too. The app records each time
// its modules are evaluated in `loads.log`, outside src/. (`vela openapi`'s default output is
// here too: it is the other change to the inspection commands.)
import { spawn } from 'node:child_process'
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join, relative } from 'node:path'
import { expect, it } from 'vitest'
import { until } from '../../../../test/support/until.ts'
import { CACHE_FILE } from '../inspect-cache.ts'
import { BIN, runCli, useTempApps } from './run-cli.ts'

const makeApp = useTempApps()
const RUN = 120_000

const APP = `import { appendFileSync } from 'node:fs'
import { defineApp } from 'vela'

appendFileSync(new URL('../loads.log', import.meta.url), 'loaded\\n')

export default defineApp({ bootstrapApplication: process.env.VELA_CACHE_TEST_NAME || 'cached', routes: {} })
`
const route = (path: string) => `import { defineRoutes, json } from 'vela'

export default defineRoutes({ prefix: '', security: false, routes: [['POST ${path}', () => json({ ok: true })]] })
`

const app = () => makeApp({ 'src/app.ts': APP, 'src/routes/main.ts': route('/first') })
const loads = (root: string) =>
  existsSync(join(root, 'loads.log')) ? readFileSync(join(root, 'loads.log'), 'utf8').split('\n').length - 1 : 0
const env = { VELA_CACHE_TEST_NAME: '' }

it(
  'a second run answers from the cache without loading the app, with the same output, for every inspection command',
  async () => {
    const root = app()
    for (const args of [
      ['routes'],
      ['routes', '--json'],
      ['plugins'],
      ['plugins', '--json'],
      ['audit'],
      ['audit', '--json'],
      ['config'],
      ['config', '--json'],
    ]) {
      rmSync(join(root, CACHE_FILE), { force: true })
      const loaded = await runCli([...args, '--root', root], env)
      const before = loads(root)
      expect(existsSync(join(root, CACHE_FILE))).toBe(true)
      const cached = await runCli([...args, '--root', root], env)
      expect(loads(root), args.join(' ')).toBe(before)
      expect(cached, args.join(' ')).toEqual(loaded)
    }
    // The audit's warning (an unsecured POST) gives exit status 1, from the cache too.
    expect((await runCli(['audit', '--root', root], env)).code).toBe(1)
    expect((await runCli(['routes', '--root', root], env)).stdout).toContain('/first')
  },
  20 * RUN,
)

it(
  'an edited or added source file, or another value of a variable the app read, makes the next run load the app',
  async () => {
    const root = app()
    await runCli(['routes', '--root', root], env)
    const first = loads(root)

    writeFileSync(join(root, 'src/routes/main.ts'), route('/edited'))
    const edited = await runCli(['routes', '--root', root], env)
    expect(edited.stdout).toContain('/edited')
    expect(loads(root)).toBe(first + 1)

    writeFileSync(join(root, 'src/routes/more.ts'), route('/added'))
    expect((await runCli(['routes', '--root', root], env)).stdout).toContain('/added')
    expect(loads(root)).toBe(first + 2)

    const renamed = await runCli(['config', '--root', root], { VELA_CACHE_TEST_NAME: 'renamed' })
    expect(renamed.stdout).toMatch(/^bootstrapApplication +renamed$/m)
    expect(loads(root)).toBe(first + 3)
    // VELA_ENV is read by the config itself.
    expect((await runCli(['config', '--root', root], { ...env, VELA_ENV: 'staging' })).stdout).toMatch(
      /^environment +staging \(from VELA_ENV\)$/m,
    )
    expect(loads(root)).toBe(first + 4)
    expect((await runCli(['config', '--root', root], env)).stdout).toMatch(/^bootstrapApplication +cached$/m)
    expect(loads(root)).toBe(first + 5)
  },
  8 * RUN,
)

it(
  'the dev server (vela serve) writes the cache for the app it serves: the command does not load the app',
  async () => {
    const root = app()
    // The same environment for the server and the commands, as in two terminals of one shell.
    const shell = { ...env, PORT: '0', VELA_ENV: '', VITEST: '' }
    const child = spawn(process.execPath, [BIN, 'serve', '--root', root], {
      env: { ...process.env, ...shell },
      stdio: 'ignore',
    })
    const exited = new Promise((resolve) => child.once('exit', resolve))
    try {
      await until('the dev server wrote the cache', () => existsSync(join(root, CACHE_FILE)), RUN)
    } finally {
      child.kill('SIGTERM')
      await exited
    }
    const served = loads(root)
    expect(served).toBeGreaterThan(0)
    const cached = await runCli(['routes', '--root', root], shell)
    expect(loads(root)).toBe(served)
    rmSync(join(root, CACHE_FILE))
    expect(cached).toEqual(await runCli(['routes', '--root', root], shell))
    expect(loads(root)).toBe(served + 1)
  },
  4 * RUN,
)

it(
  'vela openapi without --output writes priv/assets/openapi.json and its explorer',
  async () => {
    const root = app()
    const res = await runCli(['openapi', '--root', root], env)
    expect(res.code).toBe(0)
    expect(res.stdout.split('\n')[0]).toBe(
      `Generated ${relative(process.cwd(), join(root, 'priv/assets/openapi.json'))}`,
    )
    expect(existsSync(join(root, 'priv/assets/swagger.html'))).toBe(true)
    expect(existsSync(join(root, 'openapi.json'))).toBe(false)
  },
  RUN,
)
