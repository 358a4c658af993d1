// The playground on PostgreSQL (DATABASE_URL set), in a fresh database migrated at start: the same
// case list as on PGlite (test/support/playground-cases.ts).
import { afterAll, beforeAll, describe } from 'vitest'
import { playgroundCases } from './support/playground-cases.ts'
import type { Playground } from './support/playground.ts'
import { startPlayground } from './support/playground.ts'
import { freshPostgresDatabase, serviceAvailable } from './support/services.ts'

const available = await serviceAvailable('postgres')

describe.skipIf(!available)('the playground on PostgreSQL', () => {
  let server: Playground
  let database: Awaited<ReturnType<typeof freshPostgresDatabase>>
  beforeAll(async () => {
    database = await freshPostgresDatabase('vela_playground')
    server = await startPlayground({ databaseUrl: database.url })
  })
  afterAll(async () => {
    await server?.stop()
    await database?.drop()
  })
  playgroundCases(() => server)
})
