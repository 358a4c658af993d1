/**
 * Plugins: steps of a route group's pipeline. A plugin has `preRequest` and/or `postRequest`
 * callbacks and `info`. It is registered per phase as `['pre_request', plugin, options]`; a plugin
 * needing both phases is registered twice. Each registration keeps its own state across requests:
 * it starts as `init(options, ctx)` and becomes whatever state the callback returns. `init` runs at
 * start-up (in `createApp`), so a plugin that cannot work with its options throws there. An app is
 * also created only to be inspected (a build, `vela routes`), so `init` must not need what only a
 * running server has (secrets): check that in `start(options, state)`, run by `app.start()` before
 * the app's own start hook; throwing there refuses the start.
 *
 * Two callback forms:
 * - `(req, env, options, state)` — the full form;
 * - `(req, options)` — the two-argument form of older plugins; its state is left unchanged.
 * `legacy: true` in the definition says a plugin uses the two-argument form, so its callbacks get
 * `(req, options)` whatever they declare (`(req, options = {})` declares one parameter);
 * `legacy: false` says the full form. Without `legacy`, a callback declaring exactly two
 * parameters is read as the two-argument form, so plugins written for it before the flag existed
 * keep working; any other is the full form.
 */
import type { JsonLib, MaybePromise } from '../contracts/primitives.ts'
import type { Reply } from '../replies.ts'
import type { RouteInfo, VelaRequest } from '../request.ts'
import { VelaError } from '../errors/vela-error.ts'

/** When a plugin registration runs: before the handler (`pre_request`) or after it (`post_request`). */
export type Phase = 'pre_request' | 'post_request'

/** What a plugin says about itself, shown by `vela middleware` and in docs. */
export interface PluginInfo {
  title: string
  version: string
  author: string
  description: string
  /** Option name → what it does, for `vela middleware` and docs. */
  options: Readonly<Record<string, string>>
}

/** What the pipeline tells a plugin about where it runs. */
export interface PluginEnv {
  readonly app: string
  readonly environment: string
  readonly phase: Phase
  readonly route: RouteInfo
  /** The app's JSON library: plugins encode and decode with it. */
  readonly jsonLib: JsonLib
}

/** What `init` learns about the app at start-up. */
export interface PluginInitContext {
  readonly environment: string
  /** The process environment the app was created with (`createApp`'s `env` option). */
  readonly env: Readonly<Record<string, string | undefined>>
}

/** What a plugin callback returns to say what the pipeline does next (made by `ok`, `breakPhase`, `stop`, `fail`). */
export type PluginResult<S = unknown> =
  /** Continue with the next plugin (or the handler). */
  | { readonly result: 'ok'; readonly req?: VelaRequest; readonly state?: S }
  /** Skip the rest of this phase's plugins; go on to the handler (pre) or the response (post). */
  | { readonly result: 'break'; readonly req?: VelaRequest; readonly state?: S }
  /** End the pipeline now and send `reply`. */
  | { readonly result: 'stop'; readonly reply: Reply | Response; readonly state?: S }
  /** A 500 error response; `reason` is logged (and shown with `useStacktrace`). */
  | { readonly result: 'error'; readonly reason: unknown }

/**
 * Continue with the next plugin (or the handler), optionally with a new request and this
 * registration's next state.
 *
 * @example
 * ```ts
 * import { definePlugin, ok } from 'vela'
 *
 * export const requestCounter = definePlugin<Record<string, never>, number>({
 *   name: 'request_counter',
 *   info: { title: 'Request counter', version: '1.0.0', author: 'Shop team', description: 'Counts requests.', options: {} },
 *   legacy: false,
 *   init: () => 0,
 *   preRequest: (req, _env, _options, count) => ok(req, count + 1),
 * })
 * ```
 */
export const ok = <S>(req?: VelaRequest, state?: S): PluginResult<S> => ({ result: 'ok', req, state })

