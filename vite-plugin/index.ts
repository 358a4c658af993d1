/**
 * `vela/vite`: the Vite plugin. `plugins: [vela()]` in the app's `vite.config.ts`.
 *
 * - Discovery: `src/routes/*.ts` and `src/controllers/*.ts` are loaded and merged into the config
 *   `src/app.ts` default-exports (discover.ts, app-entry.ts).
 * - Dev (`configureServer`): the app is created and its start hook run while Vite starts, through
 *   the SSR environment's module runner; edits swap the app in place, re-importing only what they
 *   touch, and an app failing to load or start leaves Vite up, answering 503 until fixed
 *   (dev-app.ts). A restart of Vite's server (a config edit, `r`) stops the old app before the new
 *   one starts (dev-restart.ts). In middleware mode (`vela serve`, dev-server.ts) the caller listens on the app's
 *   port with the runtime's listener. With Vite's own server (`vite`), every request goes to the
 *   app (it is registered before Vite's middlewares) and WebSocket upgrades to the app's `ws`
 *   routes; Vite's port defaults to PORT or 8080 (the app's `server.port` is read only once the app
 *   is loaded, too late for Vite's listener: set `server.port` in the Vite config instead).
 * - Under vitest (its own Vite server, made from the app's config) no dev app is booted, and
 *   `vela/testing` is processed by Vite so `createTestApp` can import `virtual:vela/app` (vitest.ts);
 *   `.vela/routes.d.ts` is written as vitest starts.
 * - Route types: `.vela/routes.d.ts` (route-types.ts) is written at the dev server's start and
 *   swaps, in `vite build`'s `writeBundle`, at vitest's start, and by `vela types`.
 * - **Choice:** the app is a backend, so Vite's client HMR socket is off (`server.ws: false`): every
 *   upgrade on the port belongs to the app, and there is no browser client to notify.
 * - Build (`vite build`): an SSR build of `virtual:vela/server` into `dist/server/index.mjs`, with
 *   every dependency bundled (`ssr.noExternal: true`) so plain `node dist/server/index.mjs` runs it
 *   (build.ts). `buildStart` writes the migration `src/schemas` needs, or fails the build when it
 *   needs a rename/drop decision (migrations.ts). The bundle runs as `prod` unless an explicit
 *   `mode` (`vela release --profile <name>`) or `VELA_ENV` at run time names another environment
 *   (profile.ts). `writeBundle` writes `priv/assets/openapi.json` and its explorer when the app
 *   has `priv/schemas/` (openapi-build.ts), then copies the views and `priv/` under `dist/`, the
 *   built server's app root (build-files.ts). Both steps load the app through one module runner
 *   per build, closed in `closeBundle` (build-runner.ts). Each file they generate is logged
 *   (`Generated <path>`) and listed in the plugin's `api.generated` (plugin-api.ts), which
 *   `vela release` reads. `virtual:vela/migrations` compiles the app's migrations in
 *   (bundled-migrations.ts).
 */
import type { Server } from 'node:http'
import { join, relative } from 'node:path'
import type { ResolvedConfig, ViteDevServer } from 'vite'
import { portFromEnv } from '../server/app/config.ts'
import { attachWebSockets } from '../server/listener/websockets.ts'
import {
  APP_ENTRY,
  MIGRATIONS_ENTRY,
  MIGRATIONS_MODULE,
  SERVER_ENTRY,
  appEntrySource,
  migrationsEntrySource,
  serverEntrySource,
} from './app-entry.ts'
import { buildConfig } from './build/build.ts'
import { copyRuntimeAssets, mirrorAppFiles } from './build/build-files.ts'
import { BuildRunner } from './build/build-runner.ts'
import { generateForBuild } from './migrations.ts'
import { inspectForBuild } from './build/openapi-build.ts'
import type { VelaPlugin } from './plugin-api.ts'
import { PLUGIN_NAME } from './plugin-api.ts'
import { PROFILE_ENTRY, checkProfile, profileSource } from './profile.ts'
import { writeRouteTypesWith } from './route-types-write.ts'
import type { DevApp, DevAppOptions } from './dev/dev-app.ts'
import { createDevApp } from './dev/dev-app.ts'
import { registerDevApp, replacedDevApp } from './dev/dev-restart.ts'

