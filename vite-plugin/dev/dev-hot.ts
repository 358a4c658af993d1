/**
 * `import.meta.hot` for the app's modules under the dev server, so that module-scope resources
 * (an interval, a pool, a server opened at import time) are released when a swap replaces the
 * module that opened them.
 *
 * **Choice:** dev-app.ts keeps the module runner's own HMR client off and this module sets a small
 * `import.meta.hot` on each module the runner evaluates (through the runner's evaluator). With the
 * runner's HMR client on, Vite's SSR hot channel would re-import modules by itself on each edit,
 * racing the swaps dev-app.ts drives. The unit here is one *evaluation* of a module: a swap
 * re-evaluates the edited files and the modules importing them up to the app entry
 * (dev-modules.ts), and the callbacks their previous evaluations registered run; every other
 * module keeps its evaluation and its callbacks.
 *
 * - `dispose(cb)`: runs when this evaluation of the module is replaced (the swap re-evaluated the
 *   module, or invalidated it and nothing imports it any more) or when the dev server closes. The
 *   callbacks of one swap run last registered first (dependents before the modules they import,
 *   as these evaluate first), one at a time, each awaited; an error or a callback still pending
 *   after the timeout is logged and the next one runs. One registered by an evaluation already
 *   replaced (from a timer of the old code) runs at once.
 * - `data`: one object per module file, the same object across evaluations (as Vite keeps it),
 *   so the new evaluation sees what the old one stored before the swap, and what the old one's
 *   dispose callbacks store from its `start` hook on. Dropped when the file is deleted.
 * - `accept`, `acceptExports`, `invalidate`, `prune`, `on`, `off`, `send`: accepted and ignored;
 *   there is no HMR channel, the swap decides what is re-evaluated.
 *
 * In a build Vite replaces `import.meta.hot` with `undefined`, so `if (import.meta.hot)` code is
 * dead there.
 */
import type {
  EvaluatedModuleNode,
  ModuleEvaluator,
  ModuleRunnerContext,
  ModuleRunnerImportMeta,
} from 'vite/module-runner'
import { ESModulesEvaluator, ssrImportMetaKey } from 'vite/module-runner'
import { settleWithin } from './settle.ts'

type HotContext = NonNullable<ModuleRunnerImportMeta['hot']>
/** What `import.meta.hot.data` holds: whatever the module stores. */
export type HotData = Record<string, unknown>
type DisposeCallback = (data: HotData) => unknown

/** One evaluation of a module and the dispose callbacks it registered. */
export class Evaluation {
  readonly disposers: Array<{ seq: number; cb: DisposeCallback }> = []
  replaced = false
  constructor(readonly path: string) {}
}

export class DevHot {
  /** The evaluation of each module file the serving app uses. */
  private readonly live = new Map<string, Evaluation>()
  /** Evaluations made by the load in progress: they replace live ones when it commits. */
  private loading: Map<string, Evaluation> | undefined
  private readonly data = new Map<string, HotData>()
  /** Shallow copies of `data` taken as a load begins, put back if it fails. */
  private saved = new Map<string, HotData>()
  private seq = 0

  constructor(
    private readonly timeoutMs: number,
    /** How an error of a callback is printed (dev-errors.ts). */
    private readonly format: (err: unknown) => string = String,
  ) {}

  /** For the runner: sets `import.meta.hot` on every module before it runs. */
  readonly evaluator: ModuleEvaluator = new HotEvaluator((path) => this.contextFor(path))

  /** A load begins: modules evaluated from now on are held apart until `commit` or `rollback`. */
  begin(): void {
    this.loading = new Map()
    this.saved = new Map([...this.data].map(([path, data]) => [path, { ...data }]))
  }

  /** The module files the load in progress evaluated so far. */
  loaded(): string[] {
    return [...(this.loading?.keys() ?? [])]
  }

  /**
   * The load succeeded: its evaluations become live. Returns the evaluations it replaces, to
   * dispose: those of the files it evaluated again and of the `invalidated` ones (the swap threw
   * their evaluation away, whether or not anything imported them again).
   */
  commit(invalidated: Iterable<string>): Evaluation[] {
    const loading = this.loading ?? new Map<string, Evaluation>()
    this.loading = undefined
    const replaced: Evaluation[] = []
    for (const path of new Set([...invalidated, ...loading.keys()])) {
      const old = this.live.get(path)
      if (old) replaced.push(old)
      this.live.delete(path)
    }
    for (const [path, evaluation] of loading) this.live.set(path, evaluation)
    return replaced
  }

  /** The load failed: what its modules registered is released, and `data` put back as it was. */
  async rollback(): Promise<void> {
    const failed = [...(this.loading?.values() ?? [])]
    this.loading = undefined
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

  /** Runs the callbacks of replaced evaluations, last registered first, each awaited. */
  async dispose(evaluations: readonly Evaluation[]): Promise<void> {
    const callbacks = evaluations.flatMap(
      (e) => ((e.replaced = true), e.disposers.splice(0).map((d) => ({ ...d, path: e.path }))),
    )
    for (const { path, cb } of callbacks.sort((a, b) => b.seq - a.seq)) await this.run(path, cb)
  }

  /** Closing: every live evaluation is disposed. */
  disposeAll(): Promise<void> {
    const all = [...this.live.values()]
    this.live.clear()
    return this.dispose(all)
  }

  /** The file was deleted: its `data` goes. */
  forget(path: string): void {
    this.data.delete(path)
  }

  /** One callback: awaited up to the timeout; a failure is logged, never thrown. */
  private async run(path: string, cb: DisposeCallback): Promise<void> {
    const outcome = await settleWithin(this.timeoutMs, () => cb(this.dataOf(path)))
    if (outcome.late)
      console.error(
        `vela: a dispose callback of ${path} did not settle within ${this.timeoutMs} ms; going on without it`,
      )
    else if ('error' in outcome)
      console.error(`vela: a dispose callback of ${path} failed: ${this.format(outcome.error)}`)
  }

  private dataOf(path: string): HotData {
    let data = this.data.get(path)
    if (!data) this.data.set(path, (data = {}))
    return data
  }

  private contextFor(path: string): HotContext {
    const evaluation = new Evaluation(path)
    if (this.loading) {
      const earlier = this.loading.get(path)
      this.loading.set(path, evaluation)
      if (earlier) void this.dispose([earlier])
    } else {
      // Evaluated outside a swap (a dynamic import from a start hook or a handler): live at once.
      const earlier = this.live.get(path)
      this.live.set(path, evaluation)
      if (earlier) void this.dispose([earlier])
    }
    const data = () => this.dataOf(path)
    const ignore = () => {}
    return {
      get data() {
        return data()
      },
      dispose: (cb: DisposeCallback) => {
        if (evaluation.replaced) void this.run(path, cb)
        else evaluation.disposers.push({ seq: this.seq++, cb })
      },
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

  override runInlinedModule(
    context: ModuleRunnerContext,
    code: string,
    mod?: Readonly<EvaluatedModuleNode>,
  ): Promise<unknown> {
    // Virtual modules have no file; their id is as stable across evaluations.
    if (mod) context[ssrImportMetaKey].hot = this.hotFor(mod.file ?? mod.id)
    return super.runInlinedModule(context, code)
  }
}
