// What the commands that only read an app load: on the playground (jobs, migrations, telemetry),
// cold, `vela routes`, `audit`, `types` and `migrations generate` load `vela/jobs` and `vela/dbl`
// (the app's jobs and schemas import them) but none of the packages only running the app needs:
// pg-boss (the job engine), PGlite (the embedded database), knex (which writes the repository's
// statements), the OpenTelemetry SDK. The packages loaded are read from the
// process itself (a module hook, through `--import`), so the test says nothing about time.
import { execFile } from 'node:child_process'
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { afterAll, expect, it } from 'vitest'
import { BIN, PLAYGROUND } from './run-cli.ts'

const scratch = join(PLAYGROUND, '..', '.scratch')
mkdirSync(scratch, { recursive: true })
const app = mkdtempSync(join(scratch, 'loaded-packages-'))
afterAll(() => rmSync(app, { recursive: true, force: true }))
const skip = ['.data', '.vela', 'dist'].map((d) => join(PLAYGROUND, d))
cpSync(PLAYGROUND, app, { recursive: true, filter: (src) => !skip.includes(src) })

const HOOK = `data:text/javascript,${encodeURIComponent(
  [
    "import { writeFileSync } from 'node:fs'",
    "import { registerHooks } from 'node:module'",
    'const urls = []',
    'registerHooks({ load(url, context, next) { urls.push(url); return next(url, context) } })',
    "process.on('exit', () => writeFileSync(process.env.VELA_TEST_LOADED, urls.join('\\n')))",
  ].join('\n'),
)}`

/** The URLs of every module `vela <command>` loaded on the playground, with no inspection cache. */
async function loadedBy(command: string): Promise<string[]> {
  rmSync(join(app, '.vela'), { recursive: true, force: true })
  const out = join(app, `loaded-${command.replace(' ', '-')}.txt`)
  const env = { ...process.env, VELA_TEST_LOADED: out, VELA_CLI_LOADER: '', DATABASE_URL: '', PORT: '', VELA_ENV: '' }
  await promisify(execFile)(process.execPath, ['--import', HOOK, BIN, ...command.split(' ')], { cwd: app, env }).catch(
    (err: { code?: number }) => {
      // `vela audit` exits 1 on the playground: its API has open write routes, on purpose.
      if (!(command === 'audit' && err.code === 1)) throw err
    },
  )
  return readFileSync(out, 'utf8').split('\n')
}

const packageOf = (url: string) => /\/node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(url)?.[1]

const UNUSED = ['pg-boss', '@electric-sql/pglite', 'knex', 'lodash']

it.each(['routes', 'audit', 'types', 'migrations generate'])(
  '`vela %s` loads vela/jobs and vela/dbl, not pg-boss, PGlite, knex or the OpenTelemetry SDK',
  async (command) => {
    const urls = await loadedBy(command)
    expect(urls.some((u) => u.endsWith('/dist/jobs/index.js'))).toBe(true)
    expect(urls.some((u) => u.endsWith('/dist/dbl/index.js'))).toBe(true)
    const packages = new Set(urls.map(packageOf).filter((p) => p !== undefined))
    expect(packages).toContain('ajv')
    const unused = [...packages].filter((p) => UNUSED.includes(p) || p.startsWith('@opentelemetry/sdk-'))
    expect(unused).toEqual([])
  },
  300_000,
)
