/**
 * The app in development: booted eagerly through Vite's SSR module runner (`virtual:vela/app`), and
 * swapped for a fresh one when a module of the app changes, without restarting the process.
 *
 * A swap, in order: clear the runner's module cache (every module of the app is evaluated afresh,
 * so nothing from the old code survives: a new repo, new plugin state) → import the entry and
 * create the new app (routes compiled) → run the old app's `stop` hook (pools closed, ports freed)
 * → run the dispose callbacks of every module of the replaced generation (`import.meta.hot.dispose`,
 * dev-hot.ts) → run the new app's `start` hook → serve with it. Requests arriving during the swap
 * wait for it and are answered by the new app. If the new code does not load or compile, the error
 * is logged, the dispose callbacks of the modules it did evaluate run, and the old app keeps
 * serving with its resources; if its start hook fails, the error is logged and the new app serves
 * anyway (as a fresh `vela serve` would not even start).
 *
 * **Choice**, the order around the dispose callbacks: the new generation is evaluated while the old
 * one still serves, so that code that fails to load costs nothing; the callbacks run after the old
 * `stop` hook, which may still need what they release (a pool to drain through, a subscription to
 * unsubscribe from), and before the new `start` hook, which may need it freed (a fixed port, a
 * database file's lock). So a module-scope resource created at import time coexists for a moment
 * with its replacement: anything exclusive (a fixed port) belongs in the `start` hook or is opened
 * lazily. Every module of the generation is disposed, not only the edited file's, since every
 * module is evaluated afresh. Closing the dev server runs the serving app's `stop` hook, then its
 * generation's dispose callbacks.
 *
 * What triggers a swap: a change, addition or removal of a module file (`.ts`, `.js`, `.mts`,
 * `.mjs`, `.json`) under the app's `src/` — routes, controllers, plugins, schemas, `app.ts`.
 * Views are re-read on every render in `dev`, so a `.liquid` edit swaps only in other environments.
 * Edits are debounced (50 ms), so an editor's several writes make one swap.
 */
import { relative, resolve, sep } from 'node:path'
import type { IncomingMessage, ServerResponse } from 'node:http'
import type { ViteDevServer } from 'vite'
import type { ModuleRunner } from 'vite/module-runner'
import { createServerModuleRunner } from 'vite'
import type { CreateAppOptions, VelaApp } from '../server/app/create-app.ts'
import { APP_ENTRY } from './app-entry.ts'
import type { Generation } from './dev-hot.ts'
import { DevHot } from './dev-hot.ts'

export interface DevApp {
  /** Answers through whichever app is current (waiting for a swap in progress). */
  readonly app: VelaApp
  /** The app serving now. */
  readonly current: VelaApp
  /** Swaps the app now (what a file change does after its debounce). */
  reload(reason?: string): Promise<void>
  /** Resolves once no swap is running. */
  settled(): Promise<void>
  /** Runs the current app's stop hook and closes the runner; the Vite server is the caller's. */
  close(): Promise<void>
}

export interface DevAppOptions {
  createOptions?: CreateAppOptions
  log?: (message: string) => void
  debounceMs?: number
  /** How long a dispose callback may take before the swap goes on without it (default 5000 ms). */
  disposeTimeoutMs?: number
}

interface AppEntry {
  create(opts?: CreateAppOptions): VelaApp
}

const MODULE_FILE = /\.(ts|js|mts|mjs|json)$/

