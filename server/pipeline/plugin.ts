/**
 * Plugins: steps of a route group's pipeline. `definePlugin` makes one from its `preRequest`
 * and/or `postRequest` callbacks; an app registers it by calling it with its options,
 * `plugins: [corsPlugin({ allowOrigins: '*' }), myPlugin({ … })]`. The registration runs in each
 * phase the plugin has a callback for, and keeps one state across requests and across its two
 * phases: it starts as `init(options, initCtx)` and is whatever the callbacks assign to
 * `ctx.state` (or pass to `ok(req, state)`) after that.
 *
 * `init` runs at start-up (in `createApp`), so a plugin that cannot work with its options throws
 * there. An app is also created only to be inspected (a build, `vela routes`), so `init` must not
 * need what only a running server has (secrets): check that in `start(options, state)`, run by
 * `app.start()` before the app's own start hook; throwing there refuses the start.
 *
 * Older forms still run: the tuple `['pre_request', plugin, options]` (registration.ts), and
 * callbacks written `(req, env, options, state)` or, with `legacy: true`, `(req, options)`, which
 * `definePlugin` warns about once.
 */
import type { JsonLib, MaybePromise } from '../contracts/primitives.ts'
import type { Reply } from '../replies.ts'
import type { RouteInfo, VelaRequest } from '../request.ts'
import { warnDeprecated } from '../deprecation.ts'
import { VelaError } from '../errors/vela-error.ts'

/** When a plugin callback runs: before the handler (`pre_request`) or after it (`post_request`). */
export type Phase = 'pre_request' | 'post_request'

/** What a plugin says about itself, shown by `vela plugins` (every field optional: the name stands in for the title). */
export interface PluginInfo {
  title?: string
  version?: string
  author?: string
  description?: string
  /** Option name → what it does, for `vela plugins` and docs. */
  options?: Readonly<Record<string, string>>
}

/** Where a plugin callback runs: the app, the phase and the route. */
export interface PluginEnv {
  readonly app: string
  readonly environment: string
  readonly phase: Phase
  readonly route: RouteInfo
  /** The app's JSON library: plugins encode and decode with it. */
  readonly jsonLib: JsonLib
}

/**
 * The second argument of a plugin callback: the registration's `options` and `state`, and where
 * it runs. Assigning `ctx.state` keeps the new state for the next requests (both phases share it).
 */
