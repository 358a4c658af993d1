// The app's `onResponse` hooks: what they are told (status, route, request facts, scheme), what
// they may change (headers of encoded replies and of Responses), their order, and a hook that
// throws (logged, the reply still sent). The same cases in process and over node's listener.
import { expect, it } from 'vitest'
import { createApp } from '../app/create-app.ts'
import { isVelaError } from '../errors/vela-error.ts'
import type { AppConfig } from '../contracts/config.ts'
import type { OutgoingResponse } from '../contracts/response.ts'
import { json, view } from '../replies.ts'
import { describeModes } from '../../test/support/modes.ts'

const seen: string[] = []

const config: AppConfig = {
  bootstrapApplication: 'hooks',
  onResponse: [
    function record(res: OutgoingResponse) {
      seen.push(
        `${res.status} ${res.request.method} ${res.request.path} ${res.route?.path ?? '-'} ${res.scheme} ${res.header('Content-Type') ?? '-'}`,
      )
    },
    function tag(res: OutgoingResponse) {
      res.setHeader('X-Served-By', 'vela')
      res.setDefaults({ 'x-default': 'from-hook', 'x-mine': 'from-hook' })
      if (res.header('x-drop')) res.removeHeader('X-Drop')
      if (res.request.path === '/broken-hook') throw new Error('hook broke')
    },
    function after(res: OutgoingResponse) {
      res.setHeader('x-after', res.header('x-served-by') ?? 'missing')
    },
  ],
  routes: {
    r: {
      prefix: '',
      security: false,
      routes: [
        ['GET /json', () => json({ ok: true }, { headers: { 'x-mine': 'handler', 'x-drop': '1' } })],
        ['GET /response', () => new Response('text', { headers: { 'x-mine': 'handler', 'x-drop': '1' } })],
        ['GET /page', () => view('missing')],
        ['GET /broken-hook', () => json({ ok: true })],
      ],
    },
  },
}

describeModes('onResponse hooks', config, (t) => {
  it('see the status, the route and the request; change the headers of an encoded reply', async () => {
    seen.length = 0
    const res = await t.request('/json')
    expect(await res.json()).toEqual({ ok: true })
    expect(seen).toEqual(['200 GET /json /json http application/json; charset=utf-8'])
    expect([
      res.headers.get('x-served-by'),
      res.headers.get('x-default'),
      res.headers.get('x-mine'),
      res.headers.get('x-drop'),
      res.headers.get('x-after'),
    ]).toEqual(['vela', 'from-hook', 'handler', null, 'vela'])
  })

  it('change the headers of a Response the handler made', async () => {
    const res = await t.request('/response')
    expect(await res.text()).toBe('text')
    expect([
      res.headers.get('x-served-by'),
      res.headers.get('x-default'),
      res.headers.get('x-mine'),
      res.headers.get('x-drop'),
    ]).toEqual(['vela', 'from-hook', 'handler', null])
  })

  it('see replies no route made: a 404 has no route', async () => {
    seen.length = 0
    const res = await t.request('/nowhere')
    expect(res.status).toBe(404)
    expect(seen).toEqual(['404 GET /nowhere - http application/json; charset=utf-8'])
    expect(res.headers.get('x-served-by')).toBe('vela')
  })

  it('see a 500 of a failed view', async () => {
    t.expectLogged(/500 on GET \/page/)
    const res = await t.request('/page')
    expect(res.status).toBe(500)
    expect(res.headers.get('x-served-by')).toBe('vela')
  })

  it('a hook that throws is logged by name; the reply goes out with the changes made before, and later hooks run', async () => {
    t.expectLogged(/onResponse hook tag failed on GET \/broken-hook: Error: hook broke/)
    const res = await t.request('/broken-hook')
    expect(res.status).toBe(200)
    expect(await res.json()).toEqual({ ok: true })
    expect([res.headers.get('x-served-by'), res.headers.get('x-after')]).toEqual(['vela', 'vela'])
  })
})

it('onResponse must be a list of functions (VELA_ERR_CONFIG)', () => {
  for (const bad of [{}, ['x'], () => {}]) {
    let error: unknown
    try {
      createApp({ bootstrapApplication: 'x', onResponse: bad as never }, { env: {} })
    } catch (err) {
      error = err
    }
    expect(isVelaError(error, 'VELA_ERR_CONFIG')).toBe(true)
    expect((error as Error).message).toContain('onResponse must be a list of functions')
  }
})
