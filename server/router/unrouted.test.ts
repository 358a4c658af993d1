// Requests no route takes (404: no route has the path; 405: none has the method) get the status
// route of the most specific group whose prefix holds the path, else the built-in page.
import { expect, it } from 'vitest'
import { describeModes } from '../../test/support/modes.ts'
import type { VelaRequest } from '../request.ts'
import { json, status } from '../replies.ts'

const page = (name: string) => (req: VelaRequest) => json({ page: name, path: req.path, route: req.route, allow: null })
const notAllowed = (req: VelaRequest) => json(405, {}, { page: 'api 405', path: req.path })

describeModes(
  'unrouted requests',
  {
    bootstrapApplication: 'unrouted',
    routes: {
      'src/routes/r.ts': [
        {
          prefix: '',
          security: false,
          routes: [
            ['GET /home', () => status(200)],
            [404, page('root 404')],
          ],
        },
        {
          prefix: '/api',
          security: false,
          routes: [
            ['GET /notes', () => status(200)],
            [404, page('api 404')],
            [405, notAllowed],
          ],
        },
        { prefix: '/api/admin', security: false, routes: [[404, page('admin 404')]] },
        { prefix: '/plain', security: false, routes: [['GET /x', () => status(200)]] },
      ],
    },
    controllers: {},
  },
  (t) => {
    it('a 404 is the status route of the longest prefix holding the path', async () => {
      expect(await (await t.request('/api/admin/users')).json()).toMatchObject({ page: 'admin 404' })
      expect(await (await t.request('/api/nothing')).json()).toMatchObject({ page: 'api 404' })
      expect(await (await t.request('/apix')).json()).toMatchObject({ page: 'root 404' })
      const res = await t.request('/nothing')
      expect(res.status).toBe(404)
      expect(await res.json()).toEqual({
        page: 'root 404',
        path: '/nothing',
        route: { path: '/nothing', prefix: '', controller: 'routes/r', action: 'anonymous' },
        allow: null,
      })
    })
    it('a 405 is the status route for 405 when a group has one', async () => {
      const res = await t.request({ method: 'POST', url: '/api/notes' })
      expect(res.status).toBe(405)
      expect(await res.json()).toEqual({ page: 'api 405', path: '/api/notes' })
    })
    it('else the built-in page', async () => {
      const res = await t.request({ method: 'DELETE', url: '/plain/x' })
      expect([res.status, res.headers.get('allow')]).toEqual([405, 'GET, HEAD'])
      expect(await res.json()).toEqual({ error: 'Method Not Allowed' })
      const home = await t.request({ method: 'PUT', url: '/home' })
      expect(home.status).toBe(405)
    })
  },
)
