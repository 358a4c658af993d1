// The pipeline continues from whichever callback first returns a promise (server/pipeline/run.ts):
// every plugin and security result must come out the same when plugins, security and handlers are
// async, mixed with sync ones, or return a thenable that is not a native promise.
import { expect, it } from 'vitest'
import { describeModes } from '../../test/support/modes.ts'
import { httpError } from '../errors/http-error.ts'
import { json, status } from '../replies.ts'
import type { RouteGroup, SecurityCallback } from '../contracts/routes.ts'
import { breakPhase, definePlugin, fail, ok, stop } from './plugin.ts'
import type { PluginEntry } from './registration.ts'

const info = { title: 't', version: '1.0.0', author: 'tests', description: 'async test plugin', options: {} }
const tick = () => new Promise<void>((resolve) => setTimeout(resolve, 1))

/** Adds its tag to `req.params.trail`, after a timer when `async` is set. */
const trail = definePlugin<{ tag: string; async?: boolean }>({
  name: 'trail',
  info,
  preRequest(req, { options }) {
    const add = () => {
      req.params = { ...req.params, trail: [...((req.params.trail as string[]) ?? []), options.tag] }
      return ok<undefined>(req)
    }
    return options.async ? tick().then(add) : add()
  },
})
const asyncBreak = definePlugin({ name: 'async-break', info, preRequest: async (req) => breakPhase(req) })
const asyncStop = definePlugin({
  name: 'async-stop',
  info,
  preRequest: async (_r) => stop(status(429, { error: 'slow down' })),
})
const asyncFail = definePlugin({
  name: 'async-fail',
  info,
  preRequest: async (_r) => fail('queue unavailable'),
})
const rejecting = definePlugin({
  name: 'rejecting',
  info,
  preRequest: async (_r) => Promise.reject(new Error('plugin rejected')),
})
const asyncCounter = definePlugin<object, number>({
  name: 'async-counter',
  info,
  init: () => 0,
  async preRequest(req, ctx) {
    await tick()
    ctx.state += 1
    req.params = { ...req.params, count: ctx.state }
    return ok(req)
  },
})
const asyncWrap = definePlugin({
  name: 'async-wrap',
  info,
  async postRequest(req) {
    await tick()
    const reply = req.reply
    req.reply = json({ wrapped: reply && 'body' in reply ? reply.body : null }, { headers: { 'x-wrapped': 'async' } })
    return ok(req)
  },
})
const asyncPostStop = definePlugin({
  name: 'async-post-stop',
  info,
  postRequest: async (_r) => stop(status(202, { replaced: true })),
})
/** Sets a cookie through the request: it must reach the response, errors included. */
const cookie = definePlugin({
  name: 'cookie',
  info,
  preRequest(req) {
    req.setCookie('seen', 'yes')
    return ok(req)
  },
})

/** A thenable that is not a native promise (what some libraries return). */
const thenable = <T>(value: T): PromiseLike<T> => ({
  // biome-ignore lint/suspicious/noThenProperty: a thenable is what this test needs
  then: (onFulfilled, onRejected) => Promise.resolve(value).then(onFulfilled, onRejected),
})

const echo = (req: { params: Record<string, unknown>; authData: unknown }) =>
  json({ params: req.params, authData: req.authData })
const group = (prefix: string, plugins: PluginEntry[], security: false | SecurityCallback = false): RouteGroup => ({
  prefix,
  security,
  plugins,
  routes: [['GET /', echo]],
})

