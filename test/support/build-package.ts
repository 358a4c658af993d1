// vitest global setup: compiles the package into dist/ before any test runs, so fixture apps and
// the `vela` binary, which import `vela` through the package's exports (dist/), run the sources
// under test and never a stale build.
import { execFileSync } from 'node:child_process'
import { fileURLToPath } from 'node:url'

export function setup(): void {
  execFileSync(process.execPath, [fileURLToPath(new URL('../../scripts/build-package.mjs', import.meta.url))], {
    stdio: 'inherit',
  })
}
