import { defineApp } from 'vela'
import { migrate } from 'vela/dbl'
import * as health_controller from './controllers/health_controller.ts'
import * as products_controller from './controllers/products_controller.ts'
import { repo } from './repo.ts'
import apiRoutes from './routes/api.ts'
import publicRoutes from './routes/public.ts'

// The Vite plugin discovers src/routes and src/controllers by itself (vite-plugin/discover.ts);
// listing them here too, keyed by file path as discovery keys them, keeps the app loadable
// without Vite (in-process tests, plain node).
export default defineApp({
  bootstrapApplication: 'playground',
  routes: { 'src/routes/public.ts': publicRoutes, 'src/routes/api.ts': apiRoutes },
  controllers: {
    'src/controllers/health_controller.ts': health_controller,
    'src/controllers/products_controller.ts': products_controller,
  },
  async start() {
    await repo.start()
    // src/migrations compiled in by vela/vite, so a built server (`vela release`) migrates too.
    // Imported here, not at the top: the CLI loads this file with node, where it does not exist.
    const { migrations } = await import('virtual:vela/migrations')
    await migrate(repo, migrations)
  },
  stop: () => repo.stop(),
})
