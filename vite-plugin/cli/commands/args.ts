/**
 * Arguments and help of every `vela` command. A command declares its options (name, type,
 * repeated or not, value placeholder, description, default), positionals and an example once
 * (`defineCommand`); the parser (`node:util` parseArgs, strict), the usage text and the CLI
 * reference page (scripts/reference/render-cli.ts) are all made from that declaration, so neither
 * the help nor the page can disagree with what is accepted. Every command also takes
 * `--root <dir>` and `-h, --help` (COMMON_OPTIONS).
 *
 * **Choice:** `--help` or `-h` anywhere before a `--` wins over everything else, even over bad
 * flags: the command only prints its usage. Any other problem (unknown flag, a flag without its
 * value, a value given to a boolean flag, a positional the command does not take, a missing
 * required option) throws UsageError, which the CLI prints with the usage on stderr, exit 2.
 */
import { parseArgs } from 'node:util'

export interface OptionSpec {
  readonly type: 'string' | 'boolean'
  readonly short?: string
  /** Repeatable: the values come as a list. */
  readonly multiple?: boolean
  /** A string option the command cannot run without (shown in the synopsis). */
  readonly required?: boolean
  /** The value's placeholder in the usage text, e.g. `<file>`. */
  readonly value?: string
  readonly description: string
  /**
   * What applies without the option, for the help only: a value (`0.1.0`) or words (`the app
   * name`). Not `default`: parseArgs would take that as a value to fill in.
   */
  readonly byDefault?: string
}

export interface PositionalSpec {
  /** The placeholder, e.g. `<dir>`. */
  readonly name: string
  readonly required?: boolean
  readonly description: string
  /** What applies when it is left out, as for an option. */
  readonly byDefault?: string
}

export type OptionTable = Readonly<Record<string, OptionSpec>>

type ValueOf<S> = S extends { type: 'boolean' }
  ? S extends { multiple: true }
    ? boolean[]
    : boolean
  : S extends { multiple: true }
    ? string[]
    : string
type Required<O> = { [K in keyof O]: O[K] extends { required: true } ? K : never }[keyof O]

/** Parsed option values: required options are present, the others may be undefined. */
export type Values<O extends OptionTable> = { readonly [K in Required<O>]: ValueOf<O[K]> } & {
  readonly [K in Exclude<keyof O, Required<O>>]?: ValueOf<O[K]>
}

export interface CommandInput<O extends OptionTable> {
  readonly values: Values<O>
  readonly positionals: readonly string[]
  /** The app root, absolute: `--root` resolved (the CLI has changed into it), else the working directory. */
  readonly root: string
  /** A path as the user reads it: relative to the directory `vela` was started in when it lies under it. */
  display(file: string): string
}

export interface CommandSpec<O extends OptionTable = OptionTable> {
  /** `routes`, or two words (`migrations generate`) for a command with a subcommand. */
  readonly name: string
  /** Older names the command still answers to (`middleware` for `plugins`). */
  readonly aliases?: readonly string[]
  /** One line in `vela --help`. */
  readonly summary: string
  /** Lines after the synopsis in the command's own help. */
  readonly description: string
  readonly positionals?: readonly PositionalSpec[]
  readonly options: O
  /** One or more command lines showing a typical use (the help's `example:` part). */
  readonly example: string
  /** Returns the exit code; throws UsageError for arguments it refuses. */
  run(input: CommandInput<O>): Promise<number>
}

/** Bad or missing arguments: the CLI prints the message and the command's usage on stderr, exit 2. */
export class UsageError extends Error {}

export const COMMON_OPTIONS = {
  root: { type: 'string', value: '<dir>', description: 'the app folder', byDefault: 'the current directory' },
  help: { type: 'boolean', short: 'h', description: 'print this help and do nothing else' },
} as const satisfies OptionTable

/** Keeps the option table's literal types, so `run` sees typed values. */
export const defineCommand = <const O extends OptionTable>(spec: CommandSpec<O>): CommandSpec<O> => spec

/** `vela help`, listed with the commands: it has no declaration of its own (cli.ts answers it). */
export const HELP_COMMAND = {
  name: 'help',
  label: 'help [<command>]',
  summary: 'this list, or the options of a command',
  example: 'vela help migrate',
} as const

export const EXIT_STATUS = `Exit status: 0 done; 1 the command failed, or \`vela audit\` found warnings;
2 the command could not run: a usage error, or the app could not be loaded.`

export type Parsed =
  | { readonly help: true }
  | { readonly help: false; readonly values: Record<string, unknown>; readonly positionals: string[] }

