import { defineApp, securityHeaders } from 'vela'
import { migrate } from 'vela/dbl'
// src/migrations/*, compiled in by vela/vite: the built server migrates without the source files.
import { migrations } from 'virtual:vela/migrations'
import { repo } from './repo.ts'

// Routes (src/routes/*.ts) and controllers (src/controllers/*.ts) are found by vela/vite.
export default defineApp({
  bootstrapApplication: 'bookmarks',
  // Browser security headers on every reply: no framing, no sniffing, a Content-Security-Policy
  // that allows only this origin's scripts and styles (hence the stylesheet in priv/static).
  onResponse: [securityHeaders()],
  async start() {
    await repo.start()
    await migrate(repo, migrations)
  },
  stop: () => repo.stop(),
})
