import { describe } from 'vitest'
import { createPgAdapter } from '../adapters/pg.ts'
import { freshPostgresDatabase, serviceAvailable } from '../../test/support/services.ts'
import { repoCases } from './repo-cases.ts'

const available = await serviceAvailable('postgres')

// A fresh database per run, dropped afterwards, so runs never see each other's rows.
describe.skipIf(!available)('repository on PostgreSQL (fresh database)', () => {
  repoCases(async () => {
    const db = await freshPostgresDatabase('vela_test')
    const adapter = createPgAdapter({ url: db.url, poolSize: 4 })
    return {
      adapter,
      url: db.url,
      async close() {
        await adapter.close()
        await db.drop()
      },
    }
  })
})
