// The playground on embedded PGlite (its default), as `vela serve` runs it: every row of spec
// §4.3 and the error rows of §7 over HTTP (the case list is shared with the PostgreSQL suite).
import { afterAll, beforeAll, describe } from 'vitest'
import { playgroundCases } from './support/playground-cases.ts'
import type { Playground } from './support/playground.ts'
import { startPlayground } from './support/playground.ts'

describe('the playground on PGlite', () => {
  let server: Playground
  beforeAll(async () => {
    server = await startPlayground()
  })
  afterAll(() => server?.stop())
  playgroundCases(() => server)
})
