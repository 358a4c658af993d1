// The two-argument plugin form made explicit (plugin.ts): `legacy: true` gives every callback
// `(req, options)` whatever it declares, `legacy: false` the full form; without the flag the
// declared parameter count still decides, so plugins written for `(req, options)` keep working.
import { expect, it } from 'vitest'
import { describeModes } from '../../test/support/modes.ts'
import { json } from '../replies.ts'
import type { PluginEntry } from './plugin.ts'
import { definePlugin, ok } from './plugin.ts'

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

const echo = (req: { params: Record<string, unknown> }) => json(req.params)
const group = (prefix: string, plugins: PluginEntry[]) => ({
  prefix,
  security: false as const,
  plugins,
  routes: [['GET /', echo] as const],
})

describeModes(
  'the two-argument plugin form, declared',
  {
    bootstrapApplication: 'legacy-app',
    routes: {
      groups: [
        group('/default', [['pre_request', withDefault, { label: 'given' }]]),
        group('/default-none', [['pre_request', withDefault]]),
        group('/post', [['post_request', postLegacy, { suffix: '!' }]]),
        group('/full', [['pre_request', fullTwo, { label: 'x' }]]),
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
  },
)
