// The playground on embedded PGlite (its default), as `vela serve` runs it: every route and
// the error answers over HTTP (the case list is shared with the PostgreSQL suite).
// Every exchange is recorded, and the last case checks each documented reply against the
// OpenAPI document the server serves (support/openapi-conformance.ts).
import { readFileSync } from 'node:fs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { recordFetch } from './support/exchange-recorder.ts'
import { documentedResponsesCase } from './support/openapi-conformance.ts'
import { playgroundCases } from './support/playground-cases.ts'
import type { Playground } from './support/playground.ts'
import { startPlayground } from './support/playground.ts'

describe('the playground on PGlite', () => {
  let server: Playground
  let recorder: ReturnType<typeof recordFetch> | undefined
  // Generous: the first start migrates embedded PGlite, slow on a busy machine.
  beforeAll(async () => {
    server = await startPlayground()
    recorder = recordFetch()
  }, 240_000)
  afterAll(() => {
    recorder?.restore()
    return server?.stop()
  })
  // `vela serve` re-executes itself so that V8 compiles PostgreSQL's WebAssembly with its baseline
  // compiler only (vite-plugin/bin.mjs): about half the memory at start. /proc shows the flags.
  it.runIf(process.platform === 'linux')('vela serve runs with V8 flag --liftoff-only', () => {
    const argv = readFileSync(`/proc/${server.pid}/cmdline`, 'utf8').split('\0')
    expect(argv).toContain('--liftoff-only')
    expect(argv.slice(argv.indexOf('--liftoff-only'))).toEqual(expect.arrayContaining(['serve']))
  })
  playgroundCases(() => server)
  documentedResponsesCase(
    () => server,
    async () => {
      await recorder!.settled()
      recorder!.restore()
      return [...recorder!.exchanges]
    },
  )
})
