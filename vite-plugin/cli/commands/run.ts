/**
 * The inspection commands (`vela routes`, `plugins`, `audit`, `config`, `openapi`): their
 * options, and running them: print the text (or, with `--json`, the JSON) report of the app under
 * `root` and return the exit code. The report comes from the inspection cache when it holds for
 * the app as it is now (inspect-cache.ts), else the app is loaded through Vite (load.ts), which
 * writes the cache; this module imports neither Vite nor the app until then. `openapi` always
 * loads the app, writes its files (vite-plugin/openapi/write.ts; by default `priv/assets/openapi.json`, where
 * the dev server and the build write it) and prints one `Generated <path>` line per file.
 *
 * Exit codes: 0; `audit` 1 when it found warnings; an app that cannot be loaded is thrown by
 * loadApp marked as a load failure, which the CLI turns into 2 (cli.ts).
 */
import type { CommandInput } from './args.ts'
import { defineCommand } from './args.ts'
import { cachedReports } from './inspect-cache.ts'
import type { ReportName } from './inspect-reports.ts'

const json = { json: { type: 'boolean', description: 'print the report as JSON' } } as const

/**
 * Prints the app's `name` report (its text or, with `--json`, its JSON) and returns its exit
 * status: from the inspection cache when it holds, else from the app, loaded (Vite is imported
 * only then).
 */
async function report(input: CommandInput<typeof json>, name: ReportName): Promise<number> {
  const reports = cachedReports(input.root) ?? (await (await import('./load.ts')).loadReports(input.root))
  const chosen = reports[name]
  console.log(input.values.json ? chosen.json : chosen.text)
  return chosen.exitCode
}

export const routesCommand = defineCommand({
  name: 'routes',
  summary: 'the compiled routing table, status routes included',
  description: `Prints the routing table: methods, path, controller.action, group prefix, kind (http, static,
ws; a group's status route as its status, the paths it covers and kind status).`,
  options: json,
  example: 'vela routes --json',
  run: (input) => report(input, 'routes'),
})

export const pluginsCommand = defineCommand({
  name: 'plugins',
  aliases: ['middleware'],
  summary: 'global plugins, then per group: prefix, security, plugins, routes (alias: middleware)',
  description: `Prints the plugin pipelines: the global plugins, then per route group its prefix, security
callback, plugins ((inherits global) when it sets none), routes and status routes. Option values
whose key names a secret (secret, password, token, key…) show as [redacted].`,
  options: json,
  example: 'vela plugins --root apps/shop',
  run: (input) => report(input, 'plugins'),
})

export const auditCommand = defineCommand({
  name: 'audit',
  summary: 'routes without security, and the check guarding each other route; exit status 1 on warnings',
  description: `Lists the routes of groups with security: false: POST, PUT, DELETE, PATCH and ALL routes are
WARNINGS, GET (and HEAD, OPTIONS, WebSocket, static files) INFO. Exit status 1 when
there is a warning, so CI can gate on it; 2 when the audit could not run.`,
  options: json,
  example: 'vela audit',
  run: (input) => report(input, 'audit'),
})

export const configCommand = defineCommand({
  name: 'config',
  summary: 'every framework config value, defaults marked (default)',
  description: `Prints every framework config value after defaults and environment overrides; built-in
defaults end in (default), values from VELA_ENV or PORT say so. Values whose key names a secret
(secret, password, token, key…) show as [redacted].`,
  options: json,
  example: 'VELA_ENV=prod vela config',
  run: (input) => report(input, 'config'),
})

export const openapiCommand = defineCommand({
  name: 'openapi',
  summary: 'the OpenAPI document (3.0.3, or 3.1.0), with swagger.html and its assets beside it',
  description: `Writes the app's OpenAPI document (3.0.3 by default, 3.1.0 with --openapi 3.1) and, beside it, the
explorer page swagger.html with the swagger-ui files it loads; prints one Generated <path> line per file.`,
  options: {
    output: {
      type: 'string',
      value: '<file>',
      description: 'where the document goes, relative to the app root',
      byDefault: 'priv/assets/openapi.json',
    },
    title: { type: 'string', value: '<text>', description: "the document's title", byDefault: 'the app name' },
    'api-version': { type: 'string', value: '<version>', description: 'its info.version', byDefault: '0.1.0' },
    openapi: {
      type: 'string',
      value: '<3.0|3.1>',
      description: 'the OpenAPI version written: 3.0 (3.0.3) or 3.1 (3.1.0)',
      byDefault: '3.0',
    },
  },
  example: 'vela openapi --openapi 3.1 --title "Shop API" --api-version 1.2.0',
  async run({ root, values, display }) {
    const { loadApp } = await import('./load.ts')
    const { OPENAPI_OUTPUT, writeOpenApi } = await import('../../openapi/write.ts')
    const { config, table } = await loadApp(root)
    const openapi = values.openapi
    if (openapi !== undefined && openapi !== '3.0' && openapi !== '3.1') {
      console.error(`vela openapi: --openapi must be 3.0 or 3.1, not ${JSON.stringify(openapi)}`)
      return 1
    }
    const opts = {
      output: values.output ?? OPENAPI_OUTPUT,
      title: values.title,
      apiVersion: values['api-version'],
      openapi: openapi as '3.0' | '3.1' | undefined,
    }
    for (const file of await writeOpenApi(root, config.bootstrapApplication, table, opts))
      console.log(`Generated ${display(file)}`)
    return 0
  },
})

export const INSPECT_COMMANDS = [routesCommand, pluginsCommand, auditCommand, configCommand, openapiCommand]
