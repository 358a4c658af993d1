/**
 * What drives the dev app's swaps: Vite's watcher events (`add`, `change`, `unlink`) the dev app
 * finds relevant, collected per file and debounced, so an editor's several writes make one swap;
 * then one swap at a time, edits made during a swap being picked up by one more. `full()` asks
 * for a swap of every module (`reload()`).
 */
import { relative, resolve } from 'node:path'
import type { ViteDevServer } from 'vite'
import type { Changes, FileEvent } from './dev-modules.ts'

export interface SwapQueue {
  /** The swaps running now, if any (requests wait for them). */
  readonly running: Promise<void> | undefined
  /** Queues a swap of every module; resolves once it ran. */
  full(reason: string): Promise<void>
  /** Stops listening to the watcher (a swap in progress goes on). */
  stop(): void
}

export interface SwapQueueOptions {
  debounceMs: number
  /** Whether an event is one to swap for. */
  relevant(file: string, event: FileEvent): boolean
  /** One swap; `reason` is what it is for (the files, relative to the root). Must not throw. */
  swap(changes: Changes | 'all', reason: string): Promise<void>
}

export function watchForSwaps(vite: ViteDevServer, opts: SwapQueueOptions): SwapQueue {
  let pending = new Map<string, FileEvent>()
  let full: string | undefined
  let running: Promise<void> | undefined
  let again = false
  const run = (): Promise<void> => {
    if (running) return ((again = true), running)
    const loop = async () => {
      do {
        again = false
        const reason = full ?? [...pending.keys()].map((f) => relative(vite.config.root, f)).join(', ')
        const changes = full !== undefined ? 'all' : pending
        full = undefined
        pending = new Map()
        if (changes === 'all' || changes.size > 0) await opts.swap(changes, reason)
      } while (again)
    }
    return (running = loop().finally(() => (running = undefined)))
  }

  let timer: NodeJS.Timeout | undefined
  const listeners = (['add', 'change', 'unlink'] as const).map((event) => {
    const listener = (path: string) => {
      const file = resolve(path)
      if (!opts.relevant(file, event)) return
      // An addition or removal outweighs a change: it changes the globs listing the file.
      pending.set(file, event === 'change' ? (pending.get(file) ?? event) : event)
      clearTimeout(timer)
      timer = setTimeout(() => void run(), opts.debounceMs)
    }
    vite.watcher.on(event, listener)
    return () => vite.watcher.off(event, listener)
  })

  return {
    get running() {
      return running
    },
    full: (reason) => ((full = reason), run()),
    stop() {
      clearTimeout(timer)
      for (const off of listeners) off()
    },
  }
}
