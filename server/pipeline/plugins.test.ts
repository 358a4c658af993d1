// Plugin results (ok, break, stop, error), per-registration state, post-request plugins and registration errors.
import { expect, it } from 'vitest'
import { describeModes } from '../../test/support/modes.ts'
import { json, status } from '../replies.ts'
import type { VelaRequest } from '../request.ts'
import type { PluginEntry } from './plugin.ts'
import { breakPhase, definePlugin, fail, ok, stop } from './plugin.ts'

const info = { title: 't', version: '1.0.0', author: 'tests', description: 'test plugin', options: {} }

/** Appends its `tag` option to the `x-trail` request header trail kept on req.params. */
const trail = definePlugin<{ tag: string }>({
  name: 'trail',
  info,
  preRequest(req, _env, options, _state) {
    req.params = { ...req.params, trail: [...((req.params.trail as string[]) ?? []), options.tag] }
    return ok(req)
  },
})
const breaker = definePlugin({ name: 'breaker', info, preRequest: (req, _env, _o, _s) => breakPhase(req) })
const stopper = definePlugin({
  name: 'stopper',
  info,
  preRequest: (_req, _env, _o, _s) => stop(status(429, { error: 'stopped by plugin' })),
})
const failing = definePlugin({ name: 'failing', info, preRequest: (_req, _env, _o, _s) => fail('database down') })
const throwing = definePlugin({
  name: 'throwing',
  info,
  preRequest: (_req, _env, _o, _s) => {
    throw new Error('plugin threw')
  },
})
const invalid = definePlugin({
  name: 'invalid',
  info,
  preRequest: ((_req: unknown, _env: unknown, _o: unknown, _s: unknown) => 'nonsense') as never,
})
const counter = definePlugin<{ start: number }, number>({
  name: 'counter',
  info: { ...info, title: 'Request counter', options: { start: 'first count' } },
  init: (options) => options.start,
  preRequest(req, _env, _options, state) {
    req.params = { ...req.params, count: state + 1 }
    return ok(req, state + 1)
  },
})
/** Old two-argument form: (req, options) → ok(req). */
const legacy = definePlugin<{ header: string }>({
  name: 'legacy',
  info,
  preRequest: (req: VelaRequest, options: { header: string }) => {
    req.params = { ...req.params, legacy: req.headers.get(options.header) }
    return ok(req)
  },
})
const envSpy = definePlugin({
  name: 'env-spy',
  info,
  preRequest(req, env, _o, _s) {
    req.params = {
      ...req.params,
      env: { app: env.app, environment: env.environment, phase: env.phase, route: env.route },
    }
    return ok(req)
  },
})
/** Post phase: sees the reply and replaces it. */
const wrapper = definePlugin({
  name: 'wrapper',
  info,
  postRequest(req, _env, _o, _s) {
    const reply = req.reply
    req.reply = json({ wrapped: reply && 'body' in reply ? reply.body : null }, { headers: { 'x-wrapped': 'yes' } })
    return ok(req)
  },
})
const postStop = definePlugin({
  name: 'post-stop',
  info,
  postRequest: (_req, _env, _o, _s) => stop(status(202, { replaced: true })),
})
const postBreak = definePlugin({ name: 'post-break', info, postRequest: (req, _env, _o, _s) => breakPhase(req) })

const echo = (req: { params: Record<string, unknown> }) => json(req.params)

const globalPlugins: PluginEntry[] = [['pre_request', trail, { tag: 'global' }]]
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
        group('/own', [
          ['pre_request', trail, { tag: 'a' }],
          ['pre_request', trail, { tag: 'b' }],
        ]),
        group('/none', []),
        group('/break', [
          ['pre_request', trail, { tag: 'a' }],
          ['pre_request', breaker, {}],
          ['pre_request', trail, { tag: 'never' }],
        ]),
        {
          prefix: '/stop',
          security: false,
          plugins: [['pre_request', stopper, {}]],
          routes: [
            [
              'GET /',
              () => {
                throw new Error('handler must not run')
              },
            ],
          ],
        },
        group('/error', [['pre_request', failing, {}]]),
        group('/throw', [['pre_request', throwing, {}]]),
        group('/invalid', [['pre_request', invalid, {}]]),
        group('/counter', [['pre_request', counter, { start: 10 }]]),
        group('/legacy', [['pre_request', legacy, { header: 'x-legacy' }]]),
        group('/env', [['pre_request', envSpy, {}]]),
        group('/post', [
          ['pre_request', trail, { tag: 'pre' }],
          ['post_request', wrapper, {}],
        ]),
        group('/post-stop', [
          ['post_request', postStop, {}],
          ['post_request', wrapper, {}],
        ]),
        group('/post-break', [
          ['post_request', postBreak, {}],
          ['post_request', wrapper, {}],
        ]),
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
    it('state is kept per plugin registration across requests, starting from init(options)', async () => {
      const first = (await (await t.request('/counter')).json()) as { count: number }
      const second = (await (await t.request('/counter')).json()) as { count: number }
      expect(second.count).toBe(first.count + 1)
      expect(first.count).toBeGreaterThan(10)
    })
    it('the two-argument form (req, options) keeps working', async () => {
      expect(await (await t.request({ url: '/legacy', headers: { 'x-legacy': 'old-style' } })).json()).toEqual({
        legacy: 'old-style',
      })
    })
    it('env names the app, environment, phase and route', async () => {
      expect(await (await t.request('/env')).json()).toEqual({
        env: {
          app: 'plugins-app',
          environment: 'dev',
          phase: 'pre_request',
          route: { path: '/env', prefix: '/env', controller: 'routes/groups', action: 'anonymous' },
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

it('plugin info is available for listings', () => {
  expect(counter.info).toEqual({
    title: 'Request counter',
    version: '1.0.0',
    author: 'tests',
    description: 'test plugin',
    options: { start: 'first count' },
  })
})

it('registration errors name the place: bad phase, not a plugin, missing callback', async () => {
  const { createApp } = await import('../app/create-app.ts')
  const mk = (plugins: unknown) => () =>
    createApp({
      bootstrapApplication: 'x',
      routes: { r: { prefix: '/p', security: false, plugins: plugins as PluginEntry[], routes: [] } },
    })
  expect(mk([['during', trail, {}]])).toThrow(/r group 0 \(prefix "\/p"\): plugin entry 0 has phase "during"/)
  expect(mk([['pre_request', { name: 'x' }, {}]])).toThrow(/plugin entry 0 is not a plugin made by definePlugin/)
  expect(mk([['post_request', trail, {}]])).toThrow(/plugin trail has no postRequest callback/)
})
