import { defineApp } from 'vela'
import { migrate } from 'vela/dbl'
// src/migrations compiled in by vela/vite, so a built server (`vela release`) migrates too. The CLI
// loads the app through Vite as `vela serve` does, so a virtual module can be imported here.
import { migrations } from 'virtual:vela/migrations'
import * as health_controller from './controllers/health_controller.ts'
import * as products_controller from './controllers/products_controller.ts'
import { repo } from './repo.ts'
import apiRoutes from './routes/api.ts'
import publicRoutes from './routes/public.ts'

// The Vite plugin discovers src/routes and src/controllers by itself (vite-plugin/discover.ts);
// listing them here too, keyed by file path as discovery keys them, adds nothing twice and keeps
// the groups in the order written (public first).
export default defineApp({
  bootstrapApplication: 'playground',
  routes: { 'src/routes/public.ts': publicRoutes, 'src/routes/api.ts': apiRoutes },
  controllers: {
    'src/controllers/health_controller.ts': health_controller,
    'src/controllers/products_controller.ts': products_controller,
  },
  async start() {
    await repo.start()
    await migrate(repo, migrations)
  },
  stop: () => repo.stop(),
})
