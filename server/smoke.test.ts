import { expect, it } from 'vitest'
import { describeModes } from '../test/support/modes.ts'
import { json, status } from './replies.ts'

describeModes('smoke', { bootstrapApplication: 't', routes: { r: { prefix: '', security: false, routes: [['/heartbeat', () => status(200)], ['/p/:id', (req) => json({ id: req.bindings.id })]] } } }, (t) => {
  it('works', async () => {
    const r = await t.request('/heartbeat')
    expect(r.status).toBe(200)
    expect(await r.text()).toBe('')
    const p = await t.request('/p/a%20b')
    expect(await p.json()).toEqual({ id: 'a b' })
    expect((await t.request('/nope')).status).toBe(404)
  })
})
