import { defineApp, securityHeaders } from 'vela'
import { migrate } from 'vela/dbl'
// src/migrations/*, compiled in by vela/vite: the built server migrates without the source files.
import { migrations } from 'virtual:vela/migrations'
import { repo } from './repo.ts'

// Routes (src/routes), controllers (src/controllers) and jobs (src/jobs) are found by vela/vite.
export default defineApp({
  bootstrapApplication: 'signups',
  onResponse: [securityHeaders()],
  // Up to 5 runs at once in each process; an idle worker looks for runs every second.
  jobs: { concurrency: 5, pollInterval: 1000 },
  async start() {
    await repo.start()
    await migrate(repo, migrations)
  },
  stop: () => repo.stop(),
})
