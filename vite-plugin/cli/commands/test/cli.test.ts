// The `vela` CLI's own behaviour, through `main` in-process: the command list, generated --help,
// usage errors, the exit-status rule shared by every command, --root.
import { cpSync, existsSync, readdirSync, writeFileSync } from 'node:fs'
import { basename, dirname, join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { COMMON_OPTIONS, EXIT_STATUS, commandListText, parseCommandArgs, usageText } from '../args.ts'
import { COMMANDS } from '../table.ts'
import { DISCOVERED, runMain, useTempApps } from './run-cli.ts'

const tempApp = useTempApps()
const command = (name: string) => COMMANDS.find((c) => c.name === name)!
/** What the CLI prints on stderr for a usage error. */
const usageError = (name: string, message: string) => `vela ${name}: ${message}\n\n${usageText(command(name))}\n`

describe('help', () => {
  it('`vela`, `vela --help`, `vela -h` and `vela help` print the command list on stdout, exit 0', async () => {
    for (const argv of [[], ['--help'], ['-h'], ['help']]) {
      expect(await runMain(argv), argv.join(' ')).toMatchObject({
        code: 0,
        stdout: `${commandListText(COMMANDS)}\n`,
        stderr: '',
      })
    }
    const list = commandListText(COMMANDS)
    for (const c of COMMANDS)
      expect(list).toMatch(new RegExp(`^  ${c.name} +${c.summary.replace(/[()[\]]/g, '\\$&')}$`, 'm'))
    expect(list).toContain(EXIT_STATUS)
  })

  it('every command: --help, -h and `vela help <command>` print its usage on stdout, exit 0', async () => {
    for (const c of COMMANDS) {
      const words = c.name.split(' ')
      const expected = { code: 0, stdout: `${usageText(c)}\n`, stderr: '' }
      expect(await runMain([...words, '--help']), c.name).toMatchObject(expected)
      expect(await runMain([...words, '-h']), c.name).toMatchObject(expected)
      expect(await runMain(['help', ...words]), c.name).toMatchObject(expected)
    }
    // `vela help migrations` and `vela migrations --help`: the family's usage.
    expect(await runMain(['help', 'migrations'])).toMatchObject({
      code: 0,
      stdout: `${usageText(command('migrations generate'))}\n`,
    })
    expect(await runMain(['migrations', '--help'])).toMatchObject({
      code: 0,
      stdout: `${usageText(command('migrations generate'))}\n`,
    })
  })

  it('the usage is made from the option table: synopsis, description, every option with its placeholder and default, an example, the exit status', () => {
    expect(usageText(command('openapi'))).toBe(`usage: vela openapi [options]

Writes the app's OpenAPI document (3.0.3 by default, 3.1.0 with --openapi 3.1) and, beside it, the
explorer page swagger.html with the swagger-ui files it loads; prints one Generated <path> line per file.

options:
  --output <file>          where the document goes, relative to the app root (default: priv/assets/openapi.json)
  --title <text>           the document's title (default: the app name)
  --api-version <version>  its info.version (default: 0.1.0)
  --openapi <3.0|3.1>      the OpenAPI version written: 3.0 (3.0.3) or 3.1 (3.1.0) (default: 3.0)
  --root <dir>             the app folder (default: the current directory)
  -h, --help               print this help and do nothing else

example:
  vela openapi --openapi 3.1 --title "Shop API" --api-version 1.2.0

${EXIT_STATUS}`)
    expect(usageText(command('gen_resource')).split('\n')[0]).toBe(
      'usage: vela gen_resource --name <plural> --actions <list> [options]',
    )
    expect(usageText(command('migrate')).split('\n')[0]).toBe('usage: vela migrate [options] [<n>]')
    for (const c of COMMANDS) {
      const text = usageText(c)
      for (const [name, o] of Object.entries({ ...c.options, ...COMMON_OPTIONS })) {
        expect(text, `${c.name} --${name}`).toContain(`--${name}${o.type === 'string' ? ` ${o.value}` : ''}  `)
      }
      // Each command's example runs that command, and the help shows every line of it.
      expect(c.example, c.name).toContain(`vela ${c.name}`)
      expect(text, c.name).toContain(`\nexample:\n${c.example.replace(/^/gm, '  ')}\n`)
    }
    // A default the help shows is words for the reader, never a value filled in for the command.
    expect(parseCommandArgs(command('openapi'), [])).toEqual({ help: false, values: {}, positionals: [] })
  })

  it('--help does nothing else: `vela openapi --help` and `vela gen_resource … --help` write no file', async () => {
    const dir = tempApp({})
    cpSync(DISCOVERED, dir, { recursive: true })
    const before = readdirSync(dir, { recursive: true }).sort()
    expect((await runMain(['openapi', '--root', dir, '--output', 'out/openapi.json', '--help'])).code).toBe(0)
    expect((await runMain(['gen_resource', '--name', 'widgets', '--actions', 'index', '--root', dir, '-h'])).code).toBe(
      0,
    )
    // Even next to a flag the command does not know.
    expect((await runMain(['openapi', '--bogus', '--help'], dir)).code).toBe(0)
    expect(readdirSync(dir, { recursive: true }).sort()).toEqual(before)
  })
})

describe('usage errors: the message and the usage on stderr, exit 2, nothing done', () => {
  it('unknown flags, missing values, values for boolean flags, stray arguments, bad values', async () => {
    const cases: [string[], string, string][] = [
      [['openapi', '--bogus'], 'openapi', 'unknown option --bogus'],
      [['openapi', '-x'], 'openapi', 'unknown option -x'],
      [['openapi', '--output'], 'openapi', '--output needs a value: --output <file>'],
      [
        ['openapi', '--title', '--output', 'x.json'],
        'openapi',
        '--title needs a value: --title <text> (write --title=--output if "--output" is the value)',
      ],
      [['routes', '--json=yes'], 'routes', '--json takes no value'],
      [['routes', 'extra'], 'routes', 'unexpected argument "extra"'],
      [['gen_resource', '--name', 'widgets'], 'gen_resource', '--actions <list> is required'],
      [['migrate', '--status', '--rollback'], 'migrate', '--status and --rollback cannot be combined'],
      [['migrate', '2'], 'migrate', 'unexpected argument "2" (a count goes with --rollback)'],
      [
        ['migrate', '--rollback', 'two'],
        'migrate',
        '--rollback takes a positive whole number of migrations, got "two"',
      ],
      [['migrate', '--rollback', '1', '2'], 'migrate', 'unexpected argument "2"'],
      [
        ['migrate', '--allow-unsafe', 'drop-table'],
        'migrate',
        '--allow-unsafe takes a safety check (add-not-null-column, create-index, change-column-type, drop-column, rename-column, add-check), got "drop-table"',
      ],
      [
        ['migrate', '--status', '--allow-unsafe', 'drop-column'],
        'migrate',
        '--allow-unsafe goes with applying migrations, not with --status or --rollback',
      ],
      [
        ['migrations', 'generate', '--allow-unsafe', 'everything'],
        'migrations generate',
        '--allow-unsafe takes a safety check (add-not-null-column, create-index, change-column-type, drop-column, rename-column, add-check), got "everything"',
      ],
      [
        ['migrations', 'generate', '--rename', 'title'],
        'migrations generate',
        '--rename takes <table.new=old>, got "title"',
      ],
      [
        ['release', '--profile', 'local'],
        'release',
        'invalid profile "local": a profile is a letter followed by letters, digits, - or _ (at most 40), not "local"; e.g. prod, staging',
      ],
      [['routes', '--root', 'no/such/folder'], 'routes', '--root no/such/folder: no such folder'],
    ]
    const dir = tempApp({})
    for (const [argv, name, message] of cases) {
      expect(await runMain(argv, dir), argv.join(' ')).toMatchObject({
        code: 2,
        stdout: '',
        stderr: usageError(name, message),
      })
    }
    expect(readdirSync(dir)).toEqual([])
  })

  it('an unknown command, a missing subcommand, flags before the command: the command list (or family usage), exit 2', async () => {
    const list = commandListText(COMMANDS)
    expect(await runMain(['deploy'])).toMatchObject({
      code: 2,
      stdout: '',
      stderr: `vela: unknown command "deploy"\n\n${list}\n`,
    })
    expect(await runMain(['help', 'deploy'])).toMatchObject({
      code: 2,
      stdout: '',
      stderr: `vela: unknown command "deploy"\n\n${list}\n`,
    })
    expect(await runMain(['--root', '.', 'routes'])).toMatchObject({
      code: 2,
      stderr: `vela: expected a command before --root\n\n${list}\n`,
    })
    const generateUsage = usageText(command('migrations generate'))
    expect(await runMain(['migrations'])).toMatchObject({
      code: 2,
      stdout: '',
      stderr: `vela migrations: needs a subcommand\n\n${generateUsage}\n`,
    })
    expect(await runMain(['migrations', 'up'])).toMatchObject({
      code: 2,
      stderr: `vela migrations: needs a known subcommand, not "up"\n\n${generateUsage}\n`,
    })
  })
})

describe('exit status, the same rule for every command', () => {
  it('0 when done', async () => {
    const res = await runMain(['routes', '--root', DISCOVERED])
    expect(res).toMatchObject({ code: 0, stderr: '' })
    expect(res.stdout).toContain('pets_controller.index')
  })

  it("1 when the command itself fails: gen_resource's file exists", async () => {
    const dir = tempApp({ 'src/controllers/widgets_controller.ts': '// mine\n' })
    const res = await runMain(['gen_resource', '--name', 'widgets', '--actions', 'index', '--root', dir])
    expect(res).toMatchObject({ code: 1, stdout: '' })
    expect(res.stderr).toMatch(/^vela gen_resource: .*widgets_controller\.ts already exists; nothing was written/)
  })

  it('2 when the app cannot be loaded, for the inspection commands and the migration commands alike', async () => {
    const dir = tempApp({
      'src/app.ts':
        "import { defineApp } from 'vela'\nexport default defineApp({ bootstrapApplication: 'broken', routes: {} \n",
      'src/repo.ts': "throw new Error('src/repo.ts fails on purpose')\n",
      'src/schemas/post.ts': "throw new Error('src/schemas/post.ts fails on purpose')\n",
    })
    for (const name of ['routes', 'plugins', 'audit', 'config', 'openapi']) {
      const res = await runMain([name, '--root', dir])
      expect(res, name).toMatchObject({ code: 2, stdout: '' })
      expect(res.stderr, name).toMatch(new RegExp(`^vela ${name}: .*src/app\\.ts:2:\\d+`, 's'))
      expect(res.stderr, name).not.toMatch(/\x1b\[/) // no colour codes when stderr is not a terminal
    }
    const migrate = await runMain(['migrate', '--root', dir])
    expect(migrate).toMatchObject({ code: 2, stdout: '', stderr: 'vela migrate: src/repo.ts fails on purpose\n' })
    const generate = await runMain(['migrations', 'generate', '--root', dir])
    expect(generate).toMatchObject({
      code: 2,
      stdout: '',
      stderr: 'vela migrations generate: src/schemas/post.ts fails on purpose\n',
    })
    expect(existsSync(join(dir, 'openapi.json'))).toBe(false)
  })
})

describe('--root', () => {
  it('the CLI changes into the app folder; printed paths stay relative to where vela was started', async () => {
    const dir = tempApp({})
    cpSync(DISCOVERED, dir, { recursive: true })
    writeFileSync(join(dir, 'marker.txt'), '')
    const res = await runMain(['openapi', '--root', basename(dir), '--output', 'out/api.json'], dirname(dir))
    expect(res.stderr).toBe('')
    expect(res.cwdAfter).toBe(dir)
    const name = basename(dir)
    expect(res.stdout.split('\n').filter(Boolean)).toEqual(
      ['api.json', 'swagger.html', 'swagger-initializer.js', 'swagger-ui.css', 'swagger-ui-bundle.js'].map(
        (f) => `Generated ${name}/out/${f}`,
      ),
    )
    expect(existsSync(join(dir, 'out/api.json'))).toBe(true)
  })
})
