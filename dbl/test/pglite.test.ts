import { describe } from 'vitest'
import { createPgliteAdapter } from '../adapters/pglite.ts'
import { repoCases } from './repo-cases.ts'

// One in-memory PGlite for the whole file: starting one takes seconds.
describe('repository on PGlite (in memory)', () => {
  repoCases(async () => {
    const adapter = await createPgliteAdapter()
    return { adapter, close: () => adapter.close() }
  })
})
