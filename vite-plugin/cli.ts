/**
 * `vela <command>`: serve, migrations generate, migrate. The remaining commands of DESIGN.md §5
 * come with the Vite plugin.
 */
import { generate, runMigrations } from './migrations.ts'
import { serve } from './serve.ts'

const usage = `usage: vela <command> [options]

commands:
  serve                      start the app on PORT or 8080
  migrations generate        diff src/schemas against src/migrations; write a migration if they differ
      [--rename t.new=old] [--drop-column t.c] [--drop-table t]   decisions for renames and drops
  migrate [--status | --rollback [n]]   apply pending migrations, list them, or revert the last n

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
