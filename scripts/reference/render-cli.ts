// The CLI reference page, from the declarations `vela <command> --help` prints (vite-plugin/cli/
// commands/args.ts): one heading per command, in `vela --help`'s order, with its usage, description,
// arguments, options (with defaults) and example.
import {
  COMMON_OPTIONS,
  type CommandSpec,
  EXIT_STATUS,
  HELP_COMMAND,
  type OptionSpec,
  type PositionalSpec,
  optionsOf,
  synopsis,
} from '../../vite-plugin/cli/commands/args.ts'

/** Plain text from the CLI (placeholders, globs, snake_case names) shown as written, not as markdown. */
const text = (s: string) => s.replace(/[\\`*_[\]]/g, '\\$&')

/** A default that is a value (`0.1.0`, `priv/assets/openapi.json`) as code; one in words as text. */
const defaultText = (d: string) => (/\s/.test(d) ? text(d) : `\`${d}\``)

/** One option or argument, worded as `--help` words it: `its info.version (default: 0.1.0)`. */
const item = (label: string, o: OptionSpec | PositionalSpec) =>
  `- \`${label}\`: ${text(o.description)}${o.byDefault === undefined ? '' : ` (default: ${defaultText(o.byDefault)})`}`

/** `migrations generate` → `migrations-generate`: a command's anchor. */
export const commandAnchor = (name: string): string => name.replace(/\s+/g, '-')

const shell = (lines: string) => `\`\`\`sh\n${lines}\n\`\`\``

function commandBlock(spec: CommandSpec): string {
  const out = [
    `## \`vela ${spec.name}\` {#${commandAnchor(spec.name)}}`,
    `${text(spec.summary[0]!.toUpperCase() + spec.summary.slice(1))}.`,
    shell(synopsis(spec)),
    text(spec.description),
  ]
  if (spec.aliases?.length) out.push(`Also answers to ${spec.aliases.map((a) => `\`vela ${a}\``).join(', ')}.`)
  if (spec.positionals?.length) out.push(`**Arguments**\n\n${spec.positionals.map((p) => item(p.name, p)).join('\n')}`)
  out.push(
    `**Options**\n\n${optionsOf(spec)
      .map(({ label, option }) => item(label, option))
      .join('\n')}`,
  )
  out.push(`**Example**\n\n${shell(spec.example)}`)
  return out.join('\n\n')
}

export function renderCliPage(commands: readonly CommandSpec[]): string {
  const common = Object.keys(COMMON_OPTIONS).length
  return [
    '# The `vela` command',
    "`vela <command> [options]` runs in an app's folder (or the one `--root` names): `npx vela routes`, or `vela` in the app's npm scripts. Every command below is what its `vela <command> --help` prints.",
    `Every command takes the ${common} common options, listed with each, and prints its usage with \`-h\`, \`--help\` or \`vela help <command>\` without doing anything else.`,
    `## Exit status {#exit-status}\n\n${EXIT_STATUS.replace(/^Exit status:\s*/, '')}`,
    ...commands.map(commandBlock),
    [
      `## \`vela ${HELP_COMMAND.name}\` {#${HELP_COMMAND.name}}`,
      `${text(HELP_COMMAND.summary[0]!.toUpperCase() + HELP_COMMAND.summary.slice(1))}: \`vela help\` alone lists the commands, as \`vela\` and \`vela --help\` do.`,
      shell(`vela ${HELP_COMMAND.label}`),
      `**Example**\n\n${shell(HELP_COMMAND.example)}`,
    ].join('\n\n'),
  ].join('\n\n')
}
