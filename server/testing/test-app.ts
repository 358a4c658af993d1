/**
 * `createTestApp(opts?)`: the app under test, made from the app's own sources exactly as `vite`
 * and the build make it: `virtual:vela/app` (the app's `src/app.ts` with the routes and
 * controllers the plugin discovers), created for the `test` environment, its start hook run.
 *
 * ```ts
 * const t = await createTestApp()
 * afterAll(() => t.close())
 * const res = await t.inject({ method: 'POST', url: '/api/notes', body: { title: 'x' } })
 * const server = await t.listen()   // server.url, server.request(opts)
 * ```
 *
 * Where the app comes from: `virtual:vela/app` exists only inside Vite, so this module must be
 * run by vitest's Vite server (with the app's `vite.config.ts` and its `vela()`), never by Node.
 * **Choice:** under vitest the plugin asks vitest to process `vela/testing`'s own folder
 * (`test.server.deps.inline`, vite-plugin/vitest.ts) and nothing else of the package: the rest
 * of vela, like every installed package, stays a dependency Node loads once per worker, while
 * this module's `import('virtual:vela/app')` goes through the plugin (inlining all of vela would
 * make every test file evaluate the framework again; a plugin-served stand-in for `vela/testing`
 * would make one import mean two things). The app's own modules are
 * source files, which vitest always runs through Vite, and afresh for each test file (its
 * isolation): each test file gets its own `src/repo.ts`, hence its own database (in memory under
 * vitest, dbl/repo.ts), and nothing leaks from one file to the next. Within a file the app's
 * modules are evaluated once: a second `createTestApp()` in the same file is a second app over
 * the same repo. With `DATABASE_URL` set the repo is on that server, shared by every file.
 *
 * `env` is what `createApp` reads (`VELA_ENV`, `PORT`); the app's modules read `process.env`
 * when they are imported, which is the environment vitest runs in (`test.env` in the config).
 */
import type { CreateAppOptions, VelaApp } from '../app/create-app.ts'
import type { InjectOptions, TestServer } from './inject.ts'
import { inject, startTestServer } from './inject.ts'

/** Options of `createTestApp`: the environment, whether the start hook runs, and the log. */
export interface TestAppOptions {
  /** Environment for `createApp`, over `process.env` and `VELA_ENV=test`. */
  env?: NodeJS.ProcessEnv
  /** `false`: the start hook is not run (nor, by `close()`, the stop hook); default `true`. */
  start?: boolean
  /** How the app logs failures (default: `console.error`). */
  log?: CreateAppOptions['log']
}

/** The app under test from `createTestApp`: the app, in-process requests, real listeners and `close`. */
export interface TestApp {
  /** The app, created for the `test` environment. */
  readonly app: VelaApp
  /** One request through the whole lifecycle, in-process (no socket). */
  inject(opts: InjectOptions | string): Promise<Response>
  /** A real listener on 127.0.0.1, on an ephemeral port; closed by `close()`. */
  listen(): Promise<TestServer>
  /** Closes the listeners `listen()` opened, then runs the app's stop hook (if `start` ran it). */
  close(): Promise<void>
}

interface AppEntry {
  create(opts?: CreateAppOptions): VelaApp
}

// A variable, so that TypeScript needs no declaration of the virtual module; Vite resolves it
// when the import runs.
const APP_MODULE = 'virtual:vela/app'

async function loadAppEntry(): Promise<AppEntry> {
  try {
    return (await import(/* @vite-ignore */ APP_MODULE)) as AppEntry
  } catch (err) {
    throw new Error(
      `createTestApp: could not load ${APP_MODULE}. It exists only under Vite: run the tests with vitest and the app's vite.config.ts, whose plugins list vela() (import vela from 'vela/vite').`,
      { cause: err },
    )
  }
}

/**
 * The app under test, made from the app's own sources as `vite` and the build make it (its
 * `src/app.ts`, routes and controllers), for the `test` environment, with its start hook run.
 * Runs only under vitest with the app's `vite.config.ts` (whose plugins list `vela()`).
 *
 * @example
 * ```ts
 * import { afterAll, expect, it } from 'vitest'
 * import { createTestApp } from 'vela/testing'
 *
 * const t = await createTestApp()
 * afterAll(() => t.close())
 *
 * it('creates a note', async () => {
 *   const res = await t.inject({ method: 'POST', url: '/api/notes', body: { title: 'Groceries', user_id: 1 } })
 *   expect(res.status).toBe(201)
 * })
 * ```
 */
export async function createTestApp(opts: TestAppOptions = {}): Promise<TestApp> {
  const { create } = await loadAppEntry()
  const app = create({ env: { ...process.env, VELA_ENV: 'test', ...opts.env }, ...(opts.log ? { log: opts.log } : {}) })
  const started = opts.start !== false
  if (started) await app.start()
  const servers: TestServer[] = []
  let closing: Promise<void> | undefined
  return {
    app,
    inject: (req) => inject(app, req),
    async listen() {
      const server = await startTestServer(app)
      servers.push(server)
      return server
    },
    close() {
      closing ??= (async () => {
        await Promise.all(servers.splice(0).map((s) => s.close()))
        if (started) await app.stop()
      })()
      return closing
    },
  }
}
