/**
 * The `vela` command table: every command's name, one-line summary, help text, options and run
 * function, in the order `vela --help` lists them. The inspection commands are declared in run.ts,
 * gen_resource in gen-resource.ts, gen auth in gen-auth/; the commands that drive the plugin (serve, release) and the
 * migrations are declared here. Their implementations are imported when they run: `vela routes`
 * answered from the inspection cache never loads Vite.
 */
import { UNSAFE_CHECK_NAMES, type UnsafeCheck } from '../../../dbl/migrations/unsafe-check.ts'
import { checkProfile } from '../../profile.ts'
import type { CommandSpec } from './args.ts'
import { UsageError, defineCommand } from './args.ts'
import { genAuthCommand } from './gen-auth/command.ts'
import { genResourceCommand } from './gen-resource.ts'
import { DB_COMMANDS } from './db.ts'
import { JOBS_COMMANDS } from './jobs.ts'
import { newCommand } from './new.ts'
import { schemasCommand } from './schemas.ts'
import { typesCommand } from './types.ts'
import { INSPECT_COMMANDS } from './run.ts'

const serveCommand = defineCommand({
  name: 'serve',
  summary: 'dev server on PORT or 8080: Vite with vela(), edits hot-swapped',
  description: `Starts the development server for the app: Vite in middleware mode with vela(), the app
started before the first request, edits hot-swapped; on PORT (default 8080).`,
  options: {},
  example: 'PORT=3000 vela serve',
  async run({ root }) {
    const { serve } = await import('../serve.ts')
    await serve(root)
    return 0
  },
})

const releaseCommand = defineCommand({
  name: 'release',
  summary: 'vite build with vela(): dist/server/index.mjs, migrations, OpenAPI files',
  description: `Builds the app with vite build and vela(): the migration src/schemas needs, then
dist/server/index.mjs (run it with plain node), and priv/assets/openapi.json with its explorer
when priv/schemas/ exists. Prints one Generated line per file generated, then Built <server>.`,
  options: {
    profile: {
      type: 'string',
      value: '<name>',
      description: "Vite's mode and the built server's default VELA_ENV, e.g. prod",
    },
  },
  example: 'vela release --profile prod\nnode dist/server/index.mjs',
  async run({ root, values, display }) {
    if (values.profile !== undefined) asUsage(() => checkProfile(values.profile!))
    const { release } = await import('../../build/release.ts')
    const built = await release(root, { profile: values.profile })
    for (const file of built.generated) console.log(`Generated ${display(file)}`)
    console.log(`Built ${display(built.server)}`)
    return 0
  },
})

/** `--allow-unsafe <check>`, shared by `migrations generate` and `migrate`. */
const ALLOW_UNSAFE = {
  type: 'string',
  multiple: true,
  value: '<check>',
  description: `a safety check to acknowledge (repeatable): ${UNSAFE_CHECK_NAMES.join(', ')}`,
} as const

function unsafeChecks(values: readonly string[] | undefined): UnsafeCheck[] {
  for (const v of values ?? [])
    if (!(UNSAFE_CHECK_NAMES as readonly string[]).includes(v))
      throw new UsageError(
        `--allow-unsafe takes a safety check (${UNSAFE_CHECK_NAMES.join(', ')}), got ${JSON.stringify(v)}`,
      )
  return (values ?? []) as UnsafeCheck[]
}

const generateCommand = defineCommand({
  name: 'migrations generate',
  summary: 'write the migration src/schemas needs (diffed against src/migrations)',
  description: `Compares the schemas of src/schemas with what src/migrations builds and writes the migration
that makes them match. A possible rename or a drop is never guessed: the command stops and says
which flag decides it. A change that is unsafe on a production database (dropping, renaming or
retyping a column, a NOT NULL column without a default) is refused with the risk and the safe way
until --allow-unsafe names its check; the file then lists it in safetyAssured.`,
  options: {
    rename: {
      type: 'string',
      multiple: true,
      value: '<table.new=old>',
      description: 'a column renamed from old (repeatable)',
    },
    'drop-column': {
      type: 'string',
      multiple: true,
      value: '<table.column>',
      description: 'a column to drop (repeatable)',
    },
    'drop-table': { type: 'string', multiple: true, value: '<table>', description: 'a table to drop (repeatable)' },
    'allow-unsafe': ALLOW_UNSAFE,
  },
  example: 'vela migrations generate --rename posts.body=text',
  async run({ root, values }) {
    const renames = (values.rename ?? []).map((r): [string, string] => {
      const [to, from] = r.split('=', 2)
      if (!to || !from) throw new UsageError(`--rename takes <table.new=old>, got ${JSON.stringify(r)}`)
      return [to, from]
    })
    const { generate } = await import('./migrate.ts')
    await generate(root, {
      renames: Object.fromEntries(renames),
      dropColumns: values['drop-column'] ?? [],
      dropTables: values['drop-table'] ?? [],
      allowUnsafe: unsafeChecks(values['allow-unsafe']),
    })
    return 0
  },
})

const migrateCommand = defineCommand({
  name: 'migrate',
  summary: 'apply pending migrations, list them (--status) or revert (--rollback [n])',
  description: `Applies the pending migrations of src/migrations to the repo src/repo.ts exports; --status lists
every migration (up or pending), --rollback reverts the last n applied ones. A pending migration doing
what is unsafe on the data it touches (dropping a column of a table with rows, an index built without
CONCURRENTLY on a large table, …) is refused unless it lists the check in safetyAssured or
--allow-unsafe names it.`,
  positionals: [{ name: '<n>', description: 'with --rollback: how many migrations to revert', byDefault: '1' }],
  options: {
    status: { type: 'boolean', description: 'list the migrations and whether each is applied; change nothing' },
    rollback: { type: 'boolean', description: 'revert the last n applied migrations (default 1)' },
    'allow-unsafe': ALLOW_UNSAFE,
  },
  example: 'vela migrate\nvela migrate --status\nvela migrate --rollback 2',
  async run({ root, values, positionals }) {
    if (values.status && values.rollback) throw new UsageError('--status and --rollback cannot be combined')
    const [n] = positionals
    if (n !== undefined && !values.rollback)
      throw new UsageError(`unexpected argument ${JSON.stringify(n)} (a count goes with --rollback)`)
    if (n !== undefined && !/^[1-9]\d*$/.test(n))
      throw new UsageError(`--rollback takes a positive whole number of migrations, got ${JSON.stringify(n)}`)
    const { runMigrations } = await import('./migrate.ts')
    const allowUnsafe = unsafeChecks(values['allow-unsafe'])
    if (allowUnsafe.length > 0 && (values.status || values.rollback))
      throw new UsageError('--allow-unsafe goes with applying migrations, not with --status or --rollback')
    await runMigrations(root, {
      status: values.status,
      rollback: values.rollback ? Number(n ?? 1) : undefined,
      allowUnsafe,
    })
    return 0
  },
})

export const COMMANDS: readonly CommandSpec[] = [
  serveCommand,
  releaseCommand,
  generateCommand,
  migrateCommand,
  ...DB_COMMANDS,
  ...JOBS_COMMANDS,
  schemasCommand,
  typesCommand,
  ...INSPECT_COMMANDS,
  genResourceCommand,
  genAuthCommand,
  newCommand,
] as readonly CommandSpec[]

/** Runs `check`, turning what it throws into a UsageError (a bad value is a usage error). */
function asUsage(check: () => unknown): void {
  try {
    check()
  } catch (err) {
    throw new UsageError(err instanceof Error ? err.message : String(err))
  }
}
