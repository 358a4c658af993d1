// The older plugin forms keep working: the tuple `[phase, plugin, options]`, callbacks written
// `(req, env, options, state)` (four parameters, or `legacy: false`) and `(req, options)` with
// `legacy: true`. Defining a plugin in an older callback form warns once (VELA_DEP_PLUGIN_FORM);
// the tuple itself does not.
import type { MockInstance } from 'vitest'
import { afterEach, beforeEach, expect, it, vi } from 'vitest'
import { describeModes } from '../../test/support/modes.ts'
import { forgetDeprecationWarnings } from '../deprecation.ts'
import { json } from '../replies.ts'
import type { VelaRequest } from '../request.ts'
import type { PluginEnv } from './plugin.ts'
import { definePlugin, ok } from './plugin.ts'
import type { PluginEntry } from './registration.ts'

const info = { title: 't', version: '1.0.0', author: 'tests', description: 'test plugin', options: {} }

/** Declares one parameter (a default value does not count): only the flag tells Vela it is the old form. */
const withDefault = definePlugin<{ label?: string }>({
  name: 'with-default',
  info,
  legacy: true,
  preRequest: (req, options = {}) => {
    req.params = { ...req.params, label: options.label ?? 'none', keys: Object.keys(options).sort() }
    return ok(req)
  },
})
/** The flag also covers post-request callbacks and a plain `(req, options)`. */
const postLegacy = definePlugin<{ suffix: string }>({
  name: 'post-legacy',
  info,
  legacy: true,
  postRequest(req, options) {
    req.reply = json({
      ...(req.reply && 'body' in req.reply ? (req.reply.body as object) : {}),
      suffix: options.suffix,
    })
    return ok(req)
  },
})
/** `legacy: false`: a full-form callback declaring two parameters gets `env`, not the options. */
const fullTwo = definePlugin<{ label: string }>({
  name: 'full-two',
  info,
  legacy: false,
  preRequest(req, env) {
    req.params = { ...req.params, phase: (env as { phase?: string }).phase ?? 'options' }
    return ok(req)
  },
})
/** Four parameters without the flag: env, options and state, the state returned. */
const fourArgs = definePlugin<{ step: number }, number>({
  name: 'four-args',
  info,
  init: () => 0,
  // Typed: without the flag, TypeScript reads an untyped callback as the one form.
  preRequest(req: VelaRequest, env: PluginEnv, options: { step: number }, state: number) {
    req.params = { ...req.params, app: env.app, count: state + options.step }
    return ok(req, state + options.step)
  },
})
/** A plugin in the one form, registered as a tuple: `ctx` still has the tuple's options. */
const modern = definePlugin<{ tag: string }>({
  name: 'modern',
  preRequest(req, ctx) {
    req.params = { ...req.params, tag: ctx.options.tag, phase: ctx.phase }
    return ok(req)
  },
})
/**
 * Written for the older two-argument form without the flag: `(req, options)`, which arity cannot
 * tell from `(req, ctx)`. Registered as a tuple, its `ctx` reads the options by name.
 */
const unflagged = definePlugin({
  name: 'unflagged',
  // biome-ignore lint/suspicious/noExplicitAny: an untyped plugin of the older form
  preRequest(req, options: any) {
    req.params = { ...req.params, label: options.label, max: options.maxAge, phase: options.phase }
    return ok(req)
  },
})

const echo = (req: { params: Record<string, unknown> }) => json(req.params)
const group = (prefix: string, plugins: PluginEntry[]) => ({
  prefix,
  security: false as const,
  plugins,
  routes: [['GET /', echo] as const],
})