export type { DevAppOptions } from './dev/dev-app.ts'
export type { DashboardOptions } from './dashboard/index.ts'
import { isVitestServer, vitestConfig, writeRouteTypesForVitest } from './vitest.ts'

export type { VelaPluginApi } from './plugin-api.ts'

/** `vela()`'s options: the app's config module, the dev app, the server bundle and the OpenAPI version. */
export interface VelaPluginOptions {
  /** The app's config module, from the Vite root (default `/src/app.ts`). */
  app?: string
  /** Options for the dev app (logging, debounce, `createApp` options). */
  dev?: DevAppOptions
  /**
   * Keep `@opentelemetry/*` and the drivers auto-instrumentations patch (`pg`, `pg-pool`,
   * `ioredis`, `knex`) external in the server bundle, so `node --import ./instrumentation.mjs`
   * can instrument them; the built server then needs the app's `node_modules`. Default `false`:
   * one self-contained `dist/server/index.mjs`.
   * @example
   * export default defineConfig({ plugins: [vela({ instrumentation: true })] })
   */
  instrumentation?: boolean
  /**
   * The OpenAPI version of the `priv/assets/openapi.json` that `vite build` and the dev server
   * write: `'3.0'` (default, OpenAPI 3.0.3, schemas converted from draft-07) or `'3.1'`
   * (OpenAPI 3.1.0, JSON Schema as is).
   * @example
   * export default defineConfig({ plugins: [vela({ openapi: '3.1' })] })
   */
  openapi?: '3.0' | '3.1'
}

// Kept on the server object under a registered symbol: Vite bundles a config file together with
// the local modules it imports, so the plugin in the config and `vela serve` may be two copies of
// this module; and `configureServer` gets a proxy of the server `createServer` returns.
const kDevApp = Symbol.for('vela.vite.devApp')
type WithDevApp = ViteDevServer & { [kDevApp]?: DevApp }

/**
 * The app a dev server runs (after `configureServer`), for `vela serve` and tests; `undefined`
 * before it, or for a server without the plugin.
 *
 * @example
 * const vite = await createServer({ root: appRoot, server: { port: 0 } })
 * await vite.listen()
 * const dev = devAppOf(vite)!
 * await dev.reload() // swap the app now, as an edit would
 */
export function devAppOf(server: ViteDevServer): DevApp | undefined {
  return (server as WithDevApp)[kDevApp]
}

/**
 * The Vite plugin that runs a Vela app: discovers its routes and controllers, runs it under
 * `vite` with edits swapped in place, and builds it into `dist/server/index.mjs` with `vite build`.
 *
 * @example
 * // vite.config.ts
 * import { defineConfig } from 'vite'
 * import vela from 'vela/vite'
 *
 * export default defineConfig({ plugins: [vela({ openapi: '3.1' })] })
 */