export interface PluginContext<O = Record<string, unknown>, S = unknown> extends PluginEnv {
  /** The options the plugin was registered with (`{}` without any). */
  readonly options: O
  /** This registration's state: `init`'s value at first, then what a callback assigned. */
  state: S
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
 * Continue with the next plugin (or the handler), optionally with a new request. A `state` given
 * here replaces the registration's state, as assigning `ctx.state` does.
 *
 * @example
 * ```ts
 * import { definePlugin, ok } from 'vela'
 *
 * export const poweredBy = definePlugin({
 *   name: 'powered_by',
 *   preRequest(req) {
 *     req.params = { ...req.params, poweredBy: 'vela' }
 *     return ok(req)
 *   },
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
 *   preRequest: (req) => (req.header('user-agent')?.startsWith('kube-probe/') ? breakPhase(req) : ok(req)),
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
 *   preRequest: (req) =>
 *     process.env.MAINTENANCE ? stop(status(503, { error: 'down for maintenance' }, { headers: { 'retry-after': '60' } })) : ok(req),
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
 *   preRequest: (req) => (process.env.TENANT ? ok(req) : fail(new Error('TENANT is not set'))),
 * })
 * ```
 */
export const fail = (reason: unknown): PluginResult<never> => ({ result: 'error', reason })

// Options are whatever the registration passes; plugins declare their own option types.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyRequest = VelaRequest<any>

/** A plugin's `preRequest` or `postRequest` callback: the request, and the context with its options and state. */
export type PluginHandler<O = Record<string, unknown>, S = unknown> = (
  req: AnyRequest,
  ctx: PluginContext<O, S>,
  // The state's type comes from `init` or the type arguments, never from what a callback returns
  // (`fail()` would make it `never`).
) => MaybePromise<PluginResult<NoInfer<S>>>

/** The older four-argument callback form. */
export type FullCallback<O, S> = (
  req: AnyRequest,
  env: PluginEnv,
  options: O,
  state: S,
) => MaybePromise<PluginResult<S>>
/** The older two-argument callback form (`legacy: true`). */
export type TwoArgCallback<O> = (req: AnyRequest, options: O) => MaybePromise<PluginResult<unknown>>
/** Any callback form a plugin may have: `(req, ctx)`, or one of the older two. */
export type PluginCallback<O, S> = PluginHandler<O, S> | FullCallback<O, S> | TwoArgCallback<O>

/** The options argument of a plugin call: optional when every option is. */
type OptionsArgs<O> = Record<string, never> extends O ? [options?: O] : [options: O]

/**
 * A plugin made by `definePlugin`. Call it with its options to register it in a `plugins` list:
 * `myPlugin({ … })`.
 */
export interface Plugin<O = Record<string, unknown>, S = unknown> {
  (...options: OptionsArgs<O>): PluginUse<O, S>
  readonly kind: 'vela.plugin'
  readonly name: string
  readonly info?: PluginInfo
  /** Only for the older callback forms: `true` `(req, options)`, `false` `(req, env, options, state)`. */
  readonly legacy?: boolean
  readonly init?: (options: O, ctx: PluginInitContext) => S
  /** Checks run-time needs (secrets) when the app starts serving, with `init`'s state. */
  readonly start?: (options: O, state: S) => MaybePromise<void>
  readonly preRequest?: PluginCallback<O, S>
  readonly postRequest?: PluginCallback<O, S>
}

/** Any plugin, whatever its options and state: what a `plugins` list holds. */
export type AnyPlugin = Plugin<any, any>
/** Any registered plugin, whatever its options and state. */
export type AnyPluginUse = PluginUse<any, any>

/** A plugin registered with its options (what calling a plugin gives): one entry of a `plugins` list. */
export interface PluginUse<O = Record<string, unknown>, S = unknown> {
  readonly kind: 'vela.plugin-use'
  readonly plugin: Plugin<O, S>
  readonly options: O
}

/** What `definePlugin` takes: a name, optional `info`, `init` and `start`, and one or both callbacks. */
export interface PluginDefinition<O = Record<string, unknown>, S = undefined> {
  readonly name: string
  readonly info?: PluginInfo
  /** Makes the registration's state at start-up (default `undefined`). */
  readonly init?: (options: O, ctx: PluginInitContext) => S
  /** Checks run-time needs (secrets) when the app starts serving, with `init`'s state. */
  readonly start?: (options: O, state: S) => MaybePromise<void>
  readonly preRequest?: PluginHandler<O, S>
  readonly postRequest?: PluginHandler<O, S>
  readonly legacy?: undefined
}

type LegacyBase<O, S> = Omit<PluginDefinition<O, S>, 'legacy' | 'preRequest' | 'postRequest'>
type Callbacks<C> = { readonly preRequest?: C; readonly postRequest?: C }

/** The older definition forms: `legacy: true` (`(req, options)`), `legacy: false` or four parameters (`(req, env, options, state)`). */
export type LegacyPluginDefinition<O, S> =
  | (LegacyBase<O, S> & { readonly legacy?: undefined } & Callbacks<FullCallback<O, S>>)
  | (LegacyBase<O, S> & { readonly legacy: false } & Callbacks<FullCallback<O, S>>)
  | (LegacyBase<O, S> & { readonly legacy: true } & Callbacks<TwoArgCallback<O>>)

/** How a callback is called: `(req, ctx)`, `(req, env, options, state)` or `(req, options)`. */
export type CallbackForm = 'context' | 'full' | 'two-arg'

/**
 * The form of a callback: the `legacy` flag when there is one, else four or three declared
 * parameters mean `(req, env, options, state)`, fewer `(req, ctx)`.
 */
export function callbackForm(
  plugin: Pick<Plugin<never, never>, 'legacy'>,
  fn: (...args: never[]) => unknown,
): CallbackForm {
  if (plugin.legacy === true) return 'two-arg'
  if (plugin.legacy === false || fn.length >= 3) return 'full'
  return 'context'
}

/**
 * Makes a plugin from its name and its `preRequest` / `postRequest` callbacks, each called
 * `(req, ctx)`: `ctx.options` are the registration's options, `ctx.state` its state (assign it to
 * keep a new one), and `ctx.app`, `ctx.phase`, `ctx.route` say where it runs. A callback returns
 * `ok`, `breakPhase`, `stop` or `fail`. `init(options, initCtx)` makes the state at start-up,
 * `start(options, state)` checks run-time needs when the app starts; `info` describes it to
 * `vela plugins`. Throws when it has neither callback.
 *
 * The plugin is registered by calling it with its options; one with both callbacks runs in both
 * phases, with one state.
 *
 * @example
 * ```ts
 * import { defineRoutes, definePlugin, json, ok, status, stop } from 'vela'
 *
 * export const apiKeyPlugin = definePlugin<{ keys: readonly string[] }, ReadonlySet<string>>({
 *   name: 'api_key',
 *   info: { description: 'Refuses unknown keys (401).', options: { keys: 'the accepted keys' } },
 *   init: (options) => new Set(options.keys),
 *   preRequest(req, ctx) {
 *     const key = req.header('x-api-key')
 *     return key !== undefined && ctx.state.has(key) ? ok(req) : stop(status(401, { error: 'a valid API key is required' }))
 *   },
 * })
 *
 * export default defineRoutes({
 *   prefix: '/api',
 *   security: false,
 *   plugins: [apiKeyPlugin({ keys: ['dev-key'] })],
 *   routes: [['GET /me', () => json({ name: 'Ada' })]],
 * })
 * ```
 */
export function definePlugin<O = Record<string, unknown>, S = undefined>(def: PluginDefinition<O, S>): Plugin<O, S>
/** @deprecated Write the callbacks `(req, ctx)` and read `ctx.options` and `ctx.state`. */
export function definePlugin<O = Record<string, unknown>, S = undefined>(
  def: LegacyBase<O, S> & { readonly legacy?: undefined } & Callbacks<FullCallback<O, S>>,
): Plugin<O, S>
/** @deprecated Write the callbacks `(req, ctx)` (`ctx.options`, `ctx.state`) and drop `legacy`. */
export function definePlugin<O = Record<string, unknown>, S = undefined>(
  def: LegacyBase<O, S> & { readonly legacy: false } & Callbacks<FullCallback<O, S>>,
): Plugin<O, S>
/** @deprecated Write the callbacks `(req, ctx)` (`ctx.options`) and drop `legacy`. */
export function definePlugin<O = Record<string, unknown>, S = undefined>(
  def: LegacyBase<O, S> & { readonly legacy: true } & Callbacks<TwoArgCallback<O>>,
): Plugin<O, S>
export function definePlugin<O, S>(def: PluginDefinition<O, S> | LegacyPluginDefinition<O, S>): Plugin<O, S> {
  if (!def.preRequest && !def.postRequest)
    throw new VelaError('VELA_ERR_PLUGIN', `plugin ${def.name}: needs preRequest or postRequest`)
  const callbacks = [def.preRequest, def.postRequest].filter((fn) => fn !== undefined)
  if (def.legacy !== undefined || callbacks.some((fn) => callbackForm(def, fn) !== 'context')) {
    warnDeprecated(
      'VELA_DEP_PLUGIN_FORM',
      `plugin ${def.name}: callbacks (req, env, options, state), (req, options) and the legacy flag are deprecated; write preRequest(req, ctx) and read ctx.options and ctx.state`,
    )
  }
  const use = (options?: O): PluginUse<O, S> => ({
    kind: 'vela.plugin-use',
    plugin,
    options: options ?? ({} as O),
  })
  const { name, ...rest } = def
  // A function's own `name` is read-only: it is defined, the rest assigned.
  const plugin = Object.assign(Object.defineProperty(use, 'name', { value: name }), rest, {
    kind: 'vela.plugin' as const,
  }) as unknown as Plugin<O, S>
  return plugin
}