describeModes(
  'the older plugin forms',
  {
    bootstrapApplication: 'legacy-app',
    routes: {
      groups: [
        group('/default', [['pre_request', withDefault, { label: 'given' }]]),
        group('/default-none', [['pre_request', withDefault]]),
        group('/post', [['post_request', postLegacy, { suffix: '!' }]]),
        group('/full', [['pre_request', fullTwo, { label: 'x' }]]),
        group('/four', [['pre_request', fourArgs, { step: 2 }]]),
        group('/four-called', [fourArgs({ step: 5 })]),
        group('/tuple', [['pre_request', modern, { tag: 'from-tuple' }]]),
        group('/unflagged', [['pre_request', unflagged, { label: 'old', maxAge: 60, phase: 'shadowed' }]]),
      ],
    },
  },
  (t) => {
    it('legacy: true — (req, options = {}) receives its options, not env', async () => {
      expect(await (await t.request('/default')).json()).toEqual({ label: 'given', keys: ['label'] })
    })
    it('legacy: true — a registration without options passes {}', async () => {
      expect(await (await t.request('/default-none')).json()).toEqual({ label: 'none', keys: [] })
    })
    it('legacy: true — post-request callbacks get (req, options) too', async () => {
      expect(await (await t.request('/post')).json()).toEqual({ suffix: '!' })
    })
    it('legacy: false — a two-parameter callback is the full form and gets env', async () => {
      expect(await (await t.request('/full')).json()).toEqual({ phase: 'pre_request' })
    })
    it('four parameters — env, options and the state it returned last time', async () => {
      const first = (await (await t.request('/four')).json()) as { app: string; count: number }
      expect(first.app).toBe('legacy-app')
      expect(((await (await t.request('/four')).json()) as { count: number }).count).toBe(first.count + 2)
      // Called with its options like a plugin in the one form, it runs the same way.
      const called = (await (await t.request('/four-called')).json()) as { count: number }
      expect(((await (await t.request('/four-called')).json()) as { count: number }).count).toBe(called.count + 5)
    })
    it('a plugin in the one form registered as a tuple gets the tuple options in ctx', async () => {
      expect(await (await t.request('/tuple')).json()).toEqual({ tag: 'from-tuple', phase: 'pre_request' })
    })
    it('an unflagged (req, options) plugin registered as a tuple reads its options by name on ctx', async () => {
      // `phase` is one of ctx's own fields: it reads the phase, not the option of that name.
      expect(await (await t.request('/unflagged')).json()).toEqual({ label: 'old', max: 60, phase: 'pre_request' })
    })
  },
)

let warnings: MockInstance<typeof process.emitWarning>
beforeEach(() => {
  forgetDeprecationWarnings()
  warnings = vi.spyOn(process, 'emitWarning').mockImplementation(() => {})
})
afterEach(() => {
  warnings.mockRestore()
  forgetDeprecationWarnings()
})
const deprecations = () =>
  warnings.mock.calls
    .filter(([, options]) => (options as { type?: string } | undefined)?.type === 'DeprecationWarning')
    .map(([message, options]) => [(options as { code: string }).code, String(message)])

it('an older callback form warns once, naming the one form; the one form and the tuple do not warn', async () => {
  const fresh = definePlugin({ name: 'fresh', preRequest: (req, ctx) => ok(req, ctx.state) })
  definePlugin({ name: 'fresh-bare', postRequest: () => ok() })
  const { createApp } = await import('../app/create-app.ts')
  const app = createApp({ bootstrapApplication: 'tuple', routes: { r: group('/t', [['pre_request', fresh, {}]]) } })
  expect((await app.fetch(new Request('http://localhost/t'))).status).toBe(200)
  expect(deprecations()).toEqual([])
  definePlugin<{ a: string }>({
    name: 'old-two',
    legacy: true,
    preRequest: (req, options) => ok(options.a ? req : req),
  })
  definePlugin({
    name: 'old-four',
    preRequest: (req: VelaRequest, _env: PluginEnv, _o: object, _s: unknown) => ok(req),
  })
  definePlugin({ name: 'old-flag', legacy: false, postRequest: (req, _env, _options, _state) => ok(req) })
  expect(deprecations()).toEqual([
    [
      'VELA_DEP_PLUGIN_FORM',
      'plugin old-two: callbacks (req, env, options, state), (req, options) and the legacy flag are deprecated; write preRequest(req, ctx) and read ctx.options and ctx.state',
    ],
  ])
})
