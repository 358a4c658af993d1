// Plugins in their one form: registered by calling them with their options, callbacks (req, ctx)
// with the options and state in ctx; results (ok, break, stop, error), state kept per registration
// and across its phases, post-request plugins, `info` optional, and registration errors.
import { expect, it } from 'vitest'
import { describeModes } from '../../test/support/modes.ts'
import { json, status } from '../replies.ts'
import { breakPhase, definePlugin, fail, ok, stop } from './plugin.ts'
import type { PluginEntry } from './registration.ts'

const info = { title: 't', version: '1.0.0', author: 'tests', description: 'test plugin', options: {} }

/** Appends its `tag` option to the `x-trail` request header trail kept on req.params. */
const trail = definePlugin<{ tag: string }>({
  name: 'trail',
  info,
  preRequest(req, { options }) {
    req.params = { ...req.params, trail: [...((req.params.trail as string[]) ?? []), options.tag] }
    return ok(req)
  },
})
const breaker = definePlugin({ name: 'breaker', info, preRequest: (req) => breakPhase(req) })
const stopper = definePlugin({
  name: 'stopper',
  info,
  preRequest: (_req) => stop(status(429, { error: 'stopped by plugin' })),
})
const failing = definePlugin({ name: 'failing', info, preRequest: (_req) => fail('database down') })
const throwing = definePlugin({
  name: 'throwing',
  info,
  preRequest: (_req) => {
    throw new Error('plugin threw')
  },
})
const invalid = definePlugin({
  name: 'invalid',
  info,
  preRequest: ((_req: unknown) => 'nonsense') as never,
})
/** Counts by assigning `ctx.state`: nothing is returned but `ok(req)`. */
const counter = definePlugin<{ start: number }, number>({
  name: 'counter',
  info: { ...info, title: 'Request counter', options: { start: 'first count' } },
  init: (options) => options.start,
  preRequest(req, ctx) {
    ctx.state += 1
    req.params = { ...req.params, count: ctx.state }
    return ok(req)
  },
})
/** Keeps its state in an object it changes in place. */
const tally = definePlugin<Record<string, never>, { seen: number }>({
  name: 'tally',
  init: () => ({ seen: 0 }),
  preRequest(req, { state }) {
    state.seen++
    req.params = { ...req.params, seen: state.seen }
    return ok(req)
  },
})
/** Passes its state to `ok`, as the older form did: still kept. */
const returned = definePlugin<Record<string, never>, number>({
  name: 'returned',
  init: () => 0,
  preRequest: (req, ctx) =>
    ok(Object.assign(req, { params: { ...req.params, returned: ctx.state + 1 } }), ctx.state + 1),
})
/** Both phases, one state: the post phase sees what the pre phase counted. */
const timing = definePlugin<{ label: string }, { pre: number; post: number }>({
  name: 'timing',
  init: () => ({ pre: 0, post: 0 }),
  preRequest(req, ctx) {
    ctx.state = { ...ctx.state, pre: ctx.state.pre + 1 }
    return ok(req)
  },
  postRequest(req, ctx) {
    ctx.state = { ...ctx.state, post: ctx.state.post + 1 }
    req.reply = json({ label: ctx.options.label, phase: ctx.phase, ...ctx.state })
    return ok(req)
  },
})
/** No `info`: only a name and a callback. */
const bare = definePlugin({ name: 'bare', preRequest: (req) => ok(req) })
const envSpy = definePlugin({
  name: 'env-spy',
  info,
  preRequest(req, ctx) {
    req.params = {
      ...req.params,
      env: { app: ctx.app, environment: ctx.environment, phase: ctx.phase, route: ctx.route, options: ctx.options },
    }
    return ok(req)
  },
})
/** Post phase: sees the reply and replaces it. */
const wrapper = definePlugin({
  name: 'wrapper',
  info,
  postRequest(req) {
    const reply = req.reply
    req.reply = json({ wrapped: reply && 'body' in reply ? reply.body : null }, { headers: { 'x-wrapped': 'yes' } })
    return ok(req)
  },
})
const postStop = definePlugin({
  name: 'post-stop',
  info,
  postRequest: (_req) => stop(status(202, { replaced: true })),
})
const postBreak = definePlugin({ name: 'post-break', info, postRequest: (req) => breakPhase(req) })

const echo = (req: { params: Record<string, unknown> }) => json(req.params)

const globalPlugins: PluginEntry[] = [trail({ tag: 'global' })]
const group = (prefix: string, plugins: PluginEntry[] | undefined) => ({
  prefix,
  security: false as const,
  plugins,
  routes: [['GET /', echo] as const],
})

