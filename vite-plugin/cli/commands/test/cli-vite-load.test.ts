// The CLI loads the app as `vela serve` and the build do, through Vite with the app's own
// vite.config.ts: the `aliased` fixture imports `virtual:vela/migrations` at the top of src/app.ts
// and reaches its repo, schema fields and controller through a `resolve.alias` only Vite knows.
import { existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs'
import { join, relative } from 'node:path'
import { execFile } from 'node:child_process'
import { promisify } from 'node:util'
import { PGlite } from '@electric-sql/pglite'
import { describe, expect, it } from 'vitest'
import { runnerCounts } from '../../../app-loader.ts'
import { runCli, runMain } from './run-cli.ts'
import { BIN, useTempDirs } from '../../../test/built-app.ts'

const temp = useTempDirs()
// Each `vela` run boots Vite and loads the app: seconds on an idle machine, many times that when
// other work shares the cores (`vela migrate --status` here: 14 s of CPU, a minute of wall time on
// two cores under a load of 20). The bounds only catch a command that hangs.
const ONE_RUN = 300_000
const fixture = () => temp.fixture('aliased')
const tempDir = () => temp.dir('vela-tasks-db-')

describe('inspection commands', () => {
  it(
    '`vela routes --json` lists the routes of an app using a virtual module and an alias',
    async () => {
      const res = await runCli(['routes', '--json', '--root', fixture()])
      expect(res.stderr).toBe('')
      expect(res.code).toBe(0)
      const { hosts } = JSON.parse(res.stdout) as {
        hosts: { host: string; routes: { methods: string[]; path: string; controller: string; action: string }[] }[]
      }
      expect(hosts.map((h) => h.host)).toEqual(['*'])
      expect(hosts[0]!.routes.map((r) => `${r.methods.join(',')} ${r.path} ${r.controller}.${r.action}`)).toEqual([
        'GET /api/tasks tasks_controller.index',
        'GET /api/tasks/:id tasks_controller.show',
      ])
    },
    ONE_RUN,
  )

  it(
    'a vite.config.ts without vela() is an error naming the fix, exit code 2 (the app cannot be loaded)',
    async () => {
      const root = fixture()
      writeFileSync(join(root, 'vite.config.ts'), 'export default { plugins: [] }\n')
      const res = await runCli(['routes', '--root', root])
      expect(res.code).toBe(2)
      expect(res.stdout).toBe('')
      expect(res.stderr.trim()).toBe(
        `vela routes: ${root}: the Vite config must use the plugin: import vela from 'vela/vite'; export default { plugins: [vela()] }`,
      )
    },
    ONE_RUN,
  )
})

it(
  'every command that loads the app (serve, release, migrate, migrations generate) refuses a vite.config.ts without vela() with the same error, exit code 2',
  async () => {
    const root = fixture()
    writeFileSync(join(root, 'vite.config.ts'), 'export default { plugins: [] }\n')
    for (const argv of [['serve'], ['release'], ['migrate', '--status'], ['migrations', 'generate']]) {
      const name = argv.filter((a) => !a.startsWith('-')).join(' ')
      expect(await runMain([...argv, '--root', root]), name).toMatchObject({
        code: 2,
        stdout: '',
        stderr: `vela ${name}: ${root}: the Vite config must use the plugin: import vela from 'vela/vite'; export default { plugins: [vela()] }\n`,
      })
    }
    expect(existsSync(join(root, 'dist'))).toBe(false)
  },
  4 * ONE_RUN,
)

it(
  'a command whose app fails to load closes its runner: none is left open, exit code 2',
  async () => {
    const root = fixture()
    for (const file of ['src/app.ts', 'src/repo.ts'])
      writeFileSync(join(root, file), `throw new Error('${file} fails on purpose')\n`)
    const before = runnerCounts()
    for (const argv of [['routes'], ['migrate', '--status']]) {
      expect(await runMain([...argv, '--root', root]), argv[0]).toMatchObject({ code: 2, stdout: '' })
    }
    expect(runnerCounts()).toEqual({ opened: before.opened + 2, open: 0 })
  },
  2 * ONE_RUN,
)

describe('migrations, with schemas and repo imported through the alias', () => {
  const root = fixture()
  const data = tempDir()
  const env = { TASKS_DATA: data }
  const [migration] = readdirSync(join(root, 'src/migrations'))
  const version = /^m(\d{14})_/.exec(migration!)![1]!

  it(
    '`vela migrate --status`, `vela migrate`, then `--status` again: pending, applied, up',
    async () => {
      expect(await runCli(['migrate', '--status', '--root', root], env)).toMatchObject({
        code: 0,
        stdout: `pending  ${version} create_tasks\n`,
      })
      expect(await runCli(['migrate', '--root', root], env)).toMatchObject({
        code: 0,
        stdout: `migrated ${version} create_tasks\n`,
      })
      expect(await runCli(['migrate', '--status', '--root', root], env)).toMatchObject({
        code: 0,
        stdout: `up       ${version} create_tasks\n`,
      })
      const db = new PGlite(data)
      try {
        expect((await db.query('SELECT version::text, name FROM schema_migrations')).rows).toEqual([
          { version, name: 'create_tasks' },
        ])
        await db.query("INSERT INTO tasks (title) VALUES ('written after the migration')")
        expect((await db.query('SELECT id, title FROM tasks')).rows).toEqual([
          { id: 1, title: 'written after the migration' },
        ])
      } finally {
        await db.close()
      }
    },
    3 * ONE_RUN,
  )

  it(
    '`vela migrations generate` reads the schema fields shared through the alias',
    async () => {
      expect(await runCli(['migrations', 'generate', '--root', root])).toMatchObject({
        code: 0,
        stdout: 'Migrations already match the schemas: nothing generated\n',
      })
      // A field added in the shared file (not in the schema file itself) needs a migration.
      const fields = join(root, 'src/lib/fields.ts')
      writeFileSync(
        fields,
        readFileSync(fields, 'utf8').replace('nullable: false } }', "nullable: false }, done: 'boolean' }"),
      )
      const res = await runCli(['migrations', 'generate', '--root', root])
      expect(res.code).toBe(0)
      const added = readdirSync(join(root, 'src/migrations')).filter((f) => f !== migration)
      expect(added).toEqual([expect.stringMatching(/^m\d{14}_alter_tasks\.ts$/)])
      expect(res.stdout).toBe(`Generated ${join(root, 'src/migrations', added[0]!)}\n`)
      expect(readFileSync(join(root, 'src/migrations', added[0]!), 'utf8')).toContain(
        "addColumn({ name: 'done', type: 'boolean' })",
      )
    },
    2 * ONE_RUN,
  )
})

it(
  '`vela release` loads the app the same way: the migration from the aliased fields, the OpenAPI files, the bundle',
  async () => {
    const root = fixture()
    mkdirSync(join(root, 'priv/schemas'), { recursive: true })
    writeFileSync(
      join(root, 'priv/schemas/task.json'),
      JSON.stringify({ title: 'Task', type: 'object', properties: { title: { type: 'string' } } }),
    )
    const fields = join(root, 'src/lib/fields.ts')
    writeFileSync(
      fields,
      readFileSync(fields, 'utf8').replace('nullable: false } }', "nullable: false }, done: 'boolean' }"),
    )
    const { stdout } = await promisify(execFile)(process.execPath, [BIN, 'release', '--root', root], {
      env: { ...process.env, VELA_ENV: '' },
    })
    const rel = relative(process.cwd(), root)
    const assets = [
      'openapi.json',
      'swagger.html',
      'swagger-initializer.js',
      'swagger-ui.css',
      'swagger-ui-bundle.js',
    ].map((f) => `Generated ${rel}/priv/assets/${f}`)
    expect(stdout.trim().split('\n')).toEqual([
      expect.stringMatching(/^Generated .*\/src\/migrations\/m\d{14}_alter_tasks\.ts$/),
      ...assets,
      `Built ${rel}/dist/server/index.mjs`,
    ])
    const doc = JSON.parse(readFileSync(join(root, 'priv/assets/openapi.json'), 'utf8'))
    expect(Object.keys(doc.paths)).toEqual(['/api/tasks', '/api/tasks/{id}'])
  },
  ONE_RUN,
)
