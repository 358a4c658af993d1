// The CORS plugin: preflights answered even when the route does not list OPTIONS; headers on
// responses (errors included) for allowed origins only.
import { expect, it } from 'vitest'
import { describeModes } from '../../test/support/modes.ts'
import { json } from '../replies.ts'
import { corsPlugin } from './cors.ts'

describeModes(
  'cors plugin',
  {
    bootstrapApplication: 'cors',
    routes: {
      r: [
        {
          prefix: '/api',
          security: false,
          plugins: [corsPlugin({ allowOrigins: 'https://app.example, https://admin.example', maxAge: 600 })],
          routes: [
            ['GET /items', () => json({ items: [] })],
            ['POST /items', () => json({ created: true })],
          ],
        },
        {
          prefix: '/star',
          security: false,
          plugins: [corsPlugin({ allowOrigins: '*' })],
          routes: [['GET /', () => json({})]],
        },
      ],
    },
  },
  (t) => {
    const preflight = (url: string, origin: string) =>
      t.request({
        method: 'OPTIONS',
        url,
        headers: { origin, 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type' },
      })

    it('a preflight from an allowed origin is answered 204 though the route lists no options', async () => {
      const res = await preflight('/api/items', 'https://app.example')
      expect(res.status).toBe(204)
      expect(res.headers.get('access-control-allow-origin')).toBe('https://app.example')
      expect(res.headers.get('access-control-allow-methods')).toBe('*')
      expect(res.headers.get('access-control-max-age')).toBe('600')
    })
    it('a preflight from another origin gets no CORS headers (the browser blocks it)', async () => {
      const res = await preflight('/api/items', 'https://evil.example')
      expect(res.status).toBe(405)
      expect(res.headers.get('access-control-allow-origin')).toBeNull()
    })
    it('simple requests from allowed origins get the headers; others do not', async () => {
      const ok = await t.request({ url: '/api/items', headers: { origin: 'https://admin.example' } })
      expect(ok.status).toBe(200)
      expect(ok.headers.get('access-control-allow-origin')).toBe('https://admin.example')
      const other = await t.request({ url: '/api/items', headers: { origin: 'https://evil.example' } })
      expect(other.headers.get('access-control-allow-origin')).toBeNull()
    })
    it('allowOrigins "*" allows any origin; headers are on error responses too', async () => {
      const res = await t.request({ url: '/star', headers: { origin: 'https://x.example' } })
      expect(res.headers.get('access-control-allow-origin')).toBe('*')
      const err = await t.request({ method: 'DELETE', url: '/api/items', headers: { origin: 'https://app.example' } })
      expect(err.status).toBe(405)
    })
  },
)