describeModes(
  'plugin pipeline',
  {
    bootstrapApplication: 'plugins-app',
    plugins: globalPlugins,
    routes: {
      groups: [
        group('/inherit', undefined),
        group('/own', [trail({ tag: 'a' }), trail({ tag: 'b' })]),
        group('/none', []),
        group('/break', [trail({ tag: 'a' }), breaker(), trail({ tag: 'never' })]),
        {
          prefix: '/stop',
          security: false,
          plugins: [stopper()],
          routes: [
            [
              'GET /',
              () => {
                throw new Error('handler must not run')
              },
            ],
          ],
        },
        group('/error', [failing()]),
        group('/throw', [throwing()]),
        group('/invalid', [invalid()]),
        group('/counter', [counter({ start: 10 })]),
        group('/tally', [tally()]),
        group('/returned', [returned()]),
        group('/timing', [timing({ label: 'both' })]),
        group('/bare', [bare()]),
        group('/env', [envSpy({ shown: true })]),
        group('/post', [trail({ tag: 'pre' }), wrapper()]),
        group('/post-stop', [postStop(), wrapper()]),
        group('/post-break', [postBreak(), wrapper()]),
      ],
    },
  },
  (t) => {
    it('ok: continues to the next plugin and the handler; a group without plugins inherits the global list', async () => {
      expect(await (await t.request('/inherit')).json()).toEqual({ trail: ['global'] })
    })
    it("a group's plugins replace the global list, in order", async () => {
      expect(await (await t.request('/own')).json()).toEqual({ trail: ['a', 'b'] })
      expect(await (await t.request('/none')).json()).toEqual({})
    })
    it('break: skips the rest of the phase and goes on to the handler', async () => {
      const res = await t.request('/break')
      expect(res.status).toBe(200)
      expect(await res.json()).toEqual({ trail: ['a'] })
    })
    it("stop: ends the pipeline with the plugin's reply; the handler does not run", async () => {
      const res = await t.request('/stop')
      expect(res.status).toBe(429)
      expect(await res.json()).toEqual({ error: 'stopped by plugin' })
    })
    it('error: a 500 error page (JSON or HTML by Accept); a throwing or invalid plugin too', async () => {
      t.expectLogged(/^500 on GET \/error .*plugin failing failed: database down/)
      t.expectLogged(/^500 on GET \/throw .*: Error: plugin threw$/)
      t.expectLogged(/^500 on GET \/invalid .*plugin invalid \(pre_request\) returned "nonsense"/)
      for (const path of ['/error', '/throw', '/invalid']) {
        const res = await t.request(path)
        expect(res.status).toBe(500)
        expect(await res.json()).toEqual({ error: 'Internal Server Error' })
      }
      const html = await t.request({ url: '/error', headers: { accept: 'text/html' } })
      expect(html.status).toBe(500)
      expect(html.headers.get('content-type')).toBe('text/html; charset=utf-8')
      expect(await html.text()).toContain('<h1>500 Internal Server Error</h1>')
    })
    it('state assigned to ctx.state is kept across requests without being returned, starting from init(options)', async () => {
      const first = (await (await t.request('/counter')).json()) as { count: number }
      const second = (await (await t.request('/counter')).json()) as { count: number }
      expect(second.count).toBe(first.count + 1)
      expect(first.count).toBeGreaterThan(10)
    })
    it('a state object changed in place is kept; a state passed to ok() is kept too', async () => {
      const seen = [] as number[]
      for (let i = 0; i < 2; i++) seen.push(((await (await t.request('/tally')).json()) as { seen: number }).seen)
      expect(seen[1]).toBe(seen[0]! + 1)
      const one = ((await (await t.request('/returned')).json()) as { returned: number }).returned
      const two = ((await (await t.request('/returned')).json()) as { returned: number }).returned
      expect(two).toBe(one + 1)
    })
    it('a plugin with both callbacks, registered once, runs in both phases with one state', async () => {
      const first = (await (await t.request('/timing')).json()) as { pre: number; post: number }
      expect(first).toMatchObject({ label: 'both', phase: 'post_request' })
      expect(first.pre).toBe(first.post)
      expect(await (await t.request('/timing')).json()).toEqual({
        label: 'both',
        phase: 'post_request',
        pre: first.pre + 1,
        post: first.post + 1,
      })
    })
    it('a plugin without info runs', async () => {
      const res = await t.request('/bare')
      expect(res.status).toBe(200)
      expect(await res.json()).toEqual({})
    })
    it('ctx carries the options and names the app, environment, phase and route', async () => {
      expect(await (await t.request('/env')).json()).toEqual({
        env: {
          app: 'plugins-app',
          environment: 'dev',
          phase: 'pre_request',
          route: { path: '/env', prefix: '/env', controller: 'routes/groups', action: 'anonymous' },
          options: { shown: true },
        },
      })
    })
    it('post-request plugins run before the response is written and may replace it', async () => {
      const res = await t.request('/post')
      expect(res.headers.get('x-wrapped')).toBe('yes')
      expect(await res.json()).toEqual({ wrapped: { trail: ['pre'] } })
    })
    it('post-request stop replaces the reply and ends the phase; break ends the phase', async () => {
      const stopped = await t.request('/post-stop')
      expect(stopped.status).toBe(202)
      expect(await stopped.json()).toEqual({ replaced: true })
      const broken = await t.request('/post-break')
      expect(broken.headers.get('x-wrapped')).toBeNull()
      expect(await broken.json()).toEqual({})
    })
  },
)

it('plugin info is available for listings; it is optional', () => {
  expect(bare.info).toBeUndefined()
  expect(bare.name).toBe('bare')
  expect(counter.info).toEqual({
    title: 'Request counter',
    version: '1.0.0',
    author: 'tests',
    description: 'test plugin',
    options: { start: 'first count' },
  })
})

it('registration errors name the place: bad phase, not a plugin, missing callback, a plugin not called', async () => {
  const { createApp } = await import('../app/create-app.ts')
  const mk = (plugins: unknown) => () =>
    createApp({
      bootstrapApplication: 'x',
      routes: { r: { prefix: '/p', security: false, plugins: plugins as PluginEntry[], routes: [] } },
    })
  expect(mk([['during', trail, {}]])).toThrow(/r group 0 \(prefix "\/p"\): plugin entry 0 has phase "during"/)
  expect(mk([['pre_request', { name: 'x' }, {}]])).toThrow(/plugin entry 0 is not a plugin made by definePlugin/)
  expect(mk([['post_request', trail, {}]])).toThrow(/plugin trail has no postRequest callback/)
  expect(mk([trail])).toThrow(
    /plugin entry 0 is the plugin trail itself; register it by calling it with its options: trail\(\{ … \}\)/,
  )
  expect(() => definePlugin({ name: 'empty' })).toThrow(/plugin empty: needs preRequest or postRequest/)
})
