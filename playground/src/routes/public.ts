import { defineRoutes } from 'vela'
import * as health from '../controllers/health_controller.ts'

export default defineRoutes([
  { prefix: '', security: false, routes: [['/heartbeat', health.heartbeat, { methods: ['get'] }]] },
  { prefix: '/api', security: false, routes: [['/info', health.info, { methods: ['get'] }]] },
])
