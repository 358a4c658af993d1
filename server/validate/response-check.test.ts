// Replies checked against the route's declared schemas: logged in dev, a 500 in test, nothing in prod.
import * as v from 'valibot'
import { expect, it } from 'vitest'
import { describeModes } from '../../test/support/modes.ts'
import type { AppConfig } from '../app/config.ts'
import { createApp } from '../app/create-app.ts'
import { json, status } from '../replies.ts'
import type { VelaRequest } from '../request.ts'

const schemas = {
  product: {
    type: 'object',
    required: ['id', 'name'],
    properties: { id: { type: 'integer' }, name: { type: 'string' } },
  },
  products: { type: 'array', items: { $ref: 'product.json' } },
  // A record as the database layer reads it: `inserted_at` is a Date until it is encoded.
  item: {
    type: 'object',
    required: ['id', 'inserted_at'],
    properties: { id: { type: 'integer' }, inserted_at: { type: 'string', format: 'date-time' } },
  },
}
const notFound = v.object({ error: v.string() })

// `?bad` makes each handler break its contract.
const bad = (req: VelaRequest) => req.query.bad !== undefined
const config = (responses: Record<number, string | typeof notFound>): AppConfig => ({
  bootstrapApplication: 'replies',
  routes: {
    api: {
      prefix: '/api',
      security: false,
      routes: [
        [
          'GET /products',
          (req) => json([{ id: 1, name: 'a' }, bad(req) ? { id: '2', name: 'b' } : { id: 2, name: 'b' }]),
          { validate: { response: 'products' } },
        ],
        [
          'GET /products/:id',
          (req) =>
            req.bindings.id === '1'
              ? json({ id: 1, name: 'a' })
              : status(404, bad(req) ? { message: 'gone' } : { error: 'Not Found' }),
          { responses },
        ],
        ['GET /text', () => status(200, 'plain text is not JSON: not checked'), { validate: { response: 'product' } }],
        [
          'GET /items/1',
          (req) => json({ id: 1, inserted_at: bad(req) ? 'yesterday' : new Date('2026-01-02T03:04:05Z') }),
          { responses: { 200: 'item' } },
        ],
      ],
    },
  },
})
const responses = { 200: 'product', 404: notFound }

describeModes(
  'response checks in dev',
  config(responses),
  (t) => {
    it('a reply that matches is sent, nothing logged', async () => {
      expect((await t.request('/api/products')).status).toBe(200)
      expect((await t.request('/api/products/2')).status).toBe(404)
    })
    it('a mismatch is sent as it is and logged with the route, the status and the path of the first mismatch', async () => {
      t.expectLogged(
        /^warning: response check: GET \/api\/products \(routes\/api\.anonymous\) replied 200 with a body that does not match its schema, at 1\.id: must be integer$/,
      )
      const res = await t.request('/api/products?bad')
      expect(res.status).toBe(200)
      expect(await res.json()).toEqual([
        { id: 1, name: 'a' },
        { id: '2', name: 'b' },
      ])
    })
    it('responses[status] is checked for that status, with a Standard Schema too', async () => {
      t.expectLogged(/replied 404 with a body that does not match its schema, at error: /)
      expect((await t.request('/api/products/2?bad')).status).toBe(404)
    })
    it('a reply without a JSON body is not checked', async () => {
      expect((await t.request('/api/text')).status).toBe(200)
    })
  },
  { schemas },
)

describeModes(
  'response checks in test',
  config(responses),
  (t) => {
    it('a reply that matches is sent', async () => {
      expect((await t.request('/api/products/1')).status).toBe(200)
    })
    it('a mismatch fails the request: a 500 naming the mismatch', async () => {
      t.expectLogged(/response check failed: GET \/api\/products .* at 1\.id: must be integer/)
      const res = await t.request('/api/products?bad')
      expect(res.status).toBe(500)
      expect((await res.json()).error).toBe(
        'Response check failed: GET /api/products (routes/api.anonymous) replied 200 with a body that does not match its schema, at 1.id: must be integer',
      )
    })
    it('the body is checked as the client receives it: a Date is its ISO string, a date-time', async () => {
      const res = await t.request('/api/items/1')
      expect(res.status).toBe(200)
      expect(await res.json()).toEqual({ id: 1, inserted_at: '2026-01-02T03:04:05.000Z' })
      t.expectLogged(/replied 200 with a body that does not match its schema, at inserted_at: must match format/)
      expect((await t.request('/api/items/1?bad')).status).toBe(500)
    })
    it('a mismatch of a Standard Schema for a 404 fails too', async () => {
      t.expectLogged(/replied 404 with a body that does not match its schema/)
      expect((await t.request('/api/products/2?bad')).status).toBe(500)
    })
  },
  { schemas, env: { VELA_ENV: 'test' } },
)

describeModes(
  'response checks in prod',
  // A name no file has: prod compiles no response schema, so the app starts.
  config({ ...responses, 200: 'no-such-schema' }),
  (t) => {
    it('nothing is checked: a mismatch is sent as it is and nothing is logged', async () => {
      const res = await t.request('/api/products?bad')
      expect(res.status).toBe(200)
      expect(await res.json()).toEqual([
        { id: 1, name: 'a' },
        { id: '2', name: 'b' },
      ])
      expect((await t.request('/api/products/2?bad')).status).toBe(404)
    })
  },
  { schemas, env: { VELA_ENV: 'prod' } },
)

it('in dev an unknown response schema stops the start, naming the route', () => {
  expect(() => createApp(config({ 200: 'no-such-schema' }), { env: {}, schemas })).toThrow(
    /api group 0 route 1 \(\/api\/products\/:id\): responses\[200\] names priv\/schemas\/no-such-schema\.json, which does not exist \(known: product, products, item\)/,
  )
})
