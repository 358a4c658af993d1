import { defineApp, requestPlugin } from 'vela'
import * as health_controller from './controllers/health_controller.ts'
import publicRoutes from './routes/public.ts'

// Until the Vite plugin discovers src/routes and src/controllers, the app lists them here, keyed
// by file path exactly as import.meta.glob would.
export default defineApp({
  bootstrapApplication: 'playground',
  plugins: [['pre_request', requestPlugin, { decodeJsonBody: true, readUrlencodedBody: true }]],
  routes: { 'src/routes/public.ts': publicRoutes },
  controllers: { 'src/controllers/health_controller.ts': health_controller },
})
