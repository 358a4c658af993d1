/**
 * The app in development: booted eagerly through Vite's SSR module runner (`virtual:vela/app`),
 * and swapped for a new one when a file it uses changes, without restarting the process.
 *
 * A swap re-evaluates only what the edit touches: the changed files and the modules importing
 * them, up to the app entry (dev-modules.ts); every other module keeps its state. Then:
 * - **code-only swap**, when every changed file is under `src/routes/`, `src/controllers/` or
 *   `src/views/`: the new app (new route table) serves at once; no hook runs, the resources the
 *   started app opened (the repo's database, pools) stay open; the replaced modules' dispose
 *   callbacks run (dev-hot.ts).
 * - **lifecycle swap**, for any other file (`app.ts`, `repo.ts`, plugins, schemas, migrations,
 *   other libs), and for `reload()`, which re-evaluates every module: the started app's `stop`
 *   hook → the replaced modules' dispose callbacks → the new app's `start` hook. **Choice**, that
 *   order: `stop` may still need what the callbacks release (a pool to drain through), `start`
 *   may need it freed (a port, a database file's lock); and the new code is evaluated before
 *   anything stops, so code that fails to load costs nothing. The hooks that run are those of
 *   the app that was *started*: after code-only swaps that re-evaluated `app.ts`, its `stop` is
 *   still the one whose module scope holds what `start` opened.
 * Requests arriving during a swap wait for it. When the app has `src/schemas/`, a swap loading a
 * changed schema first writes its migration (dev-schema.ts), which the new `start` applies. When
 * it has `priv/schemas/`, each app that starts serving gets its OpenAPI files written in the
 * background (dev-openapi.ts). Each app loaded gets its route types written to
 * `.vela/routes.d.ts`, and each app that starts serving the inspection cache that `vela routes`
 * and the other inspection commands answer from (dev-inspect.ts), in the background too.
 *
 * The development dashboard (dashboard/) answers `/__vela` before the app, for an app in `dev`:
 * each app swapped in is made with its request recorder (an extra stream handler, an observer of
 * the pipeline and a response hook), so the requests of every version of the app land in one store.
 *
 * Failures print as one framed message (dev-errors.ts) and never end the process. New code that
 * fails to load: the app serving keeps serving, and the next edit retries (with the failed edit's
 * files). With nothing to serve (the app failed to load at start-up) or after a start hook threw,
 * every request gets a 503 (dev-failure.ts) until an edit makes the app load and start. A stop
 * hook is waited for at most `stopTimeoutMs` (5 s), in swaps and when the dev server closes.
 * Loading, serving, failed (to load or to start) and closed, and what moves between them, are
 * spelled out in dev-state.ts; the swap below only reports what happened (`move`).
 *
 * What triggers a swap: a change, addition or removal of a file the app evaluated, or of a module
 * file (`.ts`, `.js`, `.mts`, `.mjs`, `.json`) under `src/` that changes what the app loads (an
 * addition to a discovered folder, a schema, any file while the app is failing). Views are re-read
 * on every render in `dev`, so a `.liquid` edit swaps only in other environments. Edits are
 * debounced (50 ms), so an editor's several writes make one swap.
 */
import { statSync } from 'node:fs'
import type { IncomingMessage, ServerResponse } from 'node:http'
import { resolve, sep } from 'node:path'
import type { ViteDevServer } from 'vite'
import type { CreateAppOptions, VelaApp } from '../../server/app/create-app.ts'
import { withRecorder } from '../../server/dashboard/recorder.ts'
import { createTopics } from '../../server/websocket/topics.ts'
import type { Dashboard, DashboardOptions } from '../dashboard/index.ts'
import { createDashboard } from '../dashboard/index.ts'
import { migrationsView } from '../dashboard/migrations.ts'
import { formatError } from './dev-errors.ts'
import { failureApp } from './dev-failure.ts'
import { DevHot } from './dev-hot.ts'
import type { Changes } from './dev-modules.ts'
import { AppModules } from './dev-modules.ts'
import type { OpenApiVersion } from '../openapi/document.ts'
import { inspectCacheStep } from './dev-inspect.ts'
import { openApiStep } from './dev-openapi.ts'
import type { EnvReads } from '../env-reads.ts'
import { trackEnvReads } from '../env-reads.ts'
import { routeTypesStep } from './dev-route-types.ts'
import type { DevEvent, DevState } from './dev-state.ts'
import { INITIAL, retryOf, startedOf, transition } from './dev-state.ts'
import { schemaStep } from './dev-schema.ts'
import { watchForSwaps } from './dev-watch.ts'
import { CONTROLLERS_DIR, ROUTES_DIR } from '../discover.ts'
import { settleWithin } from './settle.ts'

