/**
 * The inspection commands (`vela routes`, `middleware`, `audit`, `config`, `openapi`): their
 * options, and running them: load the app under `root` (load.ts), print the text (or, with
 * `--json`, the JSON) report, return the exit code. `openapi` writes its files (openapi-write.ts)
 * and prints one `Generated <path>` line per file.
 *
 * Exit codes: 0; `audit` 1 when it found warnings; an app that cannot be loaded is thrown by
 * loadApp marked as a load failure, which the CLI turns into 2 (cli.ts).
 */
import { audit, auditExitCode, formatAudit } from './audit.ts'
import type { CommandInput } from './args.ts'
import { defineCommand } from './args.ts'
import { configEntries, formatConfig } from './config.ts'
import { loadApp } from './load.ts'
import { describeMiddleware, formatMiddleware } from './middleware.ts'
import { writeOpenApi } from './openapi-write.ts'
import { formatRoutes, listRoutes } from './routes.ts'

const json = { json: { type: 'boolean', description: 'print the report as JSON' } } as const

/** Prints `text` or, with `--json`, `data` as indented JSON. */
const report = (input: CommandInput<typeof json>, text: string, data: unknown) =>
  console.log(input.values.json ? JSON.stringify(data, null, 2) : text)

export const routesCommand = defineCommand({
  name: 'routes',
  summary: 'the compiled routing table, status routes included',
  description: `Prints the routing table: methods, path, controller.action, group prefix, kind (http, static,
ws; a group's status route as its status, the paths it covers and kind status).`,
  options: json,
  async run(input) {
    const { table } = await loadApp(input.root)
    report(input, formatRoutes(table), listRoutes(table))
    return 0
  },
})

export const middlewareCommand = defineCommand({
  name: 'middleware',
  summary: 'global plugins, then per group: prefix, security, plugins, routes',
  description: `Prints the plugin pipelines: the global plugins, then per route group its prefix, security
callback, plugins ((inherits global) when it sets none), routes and status routes. Option values
whose key names a secret (secret, password, token, key…) show as [redacted].`,
  options: json,
  async run(input) {
    const { table } = await loadApp(input.root)
    report(input, formatMiddleware(table), describeMiddleware(table))
    return 0
  },
})

export const auditCommand = defineCommand({
  name: 'audit',
  summary: 'routes without security; exit status 1 when there are warnings',
  description: `Lists the routes of groups with security: false: POST, PUT, DELETE, PATCH and routes without
methods are WARNINGS, GET (and HEAD, OPTIONS, WebSocket, static files) INFO. Exit status 1 when
there is a warning, so CI can gate on it; 2 when the audit could not run.`,
  options: json,
  async run(input) {
    const { table } = await loadApp(input.root)
    const findings = audit(table)
    report(input, formatAudit(findings), findings)
    return auditExitCode(findings)
  },
})

export const configCommand = defineCommand({
  name: 'config',
  summary: 'every framework config value, defaults marked (default)',
  description: `Prints every framework config value after defaults and environment overrides; built-in
defaults end in (default), values from VELA_ENV or PORT say so. Values whose key names a secret
(secret, password, token, key…) show as [redacted].`,
  options: json,
  async run(input) {
    const { config } = await loadApp(input.root)
    report(input, formatConfig(config), { config: configEntries(config) })
    return 0
  },
})

export const openapiCommand = defineCommand({
  name: 'openapi',
  summary: 'the OpenAPI document (3.0.3, or 3.1.0), with swagger.html and its assets beside it',
  description: `Writes the app's OpenAPI document (3.0.3 by default, 3.1.0 with --openapi 3.1) and, beside it, the
explorer page swagger.html with the swagger-ui files it loads; prints one Generated <path> line per file.`,
  options: {
    output: { type: 'string', value: '<file>', description: 'where the document goes, relative to the app root (default: openapi.json)' },
    title: { type: 'string', value: '<text>', description: "the document's title (default: the app name)" },
    'api-version': { type: 'string', value: '<version>', description: 'its info.version (default: 0.1.0)' },
    openapi: { type: 'string', value: '<3.0|3.1>', description: 'the OpenAPI version written: 3.0 (3.0.3, default) or 3.1 (3.1.0)' },
  },
  async run({ root, values, display }) {
    const { config, table } = await loadApp(root)
    const openapi = values.openapi
    if (openapi !== undefined && openapi !== '3.0' && openapi !== '3.1') {
      console.error(`vela openapi: --openapi must be 3.0 or 3.1, not ${JSON.stringify(openapi)}`)
      return 1
    }
    const opts = { output: values.output, title: values.title, apiVersion: values['api-version'], openapi: openapi as '3.0' | '3.1' | undefined }
    for (const file of await writeOpenApi(root, config.bootstrapApplication, table, opts)) console.log(`Generated ${display(file)}`)
    return 0
  },
})

export const INSPECT_COMMANDS = [routesCommand, middlewareCommand, auditCommand, configCommand, openapiCommand]