/**
 * Skip the rest of this phase's plugins: go on to the handler (pre-request) or the response
 * (post-request).
 *
 * @example
 * ```ts
 * import { breakPhase, definePlugin, ok } from 'vela'
 *
 * // Health probes skip the plugins listed after this one.
 * export const skipForProbes = definePlugin({
 *   name: 'skip_for_probes',
 *   info: { title: 'Skip for probes', version: '1.0.0', author: 'Shop team', description: 'Probes skip later plugins.', options: {} },
 *   legacy: false,
 *   preRequest: (req, _env, _options, state) => (req.header('user-agent')?.startsWith('kube-probe/') ? breakPhase(req, state) : ok(req, state)),
 * })
 * ```
 */
export const breakPhase = <S>(req?: VelaRequest, state?: S): PluginResult<S> => ({ result: 'break', req, state })

/**
 * Answer now with `reply`: nothing else of the phase runs (in the post-request phase, `reply`
 * replaces the handler's).
 *
 * @example
 * ```ts
 * import { definePlugin, ok, status, stop } from 'vela'
 *
 * export const maintenance = definePlugin({
 *   name: 'maintenance',
 *   info: { title: 'Maintenance', version: '1.0.0', author: 'Shop team', description: '503 while MAINTENANCE is set.', options: {} },
 *   legacy: false,
 *   preRequest: (req, _env, _options, state) =>
 *     process.env.MAINTENANCE ? stop(status(503, { error: 'down for maintenance' }, { headers: { 'retry-after': '60' } }), state) : ok(req, state),
 * })
 * ```
 */
export const stop = <S>(reply: Reply | Response, state?: S): PluginResult<S> => ({ result: 'stop', reply, state })

/**
 * End the request with a 500; `reason` is logged (and shown on the error page with
 * `useStacktrace`).
 *
 * @example
 * ```ts
 * import { definePlugin, fail, ok } from 'vela'
 *
 * export const needsTenant = definePlugin({
 *   name: 'needs_tenant',
 *   info: { title: 'Tenant', version: '1.0.0', author: 'Shop team', description: 'Requires TENANT.', options: {} },
 *   legacy: false,
 *   preRequest: (req, _env, _options, state) => (process.env.TENANT ? ok(req, state) : fail(new Error('TENANT is not set'))),
 * })
 * ```
 */
export const fail = (reason: unknown): PluginResult<never> => ({ result: 'error', reason })

// Options are whatever the registration passes; plugins declare their own option types.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyRequest = VelaRequest<any>

export type FullCallback<O, S> = (
  req: AnyRequest,
  env: PluginEnv,
  options: O,
  state: S,
) => MaybePromise<PluginResult<S>>
export type TwoArgCallback<O> = (req: AnyRequest, options: O) => MaybePromise<PluginResult<unknown>>
/** A plugin's `preRequest` or `postRequest` callback: the full form `(req, env, options, state)` or the two-argument `(req, options)`. */
export type PluginCallback<O, S> = FullCallback<O, S> | TwoArgCallback<O>

/** A plugin made by `definePlugin`, registered in a group's or the app's `plugins` as `[phase, plugin, options]`. */
export interface Plugin<O = Record<string, unknown>, S = unknown> {
  readonly kind: 'vela.plugin'
  readonly name: string
  readonly info: PluginInfo
  /** `true`: the callbacks take `(req, options)`; `false`: `(req, env, options, state)`; absent: by declared parameters. */
  readonly legacy?: boolean
  readonly init?: (options: O, ctx: PluginInitContext) => S
  /** Checks run-time needs (secrets) when the app starts serving, with `init`'s state. */
  readonly start?: (options: O, state: S) => MaybePromise<void>
  readonly preRequest?: PluginCallback<O, S>
  readonly postRequest?: PluginCallback<O, S>
}

type PluginBase<O, S> = Omit<Plugin<O, S>, 'kind' | 'legacy' | 'preRequest' | 'postRequest'>
type Callbacks<C> = { readonly preRequest?: C; readonly postRequest?: C }

/**
 * What `definePlugin` takes. `legacy` decides the callbacks' form and their types: `true` the
 * two-argument form, `false` the full form, absent either (decided by declared parameters).
 */
