// Route validation with JSON Schemas: coercion of query and path values, field paths in the 422,
// 415 for bodies the route cannot read, and the handler not running when the request fails.
import { expect, it } from 'vitest'
import { describeModes } from '../../test/support/modes.ts'
import { requestPlugin } from '../plugins/request.ts'
import { json } from '../replies.ts'
import type { VelaRequest } from '../request.ts'

const schemas = {
  filters: {
    type: 'object',
    properties: {
      limit: { type: 'integer', minimum: 1, maximum: 100, default: 20 },
      offset: { type: 'integer', minimum: 0, default: 0 },
      done: { type: 'boolean' },
      tag: { type: 'array', items: { type: 'string' } },
    },
    additionalProperties: false,
  },
  id: { type: 'object', properties: { id: { type: 'integer', minimum: 1 } }, required: ['id'] },
  order: {
    type: 'object',
    required: ['customer', 'items'],
    properties: {
      customer: { type: 'string', minLength: 1 },
      items: { type: 'array', minItems: 1, items: { $ref: 'line.json' } },
    },
  },
  line: {
    type: 'object',
    required: ['sku', 'qty'],
    properties: { sku: { type: 'string' }, qty: { type: 'integer', minimum: 1 } },
  },
  login: {
    type: 'object',
    required: ['email', 'password'],
    properties: { email: { type: 'string', format: 'email' }, password: { type: 'string', minLength: 8 } },
  },
  tenant: { type: 'object', required: ['x-tenant'], properties: { 'x-tenant': { type: 'integer' } } },
}

let handled = 0
const echo = (req: VelaRequest) => {
  handled++
  return json({ query: req.query, bindings: req.bindings, json: req.json ?? null, params: req.params })
}

describeModes(
  'route validation with JSON Schemas',
  {
    bootstrapApplication: 'validate',
    routes: {
      api: [
        {
          prefix: '/api',
          security: false,
          plugins: [requestPlugin({ json: true, urlencoded: true })],
          routes: [
            ['GET /items', echo, { validate: { query: 'filters' } }],
            ['GET /items/:id', echo, { validate: { params: 'id' } }],
            ['POST /orders', echo, { validate: { body: 'order' } }],
            ['POST /login', echo, { validate: { body: 'login' } }],
            ['GET /tenant', echo, { validate: { headers: 'tenant' } }],
          ],
        },
        // No request plugin: the route reads its body itself.
        {
          prefix: '/raw',
          security: false,
          routes: [['POST /orders', echo, { validate: { body: 'order' } }]],
        },
      ],
    },
  },
  (t) => {
    it('coerces query values to the schema types: integers, booleans, arrays from repeated keys, defaults filled in', async () => {
      const res = await t.request('/api/items?limit=5&done=true&tag=a&tag=b')
      expect(res.status).toBe(200)
      expect((await res.json()).query).toEqual({ limit: 5, offset: 0, done: true, tag: ['a', 'b'] })
      const one = await t.request('/api/items?tag=solo&done=false')
      expect((await one.json()).query).toEqual({ limit: 20, offset: 0, done: false, tag: ['solo'] })
    })
    it('answers 422 with every query problem, before the handler runs', async () => {
      const before = handled
      const res = await t.request('/api/items?limit=lots&offset=-1&sort=name')
      expect(res.status).toBe(422)
      expect(await res.json()).toEqual({
        errors: { limit: ['must be integer'], offset: ['must be >= 0'], sort: ['is not allowed'] },
      })
      expect(handled).toBe(before)
    })
    it('coerces path parameters', async () => {
      const res = await t.request('/api/items/42')
      expect(res.status).toBe(200)
      expect((await res.json()).bindings).toEqual({ id: 42 })
      const bad = await t.request('/api/items/abc')
      expect(bad.status).toBe(422)
      expect(await bad.json()).toEqual({ errors: { id: ['must be integer'] } })
    })
    it('checks headers by lowercase name, coerced', async () => {
      expect((await t.request({ url: '/api/tenant', headers: { 'X-Tenant': '7' } })).status).toBe(200)
      const res = await t.request('/api/tenant')
      expect(res.status).toBe(422)
      expect(await res.json()).toEqual({ errors: { 'x-tenant': ["can't be blank"] } })
    })
    it('gives nested field paths for body errors (a $ref to another schema file included)', async () => {
      const before = handled
      const res = await t.request({
        method: 'POST',
        url: '/api/orders',
        body: { customer: '', items: [{ sku: 'a', qty: 1 }, { sku: 'b', qty: 0 }, { qty: '2' }] },
      })
      expect(res.status).toBe(422)
      expect(await res.json()).toEqual({
        errors: {
          customer: ['must NOT have fewer than 1 characters'],
          'items.1.qty': ['must be >= 1'],
          'items.2.sku': ["can't be blank"],
          'items.2.qty': ['must be integer'],
        },
      })
      expect(handled).toBe(before)
    })
    it('passes a valid body to the handler as req.json and req.params', async () => {
      const order = { customer: 'ada', items: [{ sku: 'a', qty: 2 }] }
      const res = await t.request({ method: 'POST', url: '/api/orders', body: order })
      expect(res.status).toBe(200)
      expect(await res.json()).toMatchObject({ json: order, params: order })
    })
    it('checks form bodies too, with formats', async () => {
      const res = await t.request({
        method: 'POST',
        url: '/api/login',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: 'email=nope&password=short',
      })
      expect(res.status).toBe(422)
      expect(await res.json()).toEqual({
        errors: { email: ['must match format "email"'], password: ['must NOT have fewer than 8 characters'] },
      })
      const ok = await t.request({
        method: 'POST',
        url: '/api/login',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: 'email=a%40b.io&password=long-enough',
      })
      expect(ok.status).toBe(200)
      expect((await ok.json()).params).toEqual({ email: 'a@b.io', password: 'long-enough' })
    })
    it('answers 422 for a missing body, with the error on the body itself ("")', async () => {
      const res = await t.request({ method: 'POST', url: '/raw/orders' })
      expect(res.status).toBe(422)
      expect(await res.json()).toEqual({ errors: { '': ['a request body is required'] } })
    })
    it('reads a JSON body itself when no plugin decoded it', async () => {
      const res = await t.request({
        method: 'POST',
        url: '/raw/orders',
        body: { customer: 'ada', items: [{ sku: 'a', qty: 1 }] },
      })
      expect(res.status).toBe(200)
      expect((await res.json()).json).toEqual({ customer: 'ada', items: [{ sku: 'a', qty: 1 }] })
      const malformed = await t.request({
        method: 'POST',
        url: '/raw/orders',
        headers: { 'content-type': 'application/json' },
        body: '{"customer":',
      })
      expect(malformed.status).toBe(400)
    })
    it('answers 415 for a body that is neither JSON nor a form, before the handler runs', async () => {
      const before = handled
      const res = await t.request({
        method: 'POST',
        url: '/raw/orders',
        headers: { 'content-type': 'text/plain' },
        body: 'customer=ada',
      })
      expect(res.status).toBe(415)
      expect((await res.json()).error).toMatch(/content type text\/plain is not accepted here/)
      expect(handled).toBe(before)
    })
  },
  { schemas },
)
