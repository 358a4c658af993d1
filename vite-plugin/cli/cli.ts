/**
 * `vela <command>`: `main(argv)` runs one command and returns its exit status; the binary
 * (bin.mjs) sets `process.exitCode` from it. Importing this module does nothing (tests call `main`
 * in-process). The commands are in commands/table.ts, each with its declared options
 * (commands/args.ts), from which its parsing and `--help` text are made.
 *
 * Exit status, for every command:
 * - 0 — done;
 * - 1 — the command failed (a migration, the build, a file it will not overwrite…), or
 *   `vela audit` found warnings;
 * - 2 — the command could not run: a usage error (unknown command or flag, a missing or bad
 *   value, an argument it does not take; the usage goes to stderr), or the app could not be loaded
 *   (its Vite config, an import of one of its modules, `createApp` refusing it; load-failure.ts
 *   marks those; every command loads it through app-loader.ts). `vela release` compiles the app
 *   rather than loading it: its Vite config is loaded as for the others (2), but a module that
 *   does not compile fails the build (1).
 *
 * `--help`/`-h` on any command and `vela help <command>` print its usage on stdout and exit 0
 * without doing anything else; `vela` alone, `vela --help` and `vela help` print the command list.
 *
 * `--root <dir>`: the CLI changes into the app folder before running the command (mutable data,
 * `.data/`, lives in the working directory) and gives the command the absolute root; printed paths
 * stay relative to the directory `vela` was started in. The change is not undone when `main`
 * returns (`vela serve` keeps serving from there); in-process callers restore it themselves.
 *
 * **Choice:** output goes through `console.log` / `console.error`, as the commands' own modules
 * (migrations, serve) print, rather than a sink passed around: tests spy on the console.
 */
import { isAbsolute, relative, resolve } from 'node:path'
import { stripVTControlCharacters } from 'node:util'
import { isAppLoadFailure } from '../load-failure.ts'
import type { CommandSpec } from './commands/args.ts'
import { UsageError, commandListText, parseCommandArgs, usageText } from './commands/args.ts'
import { COMMANDS } from './commands/table.ts'

export async function main(argv: readonly string[]): Promise<number> {
  const [first, ...rest] = argv
  if (first === undefined || first === '--help' || first === '-h' || (first === 'help' && rest.length === 0)) {
    console.log(commandListText(COMMANDS))
    return 0
  }
  if (first === 'help') return help(rest)
  const found = findCommand(argv)
  if (!found.command) return unknownCommand(found.family, argv)
  return runCommand(found.command, found.args)
}

type Found =
  | { command: CommandSpec; args: readonly string[]; family?: undefined }
  | { command?: undefined; family: readonly CommandSpec[] }

/** `routes …` or a two-word command (`migrations generate …`); else the commands sharing the first word. */
function findCommand(argv: readonly string[]): Found {
  const two = COMMANDS.find((c) => c.name === `${argv[0]} ${argv[1]}`)
  if (two) return { command: two, args: argv.slice(2) }
  const one = COMMANDS.find((c) => c.name === argv[0] || c.aliases?.includes(argv[0]!))
  if (one) return { command: one, args: argv.slice(1) }
  return { family: COMMANDS.filter((c) => c.name.startsWith(`${argv[0]} `)) }
}

function help(names: readonly string[]): number {
  const found = findCommand(names)
  const specs = found.command ? [found.command] : found.family
  if (specs.length === 0) return unknownCommand([], names)
  if (found.command && found.args.length > 0) {
    console.error(`vela help: takes one command, e.g. vela help ${found.command.name}`)
    return 2
  }
  console.log(specs.map(usageText).join('\n\n'))
  return 0
}

function unknownCommand(family: readonly CommandSpec[], argv: readonly string[]): number {
  const flags = argv.filter((a) => a.startsWith('-'))
  if (family.length) {
    // `vela migrations --help` is help; `vela migrations` or `vela migrations nope` a usage error.
    if (flags.includes('--help') || flags.includes('-h')) return help([argv[0]!])
    const sub = argv[1] === undefined ? 'a subcommand' : `a known subcommand, not ${JSON.stringify(argv[1])}`
    console.error(`vela ${argv[0]}: needs ${sub}\n\n${family.map(usageText).join('\n\n')}`)
    return 2
  }
  const what = argv[0]!.startsWith('-')
    ? `expected a command before ${argv[0]}`
    : `unknown command ${JSON.stringify(argv[0])}`
  console.error(`vela: ${what}\n\n${commandListText(COMMANDS)}`)
  return 2
}

async function runCommand(spec: CommandSpec, args: readonly string[]): Promise<number> {
  const startedIn = process.cwd()
  try {
    const parsed = parseCommandArgs(spec, args)
    if (parsed.help) {
      console.log(usageText(spec))
      return 0
    }
    const root = enterRoot(startedIn, parsed.values.root as string | undefined)
    const display = (file: string) => displayPath(file, startedIn)
    return await spec.run({ values: parsed.values as never, positionals: parsed.positionals, root, display })
  } catch (err) {
    if (err instanceof UsageError) {
      console.error(`vela ${spec.name}: ${err.message}\n\n${usageText(spec)}`)
      return 2
    }
    const message = err instanceof Error ? err.message : String(err)
    // Vite's and the parser's messages carry colour codes (a code frame): not for a file or a pipe.
    console.error(`vela ${spec.name}: ${process.stderr.isTTY ? message : stripVTControlCharacters(message)}`)
    return isAppLoadFailure(err) ? 2 : 1
  }
}

/** Changes into `--root` (CONTEXT decision 2: `.data/` is under the working directory); returns the absolute root. */
function enterRoot(startedIn: string, root: string | undefined): string {
  if (root === undefined) return startedIn
  const dir = resolve(startedIn, root)
  try {
    process.chdir(dir)
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code
    throw new UsageError(
      `--root ${root}: ${code === 'ENOENT' ? 'no such folder' : code === 'ENOTDIR' ? 'not a folder' : (err as Error).message}`,
    )
  }
  return dir
}

/** Relative to `from` when the file lies under it (`.` for `from` itself), else absolute. */
function displayPath(file: string, from: string): string {
  const rel = relative(from, file)
  if (rel === '') return '.'
  return !rel.startsWith('..') && !isAbsolute(rel) ? rel : file
}
