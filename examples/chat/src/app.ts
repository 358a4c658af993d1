import { defineApp, securityHeaders } from 'vela'
import { migrate } from 'vela/dbl'
// src/migrations/*, compiled in by vela/vite: the built server migrates without the source files.
import { migrations } from 'virtual:vela/migrations'
import { repo } from './repo.ts'

// Routes (src/routes/*.ts) and controllers (src/controllers/*.ts) are found by vela/vite.
// Room messages reach the sockets of this process. Behind a load balancer, several instances
// share them through Redis: `server: { websocket: { pubsub: redisPubSub({ url }) } }`.
export default defineApp({
  bootstrapApplication: 'chat',
  onResponse: [securityHeaders()],
  async start() {
    await repo.start()
    await migrate(repo, migrations)
  },
  stop: () => repo.stop(),
})
