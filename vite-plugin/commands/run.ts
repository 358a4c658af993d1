/**
 * Entry point of the inspection commands for the CLI: loads the app under `root`, prints the text
 * (or, with `--json`, the JSON) report, and returns the process exit code. `openapi` writes its
 * files (openapi-write.ts) and prints one `Generated <path>` line per file.
 */
import { isAbsolute, relative } from 'node:path'
import { audit, auditExitCode, formatAudit } from './audit.ts'
import { configEntries, formatConfig } from './config.ts'
import { loadApp } from './load.ts'
import { describeMiddleware, formatMiddleware } from './middleware.ts'
import { writeOpenApi } from './openapi-write.ts'
import { formatRoutes, listRoutes } from './routes.ts'

export const INSPECT_COMMANDS = ['routes', 'middleware', 'audit', 'config', 'openapi'] as const
export type InspectCommand = (typeof INSPECT_COMMANDS)[number]

export const isInspectCommand = (name: string | undefined): name is InspectCommand =>
  (INSPECT_COMMANDS as readonly string[]).includes(name ?? '')

export async function runInspectCommand(command: InspectCommand, root: string, args: readonly string[]): Promise<number> {
  const asJson = args.includes('--json')
  const flag = (name: string) => {
    const i = args.indexOf(`--${name}`)
    if (i === -1) return undefined
    const value = args[i + 1]
    if (value === undefined || value.startsWith('--')) throw new Error(`--${name} needs a value`)
    return value
  }
  const { config, table } = await loadApp(root)
  const print = (text: string, data: unknown) => console.log(asJson ? JSON.stringify(data, null, 2) : text)
  switch (command) {
    case 'routes':
      print(formatRoutes(table), listRoutes(table))
      return 0
    case 'middleware':
      print(formatMiddleware(table), describeMiddleware(table))
      return 0
    case 'config':
      print(formatConfig(config), { config: configEntries(config) })
      return 0
    case 'audit': {
      const report = audit(table)
      print(formatAudit(report), report)
      return auditExitCode(report)
    }
    case 'openapi': {
      const written = await writeOpenApi(root, config.bootstrapApplication, table, {
        output: flag('output'),
        title: flag('title'),
        apiVersion: flag('api-version'),
      })
      for (const file of written) console.log(`Generated ${displayPath(file)}`)
      return 0
    }
  }
}

/** A path relative to the current directory when it lies under it, else absolute. */
function displayPath(file: string): string {
  const rel = relative(process.cwd(), file)
  return rel && !rel.startsWith('..') && !isAbsolute(rel) ? rel : file
}
