/** Vela serving a rendered view (layout + partial + loop) and a static file. */
import { createApp, listen, staticDir, view } from '../../server/index.ts'
import { assetsDir, notes, viewsDir } from './fixtures.ts'

const app = createApp({
  bootstrapApplication: 'bench-web',
  views: { dir: viewsDir },
  routes: {
    web: {
      prefix: '',
      security: false,
      routes: [
        ['GET /notes', () => view('notes', { title: 'All notes', notes })],
        ['/assets/[...]', staticDir(assetsDir)],
      ],
    },
  },
})
await listen(app, { port: Number(process.env.PORT), host: '127.0.0.1' })
