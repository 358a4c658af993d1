import { describe } from 'vitest'
import { defineRepo } from '../../dbl/repo.ts'
import { freshPostgresDatabase, serviceAvailable } from '../../test/support/services.ts'
import { jobCases } from './cases.ts'

const available = await serviceAvailable('postgres')

describe.skipIf(!available)('jobs on PostgreSQL (fresh database)', () => {
  jobCases(async () => {
    const db = await freshPostgresDatabase('vela_jobs')
    const repo = defineRepo({ url: db.url, poolSize: 4 })
    await repo.start()
    return {
      repo,
      async close() {
        await repo.stop()
        await db.drop()
      },
    }
  })
})
