/**
 * The order vitest hands test files to its workers: the slowest first, by the durations
 * recorded in test/support/durations.json, so the long files (builds, installs, child vitest runs)
 * start at once and the short ones fill the end, where the workers then finish together.
 * Vitest's own order uses its results cache (node_modules/.vite/vitest), which `npm ci` empties:
 * CI would then run the files by size, and a two-minute file could start last. A file missing
 * from the list (a new one) runs first, as vitest runs unknown files first, and is recorded by the
 * next `VELA_RECORD_DURATIONS=1 npx vitest run` (durations-reporter.ts).
 */
import { readFileSync } from 'node:fs'
import { relative } from 'node:path'
import type { TestSpecification } from 'vitest/node'
import { BaseSequencer } from 'vitest/node'

/** test/support/durations.json: seconds per test file, by its path from the repo root. */
export const DURATIONS = new URL('./durations.json', import.meta.url)

/** Seconds each test file took, by its path from the repo root (durations.json). */
export function recordedDurations(): Record<string, number> {
  return JSON.parse(readFileSync(DURATIONS, 'utf8')) as Record<string, number>
}

export default class SlowestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const seconds = recordedDurations()
    const root = this.ctx.config.root
    const known = (spec: TestSpecification) => seconds[relative(root, spec.moduleId)] ?? Number.POSITIVE_INFINITY
    return [...files].sort((a, b) => known(b) - known(a) || a.moduleId.localeCompare(b.moduleId))
  }
}
