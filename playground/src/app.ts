import { fileURLToPath } from 'node:url'
import { defineApp } from 'vela'
import { loadMigrations, migrate } from 'vela/dbl'
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
    await migrate(repo, await loadMigrations(fileURLToPath(new URL('./migrations', import.meta.url))))
  },
  stop: () => repo.stop(),
})