export default function vela(options: VelaPluginOptions = {}): VelaPlugin {
  // The release profile: the build's explicit `mode`, if any (profile.ts).
  let profile: string | undefined
  const ids = new Map<string, (root: string | undefined) => string>([
    // The Vite root is the app root; a build's server entry passes dist/ instead (app-entry.ts).
    [APP_ENTRY, (root) => appEntrySource(options.app, root)],
    [SERVER_ENTRY, serverEntrySource],
    [PROFILE_ENTRY, () => profileSource(profile)],
  ])
  const migrationsFile = (root: string) => join(root, MIGRATIONS_MODULE)
  // The build's one runner (build-runner.ts) and the files it generated (the plugin's api).
  const runner = new BuildRunner(() => vela(options))
  const generated: string[] = []
  const report = (file: string, config: ResolvedConfig) => {
    generated.push(file)
    config.logger.info(`Generated ${relative(config.root, file)}`)
  }
  return {
    name: PLUGIN_NAME,
    api: { generated },
    config(config, { command }) {
      // `config.mode` is only set when given (`--mode`, `vela release --profile`, the config file).
      if (command === 'build') profile = config.mode === undefined ? undefined : checkProfile(config.mode)
      // PORT=0 asks for any free port; the start line names the one it got.
      const port = portFromEnv() ?? 8080
      return {
        appType: 'custom',
        server: {
          ws: false,
          ...(config.server?.port === undefined ? { port, strictPort: true } : {}),
          // The embedded database writes under .data, the inspection cache under .vela; build
          // output is not source either.
          watch: { ignored: ['**/.data/**', '**/.vela/**', '**/dist/**'] },
        },
        ...(command === 'build' ? buildConfig(config, options.instrumentation) : {}),
        ...vitestConfig(),
      }
    },
    resolveId(id) {
      if (ids.has(id)) return `\0${id}`
      // virtual:vela/migrations is given a path in src/migrations (no such file exists): the dev
      // server re-reads every module under src/ on a swap, so added and removed migrations are seen.
      const file = migrationsFile(this.environment.config.root)
      return id === MIGRATIONS_ENTRY || id === file || id === `/${MIGRATIONS_MODULE}` ? file : undefined
    },
    load(id) {
      if (id === migrationsFile(this.environment.config.root)) return migrationsEntrySource()
      const { command, root } = this.environment.config
      return id.startsWith('\0') ? ids.get(id.slice(1))?.(command === 'build' ? undefined : root) : undefined
    },
    async buildStart() {
      const { config } = this.environment
      if (config.command !== 'build' || config.consumer !== 'server') return
      // Under --watch, Vite closes only the bundles that were written: a runner left by a rebuild
      // that failed in writeBundle goes now, and this build reads the app afresh.
      await runner.close()
      generated.length = 0
      const result = await generateForBuild(config.root, (step) => runner.use(config, step))
      for (const w of result?.warnings ?? []) config.logger.warn(`[vela migrations] ${w}`)
      if (result?.written) report(result.written, config)
    },
    async writeBundle(output, bundle) {
      const { config } = this.environment
      if (config.consumer !== 'server' || !output.dir) return
      const code = Object.values(bundle)
        .map((chunk) => (chunk.type === 'chunk' ? chunk.code : ''))
        .join('\n')
      copyRuntimeAssets(config.root, output.dir, code)
      const app = await inspectForBuild(config.root, (step) => runner.use(config, step), options.openapi)
      for (const file of app.generated) report(file, config)
      // The route types are for the app's editor and client, not the bundle: not reported.
      await runner.use(config, (load) => writeRouteTypesWith(config.root, load))
      // After the OpenAPI files: dist/priv gets them too (build-files.ts).
      mirrorAppFiles(config.root, output.dir, app.viewsDir, (message) => config.logger.warn(message))
    },
    // After every build, failed ones included (build-runner.ts).
    closeBundle: () => runner.close(),
    async configureServer(server) {
      if (isVitestServer(server.config)) return writeRouteTypesForVitest(server.config, () => vela(options))
      const devApp = await createDevApp(
        server,
        { openapi: options.openapi, ...options.dev },
        replacedDevApp(server.config),
      )
      registerDevApp(server.config, devApp)
      ;(server as WithDevApp)[kDevApp] = devApp
      const close = server.close.bind(server)
      server.close = async () => {
        await devApp.close()
        await close()
      }
      if (!server.config.server.middlewareMode && server.httpServer) {
        server.middlewares.use((req, res) => devApp.app.handleNode(req, res))
        const dashboard = devApp.dashboard
        if (dashboard) {
          server.httpServer.once('listening', () => {
            const address = server.httpServer?.address()
            if (typeof address === 'object' && address && devApp.current.config.environment === 'dev')
              server.config.logger.info(`  ➜  Vela dashboard: ${dashboard.link(`http://localhost:${address.port}`)}`)
          })
        }
        const websockets = attachWebSockets(server.httpServer as Server, devApp.app)
        if (devApp.dashboard) devApp.dashboard.websockets = websockets
        closeOnInterrupt(server)
      }
    },
  }
}

/**
 * Ctrl-C under `vite`: Vite closes its server on SIGTERM but leaves SIGINT to kill the process,
 * which skipped the app's stop hook (an embedded database left open lost its sequences' cached
 * values: the next id jumped by 33). Closes the server (the app stops, bounded by its stop timeout),
 * then exits 130 as an interrupted process does. `vela serve` has its own shutdown (middleware mode).
 */
function closeOnInterrupt(server: ViteDevServer): void {
  const interrupted = () => void server.close().finally(() => process.exit(130))
  process.once('SIGINT', interrupted)
  server.httpServer?.once('close', () => process.off('SIGINT', interrupted))
}