export interface DevApp {
  /** Answers through whichever app is current (waiting for a swap in progress). */
  readonly app: VelaApp
  /** The app serving now (the 503 app while the app cannot run). */
  readonly current: VelaApp
  /** The framed error while the app cannot run (failed to load at start-up, or its start hook threw). */
  readonly failure: string | undefined
  /** Swaps the app now, re-evaluating every module (a lifecycle swap). */
  reload(reason?: string): Promise<void>
  /** Resolves once no swap is running. */
  settled(): Promise<void>
  /** The development dashboard at `/__vela` (undefined when turned off). */
  readonly dashboard: Dashboard | undefined
  /**
   * Runs the started app's stop hook (bounded), closes the runner and waits for the files being
   * written in the background (OpenAPI, route types, inspection cache); the Vite server is the caller's.
   */
  close(): Promise<void>
}

/** How the dev server runs the app: `createApp`'s options, logging, how edits are debounced, and the dashboard. */
export interface DevAppOptions {
  /** Passed to the app's `createApp` on every start and swap. */
  createOptions?: CreateAppOptions
  /** The OpenAPI version of `priv/assets/openapi.json` (the plugin's `openapi` option). */
  openapi?: OpenApiVersion
  /** Where the dev app's lines go (default: `console.log`, prefixed `vela: `). */
  log?: (message: string) => void
  /** How long after an edit the swap waits for further edits, so an editor's several writes make one swap (default 50 ms). */
  debounceMs?: number
  /** How long a dispose callback may take before the swap goes on without it (default 5000 ms). */
  disposeTimeoutMs?: number
  /** How long a swap, or closing, waits for the old app's stop hook (default 5000 ms). */
  stopTimeoutMs?: number
  /**
   * The development dashboard at `/__vela` (for an app in `dev`): how many requests it keeps
   * (`limit`, default 500), in how many bytes (`maxBytes`, default 8 MiB), whether query
   * parameters are kept (`params`, default true); `false` turns it off (nothing is recorded).
   */
  dashboard?: DashboardOptions | false
}

const MODULE_FILE = /\.(ts|js|mts|mjs|json)$/

/**
 * `replacing`: the dev app of the server a Vite restart replaces (dev-restart.ts). It is closed
 * (its stop hook run) before this app's first start, or as soon as this app's code fails to load:
 * its server is going away either way, and what it holds must be free for the next start.
 */