export type PluginDefinition<O, S> =
  | (PluginBase<O, S> & { readonly legacy?: undefined } & Callbacks<PluginCallback<O, S>>)
  | (PluginBase<O, S> & { readonly legacy: false } & Callbacks<FullCallback<O, S>>)
  | (PluginBase<O, S> & { readonly legacy: true } & Callbacks<TwoArgCallback<O>>)

/**
 * Makes a plugin from its name, `info` and its `preRequest` / `postRequest` callbacks.
 *
 * `init(options, ctx)` makes each registration's state at start-up, `start(options, state)` checks run-time needs when the app
 * starts, and `preRequest` / `postRequest` return `ok`, `breakPhase`, `stop` or `fail`. Throws
 * when it has neither callback.
 *
 * @example
 * ```ts
 * import { definePlugin, ok, status, stop } from 'vela'
 *
 * export const apiKeyPlugin = definePlugin<{ keys: readonly string[] }, ReadonlySet<string>>({
 *   name: 'api_key',
 *   info: { title: 'API key', version: '1.0.0', author: 'Shop team', description: 'Refuses unknown keys (401).', options: { keys: 'the accepted keys' } },
 *   legacy: false,
 *   init: (options) => new Set(options.keys),
 *   preRequest: (req, _env, _options, keys) => {
 *     const key = req.header('x-api-key')
 *     return key !== undefined && keys.has(key) ? ok(req, keys) : stop(status(401, { error: 'a valid API key is required' }), keys)
 *   },
 * })
 *
 * // In a group: plugins: [['pre_request', apiKeyPlugin, { keys: ['dev-key'] }]]
 * ```
 */
export function definePlugin<O = Record<string, unknown>, S = undefined>(def: PluginDefinition<O, S>): Plugin<O, S> {
  if (!def.preRequest && !def.postRequest)
    throw new VelaError('VELA_ERR_PLUGIN', `plugin ${def.name}: needs preRequest or postRequest`)
  return { kind: 'vela.plugin', ...def }
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
/** One registration in a `plugins` list: `[phase, plugin, options]`. */
export type PluginEntry = readonly [phase: Phase, plugin: Plugin<any, any>, options?: object]

/** One registration made ready to run: the callback in the full form and its own state slot. */
export interface PluginStep {
  readonly phase: Phase
  readonly plugin: Plugin<unknown, unknown>
  readonly options: object
  state: unknown
  readonly call: (req: VelaRequest, env: PluginEnv, step: PluginStep) => MaybePromise<PluginResult>
}

export function compilePluginEntries(
  entries: readonly PluginEntry[],
  where: string,
  ctx: PluginInitContext,
): PluginStep[] {
  return entries.map((entry, i) => {
    const [phase, plugin, options = {}] = entry
    if (phase !== 'pre_request' && phase !== 'post_request') {
      throw new VelaError(
        'VELA_ERR_PLUGIN',
        `${where}: plugin entry ${i} has phase ${JSON.stringify(phase)}; use 'pre_request' or 'post_request'`,
      )
    }
    if (plugin?.kind !== 'vela.plugin')
      throw new VelaError('VELA_ERR_PLUGIN', `${where}: plugin entry ${i} is not a plugin made by definePlugin`)
    const fn = phase === 'pre_request' ? plugin.preRequest : plugin.postRequest
    if (!fn)
      throw new VelaError(
        'VELA_ERR_PLUGIN',
        `${where}: plugin ${plugin.name} has no ${phase === 'pre_request' ? 'preRequest' : 'postRequest'} callback`,
      )
    const call: PluginStep['call'] =
      (plugin.legacy ?? fn.length === 2)
        ? (req, _env, step) => (fn as TwoArgCallback<unknown>)(req, step.options)
        : (req, env, step) => (fn as FullCallback<unknown, unknown>)(req, env, step.options, step.state)
    return { phase, plugin, options, state: plugin.init ? plugin.init(options, ctx) : undefined, call }
  })
}