export async function createDevApp(vite: ViteDevServer, opts: DevAppOptions = {}): Promise<DevApp> {
  const log = opts.log ?? ((m: string) => console.log(`vela: ${m}`))
  const env = vite.environments.ssr
  // Our own runner without HMR: swaps are driven from here, not by Vite's HMR payloads; its
  // evaluator gives each module the `import.meta.hot` of dev-hot.ts instead.
  const hot = new DevHot(opts.disposeTimeoutMs ?? 5000)
  const runner: ModuleRunner = createServerModuleRunner(env, { hmr: false, evaluator: hot.evaluator })
  const srcDir = resolve(vite.config.root, 'src')

  /** Evaluates a new generation of the app's modules; returns its app and the generation it replaces. */
  const load = async (): Promise<{ app: VelaApp; replaced: Generation }> => {
    const replaced = hot.begin()
    runner.evaluatedModules.clear()
    // Every module of the app is transformed again from what is on disk now: a swap must not
    // depend on Vite's watcher having seen the edit first (its events can lag on a busy machine).
    // The entry is included, so its import.meta.glob results see added and removed files.
    const graph = env.moduleGraph
    for (const [file, modules] of graph.fileToModulesMap) {
      if (file.startsWith(srcDir + sep)) for (const mod of modules) graph.invalidateModule(mod)
    }
    const entryNode = graph.getModuleById(`\0${APP_ENTRY}`)
    if (entryNode) graph.invalidateModule(entryNode)
    try {
      const entry = (await runner.import(APP_ENTRY)) as AppEntry
      return { app: entry.create(opts.createOptions), replaced }
    } catch (err) {
      await hot.rollback(replaced)
      throw err
    }
  }

  let current = (await load()).app
  await current.start()

  let swapping: Promise<void> | undefined
  let queued = false
  const swap = async (reason: string) => {
    let next: VelaApp
    let replaced: Generation
    try {
      ;({ app: next, replaced } = await load())
    } catch (err) {
      console.error(`vela: ${reason}: the new code failed to load; still serving the previous version:`, err)
      return
    }
    try {
      await current.stop()
    } catch (err) {
      console.error('vela: the previous app’s stop hook failed:', err)
    }
    await hot.dispose(replaced)
    try {
      await next.start()
    } catch (err) {
      console.error('vela: the new app’s start hook failed:', err)
    }
    current = next
    log(`${reason}: app reloaded`)
  }
  const track = (run: Promise<void>): Promise<void> => {
    const tracked: Promise<void> = run.finally(() => {
      if (swapping === tracked) swapping = undefined
    })
    return (swapping = tracked)
  }
  const reload = (reason = 'reload'): Promise<void> => {
    if (!swapping) return track(swap(reason))
    // One more swap after the running one picks up every edit made meanwhile.
    if (!queued) {
      queued = true
      track(swapping.then(() => ((queued = false), swap(reason))))
    }
    return swapping
  }

  let timer: NodeJS.Timeout | undefined
  const changed = new Set<string>()
  const onFile = (file: string) => {
    const abs = resolve(file)
    if (!abs.startsWith(srcDir + sep)) return
    const isView = abs.endsWith('.liquid')
    if (!MODULE_FILE.test(abs) && !(isView && current.config.environment !== 'dev')) return
    changed.add(relative(vite.config.root, abs))
    clearTimeout(timer)
    timer = setTimeout(() => {
      const files = [...changed].join(', ')
      changed.clear()
      void reload(files)
    }, opts.debounceMs ?? 50)
  }
  vite.watcher.on('change', onFile)
  vite.watcher.on('add', onFile)
  vite.watcher.on('unlink', onFile)

  const whenReady = <T>(fn: () => T): T | Promise<T> => (swapping ? swapping.then(fn) : fn())
  const app: VelaApp = {
    get config() {
      return current.config
    },
    get routeTable() {
      return current.routeTable
    },
    fetch: (request) => Promise.resolve(whenReady(() => current.fetch(request))),
    upgrade: (request) => Promise.resolve(whenReady(() => current.upgrade(request))),
    handleNode: (req: IncomingMessage, res: ServerResponse) => void whenReady(() => current.handleNode(req, res)),
    start: () => current.start(),
    stop: () => close(),
  }

  let closed: Promise<void> | undefined
  const close = () =>
    (closed ??= (async () => {
      clearTimeout(timer)
      vite.watcher.off('change', onFile)
      vite.watcher.off('add', onFile)
      vite.watcher.off('unlink', onFile)
      await swapping?.catch(() => {})
      try {
        await current.stop()
      } finally {
        await hot.dispose(hot.begin())
        await runner.close()
      }
    })())

  return {
    app,
    get current() {
      return current
    },
    reload,
    settled: async () => {
      while (swapping) await swapping
    },
    close,
  }
}
