/**
 * Records how long each test file took, from the moment a worker starts it to its end (its
 * hooks, builds and servers included), into test/support/durations.json, which the sequencer
 * (sequencer.ts) orders the files by. On in vitest.config.ts when VELA_RECORD_DURATIONS=1; a run
 * of some files only updates theirs. Record from a whole run on a quiet machine.
 */
import { writeFileSync } from 'node:fs'
import { relative } from 'node:path'
import type { Reporter, TestModule, Vitest } from 'vitest/node'
import { DURATIONS, recordedDurations } from './sequencer.ts'

export default class DurationsReporter implements Reporter {
  private root = ''
  private readonly started = new Map<string, number>()
  private readonly seconds = new Map<string, number>()

  onInit(ctx: Vitest): void {
    this.root = ctx.config.root
  }

  onTestModuleStart(module: TestModule): void {
    this.started.set(module.moduleId, performance.now())
  }

  onTestModuleEnd(module: TestModule): void {
    const start = this.started.get(module.moduleId)
    if (start === undefined || module.state() !== 'passed') return
    this.seconds.set(relative(this.root, module.moduleId), Math.round((performance.now() - start) / 100) / 10)
  }

  onTestRunEnd(): void {
    const all = recordedDurations()
    for (const [file, s] of this.seconds) all[file] = s
    const sorted = Object.entries(all).sort(([a, x], [b, y]) => y - x || a.localeCompare(b))
    writeFileSync(DURATIONS, `${JSON.stringify(Object.fromEntries(sorted), null, 2)}\n`)
  }
}
