// The app page's route list: each route's method as its path string names it, `*` for ALL,
// GET for static-file and WebSocket routes; the audit's findings from the same methods.
import { expect, it } from 'vitest'
import { createApp } from '../../server/app/create-app.ts'
import { json } from '../../server/replies.ts'
import { staticDir } from '../../server/static/static-dir.ts'
import { defineWebSocket } from '../../server/websocket/define.ts'
import { appPage } from './app-page.ts'

it('lists each route with the method of its path string', () => {
  const app = createApp(
    {
      bootstrapApplication: 'page',
      routes: {
        'src/routes/r.ts': {
          prefix: '/api',
          security: false,
          routes: [
            ['GET /notes', () => json([])],
            ['POST /notes', () => json({})],
            ['ALL /hooks', () => json({})],
            ['/docs/[...]', staticDir('priv/assets')],
            ['/ws', defineWebSocket({}), { protocol: 'ws' }],
          ],
        },
      },
    },
    { env: {} },
  )
  const page = appPage(app)
  expect(page.groups[0]!.routes.map((r) => `${r.methodLabel} ${r.path} ${r.kind}`)).toEqual([
    'GET /api/notes http',
    'POST /api/notes http',
    '* /api/hooks http',
    'GET /api/docs/[...] static',
    'GET /api/ws ws',
  ])
  expect(page.findings.warnings.map((f) => `${f.method} ${f.path}`)).toEqual(['POST /api/notes', '* /api/hooks'])
})
