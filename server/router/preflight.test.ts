// An OPTIONS request to a path whose routes do not name OPTIONS runs the group's pre-request
// plugins without its security callback (a CORS preflight carries no credentials); when no
// plugin answers it, it is the path's 405 with allow.
import { expect, it } from 'vitest'
import { describeModes } from '../../test/support/modes.ts'
import { definePlugin, ok, stop } from '../pipeline/plugin.ts'
import { json, status } from '../replies.ts'

const answersPreflights = definePlugin({
  name: 'answers-preflights',
  info: { title: '', version: '', author: '', description: '', options: {} },
  preRequest: (req) => (req.method === 'OPTIONS' ? stop(status(204, { 'x-preflight': req.route.path }, '')) : ok()),
})

describeModes(
  'preflight',
  {
    bootstrapApplication: 'preflight',
    routes: {
      r: [
        {
          prefix: '/api',
          security: () => false,
          plugins: [answersPreflights()],
          routes: [
            ['GET /notes', () => json({ notes: [] })],
            ['POST /notes', () => json({ created: true })],
          ],
        },
        { prefix: '/plain', security: () => false, plugins: [], routes: [['PUT /x', () => status(200)]] },
        { prefix: '/own', security: false, plugins: [], routes: [['OPTIONS /x', () => json({ own: true })]] },
      ],
    },
  },
  (t) => {
    it("goes through the group's plugins, not its security callback", async () => {
      const res = await t.request({ method: 'OPTIONS', url: '/api/notes' })
      expect(res.status).toBe(204)
      expect(res.headers.get('x-preflight')).toBe('/api/notes')
      // The same path with a method it has: the security callback refuses (401).
      expect((await t.request('/api/notes')).status).toBe(401)
    })
    it('when no plugin answers it: 405 with allow', async () => {
      const res = await t.request({ method: 'OPTIONS', url: '/plain/x' })
      expect([res.status, res.headers.get('allow')]).toEqual([405, 'PUT'])
    })
    it('a route that names OPTIONS answers it itself', async () => {
      expect(await (await t.request({ method: 'OPTIONS', url: '/own/x' })).json()).toEqual({ own: true })
    })
  },
)