export function parseCommandArgs(spec: CommandSpec, args: readonly string[]): Parsed {
  const end = args.indexOf('--')
  const flags = end === -1 ? args : args.slice(0, end)
  if (flags.includes('--help') || flags.includes('-h')) return { help: true }
  const options: OptionTable = { ...spec.options, ...COMMON_OPTIONS }
  let parsed
  try {
    parsed = parseArgs({ args: [...args], options, strict: true, allowPositionals: true })
  } catch (err) {
    throw new UsageError(parseProblem(options, args, err))
  }
  const declared = spec.positionals ?? []
  const extra = parsed.positionals[declared.length]
  if (extra !== undefined) throw new UsageError(`unexpected argument ${JSON.stringify(extra)}`)
  const missing = declared.find((p, i) => p.required && parsed.positionals[i] === undefined)
  if (missing) throw new UsageError(`${missing.name} is required`)
  for (const [name, option] of Object.entries(spec.options)) {
    if (option.required && parsed.values[name] === undefined)
      throw new UsageError(`--${name} ${option.value ?? '<value>'} is required`)
  }
  return { help: false, values: parsed.values, positionals: parsed.positionals }
}

/** A short message for what strict parseArgs refused (its own messages are long and generic). */
function parseProblem(options: OptionTable, args: readonly string[], err: unknown): string {
  const { tokens } = parseArgs({ args: [...args], options, strict: false, allowPositionals: true, tokens: true })
  for (const token of tokens) {
    if (token.kind !== 'option') continue
    const option = options[token.name]
    if (!option) return `unknown option ${token.rawName}`
    if (option.type === 'boolean' && token.value !== undefined) return `${token.rawName} takes no value`
    if (
      option.type === 'string' &&
      (token.value === undefined || (!token.inlineValue && token.value.startsWith('-')))
    ) {
      const placeholder = option.value ?? '<value>'
      return token.value === undefined
        ? `${token.rawName} needs a value: ${token.rawName} ${placeholder}`
        : `${token.rawName} needs a value: ${token.rawName} ${placeholder} (write ${token.rawName}=${token.value} if "${token.value}" is the value)`
    }
  }
  return err instanceof Error ? err.message.split('\n')[0]! : String(err)
}

// ---- usage text ---------------------------------------------------------------------------------

const optionLabel = (name: string, o: OptionSpec) =>
  `${o.short ? `-${o.short}, ` : ''}--${name}${o.type === 'string' ? ` ${o.value ?? '<value>'}` : ''}`

/** Two columns, the first padded to the widest label. */
function table(rows: readonly (readonly [string, string])[]): string[] {
  const width = Math.max(...rows.map(([label]) => label.length))
  return rows.map(([label, text]) => `  ${label.padEnd(width)}  ${text}`)
}

export function synopsis(spec: CommandSpec): string {
  const required = Object.entries(spec.options)
    .filter(([, o]) => o.required)
    .map(([name, o]) => optionLabel(name, o))
  const positionals = (spec.positionals ?? []).map((p) => (p.required ? p.name : `[${p.name}]`))
  return ['vela', spec.name, ...required, '[options]', ...positionals].join(' ')
}

/** An option's or argument's description with its default: `its info.version (default: 0.1.0)`. */
export const withDefault = (o: OptionSpec | PositionalSpec): string =>
  o.byDefault === undefined ? o.description : `${o.description} (default: ${o.byDefault})`

/** Every option a command takes, its own then COMMON_OPTIONS, with its label (`-h, --help`, `--root <dir>`). */
export const optionsOf = (spec: CommandSpec): { label: string; option: OptionSpec }[] =>
  Object.entries({ ...spec.options, ...COMMON_OPTIONS }).map(([name, option]) => ({
    label: optionLabel(name, option),
    option,
  }))

export function usageText(spec: CommandSpec): string {
  const out = [`usage: ${synopsis(spec)}`, '', spec.description]
  if (spec.positionals?.length)
    out.push('', 'arguments:', ...table(spec.positionals.map((p) => [p.name, withDefault(p)])))
  out.push('', 'options:', ...table(optionsOf(spec).map(({ label, option }) => [label, withDefault(option)])))
  out.push('', 'example:', ...spec.example.split('\n').map((line) => `  ${line}`))
  out.push('', EXIT_STATUS)
  return out.join('\n')
}

/** `vela`, `vela --help`, `vela help`: every command on one line. */
export function commandListText(commands: readonly CommandSpec[]): string {
  return [
    'usage: vela <command> [options]',
    '',
    'commands:',
    ...table([
      ...commands.map((c): [string, string] => [c.name, c.summary]),
      [HELP_COMMAND.label, HELP_COMMAND.summary],
    ]),
    '',
    'Every command takes --root <dir> (the app folder; default: the current directory) and -h, --help.',
    '`vela <command> --help` (or `vela help <command>`) prints its options and does nothing else.',
    '',
    EXIT_STATUS,
  ].join('\n')
}