describeModes(
  'async pipeline',
  {
    bootstrapApplication: 'async-app',
    routes: {
      groups: [
        group('/mixed', [trail({ tag: 'sync1' }), trail({ tag: 'async', async: true }), trail({ tag: 'sync2' })]),
        group('/break', [trail({ tag: 'a', async: true }), asyncBreak(), trail({ tag: 'never' })]),
        {
          prefix: '/stop',
          security: false,
          plugins: [asyncStop()],
          routes: [
            [
              'GET /',
              () => {
                throw new Error('handler must not run')
              },
            ],
          ],
        },
        group('/fail', [asyncFail()]),
        group('/reject', [rejecting()]),
        group('/count', [asyncCounter()]),
        group('/post', [trail({ tag: 'pre', async: true }), asyncWrap()]),
        group('/post-stop', [asyncPostStop(), asyncWrap()]),
        group('/secure-object', [trail({ tag: 'p', async: true })], async () => ({ user: 'ada' })),
        group('/secure-false', [], async () => false),
        group('/secure-reply', [], async () => status(403, { error: 'admins only' })),
        group('/secure-reject', [], () => Promise.reject(new Error('auth service down'))),
        group('/secure-thenable', [], (() => thenable({ user: 'grace' })) as unknown as SecurityCallback),
        {
          prefix: '/handlers',
          security: false,
          plugins: [],
          routes: [
            ['GET /async', async () => (await tick(), json({ handled: 'async' }))],
            ['GET /thenable', (() => thenable(json({ handled: 'thenable' }))) as never],
            ['GET /reject', () => Promise.reject(new Error('handler rejected'))],
            [
              'GET /http-error',
              async () => {
                await tick()
                throw httpError(409, 'Conflict: already there')
              },
            ],
            ['GET /not-a-reply', (async () => ({ plain: 'object' })) as never],
          ],
        },
        {
          prefix: '/cookie',
          security: false,
          plugins: [cookie(), trail({ tag: 'x', async: true })],
          routes: [
            ['GET /ok', async () => json({ ok: true })],
            [
              'GET /fails',
              async () => {
                throw new Error('after the cookie')
              },
            ],
          ],
        },
      ],
    },
  },
  (t) => {
    it('plugins run in order across sync and async ones', async () => {
      expect(await (await t.request('/mixed')).json()).toEqual({
        params: { trail: ['sync1', 'async', 'sync2'] },
        authData: {},
      })
    })
    it('an async break skips the rest of the phase; an async stop sends its reply', async () => {
      expect(await (await t.request('/break')).json()).toEqual({ params: { trail: ['a'] }, authData: {} })
      const stopped = await t.request('/stop')
      expect(stopped.status).toBe(429)
      expect(await stopped.json()).toEqual({ error: 'slow down' })
    })
    it('an async fail and a rejected plugin are 500s', async () => {
      t.expectLogged(/^500 on GET \/fail .*plugin async-fail failed: queue unavailable/)
      t.expectLogged(/^500 on GET \/reject .*: Error: plugin rejected$/)
      for (const path of ['/fail', '/reject']) {
        const res = await t.request(path)
        expect(res.status, path).toBe(500)
        expect(await res.json()).toEqual({ error: 'Internal Server Error' })
      }
    })
    it('state returned asynchronously is kept across requests', async () => {
      const first = (await (await t.request('/count')).json()) as { params: { count: number } }
      const second = (await (await t.request('/count')).json()) as { params: { count: number } }
      expect(second.params.count).toBe(first.params.count + 1)
    })
    it('async post plugins replace the reply; an async post stop ends the phase', async () => {
      const wrapped = await t.request('/post')
      expect(wrapped.headers.get('x-wrapped')).toBe('async')
      expect(await wrapped.json()).toEqual({ wrapped: { params: { trail: ['pre'] }, authData: {} } })
      const stopped = await t.request('/post-stop')
      expect(stopped.status).toBe(202)
      expect(await stopped.json()).toEqual({ replaced: true })
    })
    it('async security: an object becomes authData, false is a 401, a reply is sent, a rejection is a 500', async () => {
      t.expectLogged(/^500 on GET \/secure-reject .*: Error: auth service down$/)
      expect(await (await t.request('/secure-object')).json()).toEqual({
        params: { trail: ['p'] },
        authData: { user: 'ada' },
      })
      expect((await t.request('/secure-false')).status).toBe(401)
      const reply = await t.request('/secure-reply')
      expect(reply.status).toBe(403)
      expect(await reply.json()).toEqual({ error: 'admins only' })
      expect((await t.request('/secure-reject')).status).toBe(500)
      expect(await (await t.request('/secure-thenable')).json()).toEqual({ params: {}, authData: { user: 'grace' } })
    })
    it('async handlers and thenables answer; rejections, httpError and non-replies get their error pages', async () => {
      t.expectLogged(/^500 on GET \/handlers\/reject .*: Error: handler rejected$/)
      t.expectLogged(/^500 on GET \/handlers\/not-a-reply .*returned \{"plain":"object"\}, which is not a reply/)
      expect(await (await t.request('/handlers/async')).json()).toEqual({ handled: 'async' })
      expect(await (await t.request('/handlers/thenable')).json()).toEqual({ handled: 'thenable' })
      expect((await t.request('/handlers/reject')).status).toBe(500)
      const conflict = await t.request('/handlers/http-error')
      expect(conflict.status).toBe(409)
      expect(await conflict.json()).toEqual({ error: 'Conflict: already there' })
      const notReply = await t.request('/handlers/not-a-reply')
      expect(notReply.status).toBe(500)
    })
    it('headers set through h3 before an await reach the response, errors included', async () => {
      t.expectLogged(/^500 on GET \/cookie\/fails .*: Error: after the cookie$/)
      const ok = await t.request('/cookie/ok')
      expect(ok.status).toBe(200)
      expect(ok.headers.get('set-cookie')).toMatch(/^seen=yes/)
      const failed = await t.request('/cookie/fails')
      expect(failed.status).toBe(500)
      expect(failed.headers.get('set-cookie')).toMatch(/^seen=yes/)
    })
  },
)
