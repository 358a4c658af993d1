/**
 * The app's modules under the dev server: the module runner on the dev server's SSR environment
 * that evaluates them (app-loader.ts), and what a swap throws away before it imports
 * `virtual:vela/app` again.
 *
 * A swap re-evaluates the modules of the changed files and, transitively, the modules importing
 * them (the runner's `importers`) up to the app entry; every other module keeps its evaluation
 * and its module-scope state (the repo and its open database, a cache, a counter). In Vite's
 * module graph the changed files' transforms are dropped here, so the swap reads them from disk
 * now, whether or not Vite's own watcher handler has seen the edit yet. Files added or removed
 * under `src/routes` or `src/controllers` change the entry's `import.meta.glob`; under
 * `src/migrations`, `virtual:vela/migrations`'s: those modules are transformed again too.
 *
 * **Choice:** only this module decides what re-evaluates. The runner would also re-evaluate a
 * module it imports when Vite's module graph says the module changed (Vite's watcher handler
 * invalidates a file and its importers at its own pace): a handler running late would then
 * re-evaluate, say, `src/repo.ts` during a later routes-only swap, making a repo no start hook
 * opens. So the runner's own invalidations are ignored (`SwapModules`), and what a swap throws
 * away comes from the events the dev app's watcher listener collected.
 *
 * After a load that fails, its modules are left half evaluated (a module whose import threw keeps
 * the rejection): they, and the modules the failed load evaluated, are thrown away again by the
 * next swap.
 */
import { resolve, sep } from 'node:path'
import type { DevEnvironment, ViteDevServer } from 'vite'
import type { EvaluatedModuleNode, ModuleRunner } from 'vite/module-runner'
import { EvaluatedModules } from 'vite/module-runner'
import { APP_ENTRY, MIGRATIONS_MODULE } from '../app-entry.ts'
import type { AppEntry, ImportModule } from '../app-loader.ts'
import { APP_ENVIRONMENT, appEntry, devAppRunner } from '../app-loader.ts'
import type { DevHot } from './dev-hot.ts'
import { CONTROLLERS_DIR, ROUTES_DIR } from '../discover.ts'

export type FileEvent = 'add' | 'change' | 'unlink'
/** Absolute file path → what happened to it since the last swap. */
export type Changes = ReadonlyMap<string, FileEvent>

/** The runner's module graph, where only `invalidate` throws an evaluation away. */
class SwapModules extends EvaluatedModules {
  override invalidateModule(): void {}
  invalidate(node: EvaluatedModuleNode): void {
    super.invalidateModule(node)
  }
}

export class AppModules {
  readonly runner: ModuleRunner
  private readonly graph = new SwapModules()
  private readonly env: DevEnvironment
  private readonly dir: (name: string) => string
  private readonly migrationsId: string
  /** Modules a failed load left behind, thrown away by the next swap. */
  private dirty = new Set<EvaluatedModuleNode>()

  constructor(vite: ViteDevServer, hot: DevHot) {
    this.env = vite.environments[APP_ENVIRONMENT]!
    const root = vite.config.root
    this.dir = (name) => resolve(root, name) + sep
    this.migrationsId = resolve(root, MIGRATIONS_MODULE)
    // hmr off: swaps are driven from here, not by Vite's HMR payloads; the evaluator gives each
    // module dev-hot.ts's `import.meta.hot`.
    this.runner = devAppRunner(vite, { hmr: false, evaluator: hot.evaluator, evaluatedModules: this.graph })
  }

  /** Whether the app evaluated a module of this file. */
  has(file: string): boolean {
    return Boolean(this.graph.getModulesByFile(file)?.size)
  }

  /**
   * Throws away what `changes` touch (every module with `'all'`); returns the files whose
   * evaluations went, for dev-hot.ts to dispose once the new ones are in.
   */
  invalidate(changes: Changes | 'all'): Set<string> {
    const seeds = new Set<EvaluatedModuleNode | undefined>(this.dirty)
    this.dirty.clear()
    if (changes === 'all') {
      for (const node of this.graph.idToModuleMap.values()) seeds.add(node)
      for (const [file, modules] of this.env.moduleGraph.fileToModulesMap) {
        if (file.startsWith(this.dir('src'))) for (const mod of modules) this.env.moduleGraph.invalidateModule(mod)
      }
      this.retransform(`\0${APP_ENTRY}`)
      this.retransform(this.migrationsId)
    } else {
      for (const [file, event] of changes) {
        for (const mod of this.env.moduleGraph.getModulesByFile(file) ?? []) this.env.moduleGraph.invalidateModule(mod)
        for (const node of this.graph.getModulesByFile(file) ?? []) seeds.add(node)
        if (event === 'change') continue
        // A file added or removed: the globs that list it.
        if (file.startsWith(this.dir(ROUTES_DIR)) || file.startsWith(this.dir(CONTROLLERS_DIR)))
          seeds.add(this.retransform(`\0${APP_ENTRY}`))
        if (file.startsWith(this.dir('src/migrations'))) seeds.add(this.retransform(this.migrationsId))
      }
    }
    const thrown = new Set<string>()
    const queue = [...seeds].filter((n): n is EvaluatedModuleNode => n !== undefined)
    const seen = new Set<EvaluatedModuleNode>()
    for (let node = queue.pop(); node; node = queue.pop()) {
      if (seen.has(node)) continue
      seen.add(node)
      this.graph.invalidate(node)
      thrown.add(node.file ?? node.id)
      for (const id of node.importers) {
        const importer = this.graph.getModuleById(id)
        if (importer) queue.push(importer)
      }
    }
    return thrown
  }

  /** Imports the app entry: what was thrown away is evaluated again, the rest reused. */
  entry(): Promise<AppEntry> {
    return appEntry(this.load)
  }

  /** Loads a module through the app's runner (its evaluation is the app's). */
  load: ImportModule = (file) => this.runner.import(file)

  /** A load failed: what it threw away and what it evaluated are thrown away again next time. */
  failed(thrown: Iterable<string>, evaluated: Iterable<string>): void {
    for (const file of [...thrown, ...evaluated])
      for (const node of this.graph.getModulesByFile(file) ?? []) this.dirty.add(node)
  }

  /** The files of the modules evaluated (some perhaps thrown away since). */
  files(): string[] {
    return [...this.graph.fileToModulesMap.keys()]
  }

  close(): Promise<void> {
    return this.runner.close()
  }

  /** Drops a module's transform in Vite's graph; returns its runner node, if evaluated. */
  private retransform(id: string): EvaluatedModuleNode | undefined {
    const mod = this.env.moduleGraph.getModuleById(id)
    if (mod) this.env.moduleGraph.invalidateModule(mod)
    return this.graph.getModuleById(id)
  }
}