export async function createDevApp(vite: ViteDevServer, opts: DevAppOptions = {}, replacing?: DevApp): Promise<DevApp> {
  const root = vite.config.root
  const log = opts.log ?? ((m: string) => console.log(`vela: ${m}`))
  const stopTimeoutMs = opts.stopTimeoutMs ?? 5000
  const hot = new DevHot(opts.disposeTimeoutMs ?? 5000, (err) => formatError(err, root))
  const modules = new AppModules(vite, hot)
  const schemas = schemaStep(root, log)
  const openApi = openApiStep(root, log, opts.openapi)
  const routeTypes = routeTypesStep(root)
  let routeTypesWriting: Promise<void> = Promise.resolve()
  /** The environment variables the app's modules read while loading, over every swap. */
  const envReads: EnvReads = new Map()
  const inspectCache = opts.createOptions?.env
    ? Object.assign(() => {}, { written: async () => {} })
    : inspectCacheStep(root, () => modules.files(), envReads)
  const dir = (name: string) => resolve(root, name) + sep
  const codeOnlyDirs = [dir(ROUTES_DIR), dir(CONTROLLERS_DIR), dir('src/views')]
  const codeOnly = (file: string) => codeOnlyDirs.some((d) => file.startsWith(d))
  // One set of topics for every app swapped in, and across restarts of Vite's server, so the dev
  // listener hears the current app's publishes. In-process only: the dev server does not join a
  // `server.websocket.pubsub` broker.
  const topics = replacing?.app.topics ?? createTopics()
  const dashboard =
    opts.dashboard === false
      ? undefined
      : createDashboard(() => answering(), opts.dashboard, { migrations: () => migrationsView(root, modules.load) })
  const given = { ...opts.createOptions, topics }
  const createOptions = dashboard ? withRecorder(dashboard.recorder, given) : given

  /** Loading, serving, failed or closed, and what each holds (dev-state.ts): changed only by `move`. */
  let state: DevState = INITIAL
  const move = (event: DevEvent): DevState => {
    state = transition(state, event)
    // An app that serves once shutdown began is drained too (its readiness endpoint says so).
    if (event.type === 'served' && state.draining) event.app.drain()
    return state
  }
  /** The app requests go to: the one serving, or the 503 app. */
  const answering = (): VelaApp => {
    if (state.kind === 'loading' || state.app === undefined) throw new Error('the dev app has no app loaded yet')
    return state.app
  }
  /** Migrations this dev server wrote (path → mtime): their own watcher events are not edits. */
  const written = new Map<string, number>()

  const stop = async (app: VelaApp) => {
    const outcome = await settleWithin(stopTimeoutMs, () => app.stop())
    if (outcome.late)
      console.error(`vela: the app's stop hook did not settle within ${stopTimeoutMs} ms; going on without it`)
    else if ('error' in outcome) console.error(`vela: the app's stop hook failed:\n${formatError(outcome.error, root)}`)
  }

  const swap = async (requested: Changes | 'all', reason: string | undefined) => {
    const began = performance.now()
    const since = Date.now()
    const retry = retryOf(state)
    const changes = requested === 'all' ? 'all' : new Map([...(retry?.files ?? []), ...requested])
    const files = changes === 'all' ? [] : [...changes.keys()]
    const healthy = state.kind === 'serving'
    const thrown = modules.invalidate(changes)
    // Nothing the app evaluated, no glob, no schema, no view: nothing to swap.
    if (
      healthy &&
      changes !== 'all' &&
      thrown.size === 0 &&
      !files.some((f) => f.endsWith('.liquid') || schemas.holds(f))
    )
      return
    const lifecycle = retry?.lifecycle || !healthy || changes === 'all' || files.some((f) => !codeOnly(f))
    hot.begin()
    let next: VelaApp
    try {
      if (changes === 'all' || [...thrown, ...files].some(schemas.holds)) {
        const migration = await schemas.run(modules.load)
        if (migration) {
          written.set(migration, statSync(migration).mtimeMs)
          for (const file of modules.invalidate(new Map([[migration, 'add']]))) thrown.add(file)
        }
      }
      const loaded = await trackEnvReads(envReads, async () => {
        const entry = await modules.entry()
        return { entry, app: entry.create(createOptions) }
      })
      next = loaded.app
      routeTypesWriting = routeTypes(next, loaded.entry.config)
    } catch (err) {
      modules.failed(thrown, hot.loaded())
      await hot.rollback()
      const framed = formatError(err, root)
      const answer = () => failureApp('load', framed, root)
      if (move({ type: 'load-failed', files: changes, lifecycle, error: framed, answer }).kind === 'serving') {
        console.error(`vela: ${reason}: the new code failed to load; still serving the previous version:\n${framed}`)
      } else {
        console.error(`vela: the app failed to load; answering 503 until an edit fixes it:\n${framed}`)
        await replacing?.close()
      }
      return
    }
    const replaced = hot.commit(thrown)
    for (const [file, event] of changes === 'all' ? [] : changes) if (event === 'unlink') hot.forget(file)
    if (!lifecycle) {
      await hot.dispose(replaced)
      // Code-only: no hook runs; the app started before keeps what its start hook opened.
      move({ type: 'served', app: next, started: startedOf(state)! })
      openApi(next)
      inspectCache(next, since)
      if (reason) log(`${reason}: app reloaded in ${Math.round(performance.now() - began)} ms`)
      return
    }
    const started = startedOf(state)
    if (started) await stop(started)
    else await replacing?.close()
    await hot.dispose(replaced)
    try {
      await next.start()
      move({ type: 'served', app: next, started: next })
      openApi(next)
      inspectCache(next, since)
      if (reason)
        log(`${reason}: app restarted in ${Math.round(performance.now() - began)} ms (stop and start hooks run)`)
    } catch (err) {
      const framed = formatError(err, root)
      console.error(`vela: the app's start hook failed; answering 503 until an edit fixes it:\n${framed}`)
      move({
        type: 'start-failed',
        started: next,
        error: framed,
        answer: failureApp('start', framed, root, next.config),
      })
    }
  }

  await swap('all', undefined)

  const queue = watchForSwaps(vite, {
    debounceMs: opts.debounceMs ?? 50,
    relevant(file, event) {
      // A migration this dev server wrote: the swap that wrote it loaded it.
      if (written.has(file) && statSync(file, { throwIfNoEntry: false })?.mtimeMs === written.get(file)) return false
      written.delete(file)
      if (modules.has(file)) return true
      if (!file.startsWith(dir('src'))) return false
      if (file.endsWith('.liquid')) return answering().config.environment !== 'dev'
      if (!MODULE_FILE.test(file)) return false
      return event !== 'change' || state.kind === 'failed' || retryOf(state) !== undefined || schemas.holds(file)
    },
    swap: (changes, reason) =>
      swap(changes, reason).catch((err: unknown) =>
        console.error(`vela: ${reason}: the swap failed:\n${formatError(err, root)}`),
      ),
  })

  const whenReady = <T>(fn: () => T): T | Promise<T> => (queue.running ? queue.running.then(fn) : fn())
  const app: VelaApp = {
    get config() {
      return answering().config
    },
    get routeTable() {
      return answering().routeTable
    },
    get state() {
      return state.draining ? 'draining' : answering().state
    },
    drain() {
      move({ type: 'drain' })
      answering().drain()
    },
    fetch: (request) => Promise.resolve(whenReady(() => answering().fetch(request))),
    upgrade: (request) => Promise.resolve(whenReady(() => answering().upgrade(request))),
    handleNode: (req: IncomingMessage, res: ServerResponse) => {
      // The dashboard answers before the app's routes (and is not recorded).
      if (dashboard?.handle(req, res)) return
      void whenReady(() => answering().handleNode(req, res))
    },
    publish: topics.publish,
    topics,
    start: async () => {},
    stop: () => close(),
  }

  // The dev app moves to `closed` after the running swap, if any, so what it started is what is
  // stopped; a second call gets the first one's promise.
  let closing: Promise<void> | undefined
  const close = (): Promise<void> => (closing ??= closeNow())
  const closeNow = async () => {
    queue.stop()
    dashboard?.close()
    await queue.running
    const started = startedOf(state)
    move({ type: 'closed' })
    if (started) await stop(started)
    await hot.disposeAll()
    await modules.close()
    // Generated files still being written: finished, so no temporary file is left behind.
    await Promise.all([openApi.written(), inspectCache.written(), routeTypesWriting])
  }

  return {
    app,
    get current() {
      return answering()
    },
    get failure() {
      return state.kind === 'failed' ? state.error : undefined
    },
    dashboard,
    reload: (reason = 'reload') => queue.full(reason),
    settled: async () => {
      while (queue.running) await queue.running
    },
    close,
  }
}
