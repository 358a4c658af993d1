/**
 * `vela <command>`: serve and release (the Vite plugin), migrations generate and migrate, and the
 * inspection commands (commands/), gen_resource (commands/gen-resource.ts).
 */
import { isInspectCommand, runInspectCommand } from './commands/run.ts'
import { runGenResource } from './commands/gen-resource.ts'
import { generate, runMigrations } from './migrations.ts'
import { relative } from 'node:path'
import { release } from './build.ts'
import { serve } from './serve.ts'

const usage = `usage: vela <command> [options]

commands:
  serve                      dev server on PORT or 8080: Vite + vela(), edits hot-swapped (vela/vite)
  release [--profile <name>] vite build with vela(): the migration src/schemas needs, then
                             dist/server/index.mjs (run it with plain node), and priv/assets/openapi.json
                             (+ explorer) when priv/schemas/ exists; the profile is Vite's mode and
                             the server's default VELA_ENV
  migrations generate        diff src/schemas against src/migrations; write a migration if they differ
      [--rename t.new=old] [--drop-column t.c] [--drop-table t]   decisions for renames and drops
  migrate [--status | --rollback [n]]   apply pending migrations, list them, or revert the last n
  routes [--json]            the compiled routing table
  middleware [--json]        global plugins, then per group: prefix, security, plugins, routes
  audit [--json]             routes without security (exit code 1 when there are warnings)
  config [--json]            every framework config value, defaults marked (default)
  openapi [--output openapi.json] [--title <app>] [--api-version 0.1.0]
                             OpenAPI 3.0.3 document plus swagger.html (and its assets) beside it
  gen_resource --name <plural> --actions <list>   e.g. --name products --actions index,show,create
                             controller stubs and priv/schemas/<singular>.json; prints the routes

options:
  --root <dir>               the app folder (default: the current directory)`

const [command, ...args] = process.argv.slice(2)
const flag = (name: string) => {
  const i = args.indexOf(`--${name}`)
  return i === -1 ? undefined : args[i + 1]
}
const flags = (name: string) => args.flatMap((a, i) => (a === `--${name}` && args[i + 1] ? [args[i + 1]!] : []))
const root = flag('root') ?? process.cwd()

try {
  switch (command) {
    case 'serve':
      await serve(root)
      break
    case 'release': {
      const profile = flag('profile')
      if (args.includes('--profile') && (profile === undefined || profile.startsWith('--'))) throw new Error('--profile needs a name, e.g. --profile prod')
      const built = await release(root, { profile })
      for (const file of built.generated) console.log(`Generated ${relative(process.cwd(), file)}`)
      console.log(`Built ${relative(process.cwd(), built.server) || '.'}`)
      break
    }
    case 'migrations':
      if (args[0] !== 'generate') throw new Error(`unknown subcommand ${JSON.stringify(args[0] ?? '')}; try: vela migrations generate`)
      await generate(root, {
        renames: Object.fromEntries(flags('rename').map((r) => r.split('=', 2) as [string, string])),
        dropColumns: flags('drop-column'),
        dropTables: flags('drop-table'),
      })
      break
    case 'migrate': {
      const steps = args.includes('--rollback') ? Number(flag('rollback') ?? 1) || 1 : undefined
      await runMigrations(root, { status: args.includes('--status'), rollback: steps })
      break
    }
    case 'routes':
    case 'middleware':
    case 'audit':
    case 'config':
    case 'openapi':
      if (isInspectCommand(command)) process.exitCode = await runInspectCommand(command, root, args)
      break
    case 'new': process.exitCode = await (await import('./commands/new.ts')).runNew(args); break // temporary: the new parser calls runNew
    case 'gen_resource':
      process.exitCode = await runGenResource(root, args)
      break
    case undefined:
    case 'help':
    case '--help':
      console.log(usage)
      break
    default:
      console.error(`vela: unknown command ${JSON.stringify(command)}\n\n${usage}`)
      process.exitCode = 2
  }
} catch (err) {
  console.error(`vela ${command}: ${err instanceof Error ? err.message : String(err)}`)
  process.exitCode = 1
}
