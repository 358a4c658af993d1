/**
 * `import.meta.hot` for the app's modules under the dev server, so that module-scope resources
 * (an interval, a pool, a server opened at import time) are released when a swap replaces them.
 *
 * **Choice:** dev-app.ts keeps the module runner's own HMR client off and this module sets a small
 * `import.meta.hot` on each module the runner evaluates (through the runner's evaluator). With the
 * runner's HMR client on, Vite's SSR hot channel would re-import modules by itself on each edit,
 * racing the swaps dev-app.ts drives, and would run only the edited module's boundary's callback
 * (one per module). Here the unit is a *generation*: every module evaluated for one app; a swap
 * evaluates all of them afresh, so every module of the replaced generation is disposed, not only
 * the edited file.
 *
 * - `dispose(cb)`: every callback a generation registers (several per module allowed) runs when
 *   that generation is replaced or the dev server closes: last registered first (dependents before
 *   the modules they import, as these evaluate first), one at a time, each awaited; an error or a
 *   callback still pending after the timeout is logged and the next one runs. One registered once
 *   its generation is gone (from a timer of the old code) runs at once.
 * - `data`: one object per module file, the same object across generations (as Vite keeps it), so
 *   the new generation sees at evaluation what the old one stored before the swap, and what the
 *   old one's dispose callbacks store from its `start` hook on. Dropped once the file's module is
 *   no longer part of the app.
 * - `accept`, `acceptExports`, `invalidate`, `prune`, `on`, `off`, `send`: accepted and
 *   ignored: every edit already re-evaluates every module, and there is no HMR channel.
 *
 * In a build Vite replaces `import.meta.hot` with `undefined`, so `if (import.meta.hot)` code is
 * dead there.
 */
import type { EvaluatedModuleNode, ModuleEvaluator, ModuleRunnerContext, ModuleRunnerImportMeta } from 'vite/module-runner'
import { ESModulesEvaluator, ssrImportMetaKey } from 'vite/module-runner'

type HotContext = NonNullable<ModuleRunnerImportMeta['hot']>
/** What `import.meta.hot.data` holds: whatever the module stores. */
export type HotData = Record<string, unknown>
type DisposeCallback = (data: HotData) => unknown

/** The modules evaluated for one app, and their dispose callbacks in registration order. */
export class Generation {
  readonly paths = new Set<string>()
  readonly disposers: Array<{ path: string; cb: DisposeCallback }> = []
  disposed = false
}

export class DevHot {
  /** The generation modules evaluated from now on belong to. */
  private current = new Generation()
  private readonly data = new Map<string, HotData>()
  /** Shallow copies of `data` taken as a generation begins, put back if it fails to load. */
  private saved = new Map<string, HotData>()

  constructor(private readonly timeoutMs: number) {}

  /** For the runner: sets `import.meta.hot` on every module before it runs. */
  readonly evaluator: ModuleEvaluator = new HotEvaluator((path) => this.contextFor(path))

  /** Starts a generation for the modules evaluated from now on; returns the one it replaces. */
  begin(): Generation {
    const replaced = this.current
    this.current = new Generation()
    this.saved = new Map([...this.data].map(([path, data]) => [path, { ...data }]))
    return replaced
  }

  /**
   * The new code failed to load: `serving` stays current, what the failed load opened is released,
   * and `data` is put back as it was (the serving modules share those objects).
   */
  async rollback(serving: Generation): Promise<void> {
    const failed = this.current
    this.current = serving
    await this.dispose(failed)
    for (const [path, data] of this.data) {
      const saved = this.saved.get(path)
      if (!saved) {
        this.data.delete(path)
        continue
      }
      for (const key of Object.keys(data)) delete data[key]
      Object.assign(data, saved)
    }
  }

  /** Runs a replaced generation's dispose callbacks, last registered first, each awaited. */
  async dispose(gen: Generation): Promise<void> {
    gen.disposed = true
    for (const { path, cb } of gen.disposers.splice(0).reverse()) await this.run(path, cb)
    for (const path of gen.paths) if (!this.current.paths.has(path)) this.data.delete(path)
  }

  /** One callback: awaited up to the timeout; a failure is logged, never thrown. */
  private async run(path: string, cb: DisposeCallback): Promise<void> {
    let timer: NodeJS.Timeout | undefined
    const timeout = new Promise<void>((resolve) => {
      timer = setTimeout(() => {
        console.error(`vela: a dispose callback of ${path} did not settle within ${this.timeoutMs} ms; going on without it`)
        resolve()
      }, this.timeoutMs)
    })
    try {
      await Promise.race([Promise.resolve().then(() => cb(this.dataOf(path))), timeout])
    } catch (err) {
      console.error(`vela: a dispose callback of ${path} failed:`, err)
    } finally {
      clearTimeout(timer)
    }
  }

  private dataOf(path: string): HotData {
    let data = this.data.get(path)
    if (!data) this.data.set(path, (data = {}))
    return data
  }

  private contextFor(path: string): HotContext {
    // Bound to the generation evaluating the module, whichever is current when it registers later.
    const gen = this.current
    gen.paths.add(path)
    const data = () => this.dataOf(path)
    const ignore = () => {}
    return {
      get data() {
        return data()
      },
      // Registered by a module whose generation is already gone (from a late callback): run it now.
      dispose: (cb: DisposeCallback) => void (gen.disposed ? this.run(path, cb) : gen.disposers.push({ path, cb })),
      accept: ignore,
      acceptExports: ignore,
      invalidate: ignore,
      prune: ignore,
      on: ignore,
      off: ignore,
      send: ignore,
    }
  }
}

class HotEvaluator extends ESModulesEvaluator {
  constructor(private readonly hotFor: (path: string) => HotContext) {
    super()
  }

  override runInlinedModule(context: ModuleRunnerContext, code: string, mod?: Readonly<EvaluatedModuleNode>): Promise<unknown> {
    // Virtual modules have no file; their id is as stable across generations.
    if (mod) context[ssrImportMetaKey].hot = this.hotFor(mod.file ?? mod.id)
    return super.runInlinedModule(context, code)
  }
}
