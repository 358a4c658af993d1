import { describe } from 'vitest'
import { defineRepo } from '../../dbl/repo.ts'
import { jobCases } from './cases.ts'

describe('jobs on embedded PGlite', () => {
  jobCases(async () => {
    const repo = defineRepo({ url: 'memory:' })
    await repo.start()
    return { repo, close: () => repo.stop() }
  })
})
