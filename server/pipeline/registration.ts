/**
 * A `plugins` list made ready to run, once at start-up: each entry becomes a registration (its
 * plugin, options and state, `init`'s value) and one step per phase it runs in. An entry is a
 * plugin called with its options (`corsPlugin({ … })`), which runs in every phase the plugin has
 * a callback for, or the older tuple `[phase, plugin, options]`, which runs in that phase only.
 *
 * Each route gets its own `PluginContext` per step, made when its pipeline is built: a callback's
 * `ctx` costs the request nothing, and `ctx.state` reads and writes the registration's state.
 */
import type { MaybePromise } from '../contracts/primitives.ts'
import { VelaError } from '../errors/vela-error.ts'
import type { VelaRequest } from '../request.ts'
import type {
  AnyPlugin,
  AnyPluginUse,
  FullCallback,
  Phase,
  Plugin,
  PluginContext,
  PluginEnv,
  PluginHandler,
  PluginInitContext,
  PluginResult,
  PluginUse,
  TwoArgCallback,
} from './plugin.ts'
import { callbackForm } from './plugin.ts'

/** The older registration: `[phase, plugin, options]`, running in that phase only. */
export type PluginTuple = readonly [phase: Phase, plugin: AnyPlugin, options?: object]

/** One entry of a `plugins` list: a plugin called with its options (`corsPlugin({ allowOrigins: '*' })`), or the older tuple. */
export type PluginEntry = AnyPluginUse | PluginTuple

/** One registration: its plugin and options, and the state its steps share. */
export interface PluginRegistration {
  readonly plugin: Plugin<unknown, unknown>
  readonly options: object
  state: unknown
}

/** One phase of a registration, made ready to run. */
export interface PluginStep {
  readonly phase: Phase
  readonly plugin: Plugin<unknown, unknown>
  readonly options: object
  readonly registration: PluginRegistration
  readonly call: (req: VelaRequest, ctx: StepContext) => MaybePromise<PluginResult>
  /** An older plugin's `(req, options)` callback registered as a tuple: its `ctx` reads options by name too. */
  readonly optionsByName?: true
}

/** A step's `ctx` on one route: where it runs, and its registration's options and state. */
export class StepContext implements PluginContext<object, unknown> {
  readonly app: string
  readonly environment: string
  readonly phase: Phase
  readonly route: PluginEnv['route']
  readonly jsonLib: PluginEnv['jsonLib']
  readonly options: object
  readonly #registration: PluginRegistration

  constructor(registration: PluginRegistration, env: PluginEnv) {
    this.app = env.app
    this.environment = env.environment
    this.phase = env.phase
    this.route = env.route
    this.jsonLib = env.jsonLib
    this.options = registration.options
    this.#registration = registration
  }

  get state(): unknown {
    return this.#registration.state
  }

  set state(value: unknown) {
    this.#registration.state = value
  }
}

const CALLBACK: Record<Phase, 'preRequest' | 'postRequest'> = {
  pre_request: 'preRequest',
  post_request: 'postRequest',
}

/**
 * The `ctx` of `step` on one route. A plugin registered as a tuple whose callback declares
 * `(req, options)` without the `legacy` flag was written for the older two-argument form, which
 * arity cannot tell from `(req, ctx)`: its `ctx` also reads each option by name (`ctx.maxAge`),
 * below its own fields (`app`, `environment`, `phase`, `route`, `jsonLib`, `options`, `state`).
 */
export function stepContext(step: PluginStep, env: PluginEnv): StepContext {
  const ctx = new StepContext(step.registration, env)
  if (!step.optionsByName) return ctx
  return Object.setPrototypeOf(
    ctx,
    Object.create(step.options, Object.getOwnPropertyDescriptors(StepContext.prototype)),
  )
}

function stepOf(phase: Phase, registration: PluginRegistration, tuple = false): PluginStep {
  const { plugin, options } = registration
  const fn = plugin[CALLBACK[phase]]!
  const form = callbackForm(plugin, fn)
  const call: PluginStep['call'] =
    form === 'context'
      ? (fn as PluginHandler<object, unknown>)
      : form === 'full'
        ? (req, ctx) => (fn as FullCallback<object, unknown>)(req, ctx, options, registration.state)
        : (req) => (fn as TwoArgCallback<object>)(req, options)
  const optionsByName = tuple && form === 'context' && fn.length === 2 && plugin.legacy === undefined
  return { phase, plugin, options, registration, call, ...(optionsByName ? { optionsByName } : {}) }
}

function isPlugin(value: unknown): value is Plugin<unknown, unknown> {
  return (value as Plugin | undefined)?.kind === 'vela.plugin'
}

export function compilePluginEntries(
  entries: readonly PluginEntry[],
  where: string,
  ctx: PluginInitContext,
): PluginStep[] {
  const steps: PluginStep[] = []
  entries.forEach((entry, i) => {
    const registered = (plugin: Plugin<unknown, unknown>, options: object): PluginRegistration => ({
      plugin,
      options,
      state: plugin.init ? plugin.init(options, ctx) : undefined,
    })
    if ((entry as PluginUse | undefined)?.kind === 'vela.plugin-use') {
      const use = entry as PluginUse<unknown, unknown>
      const registration = registered(use.plugin, use.options as object)
      if (use.plugin.preRequest) steps.push(stepOf('pre_request', registration))
      if (use.plugin.postRequest) steps.push(stepOf('post_request', registration))
      return
    }
    if (isPlugin(entry)) {
      throw new VelaError(
        'VELA_ERR_PLUGIN',
        `${where}: plugin entry ${i} is the plugin ${entry.name} itself; register it by calling it with its options: ${entry.name}({ … })`,
      )
    }
    if (!Array.isArray(entry))
      throw new VelaError('VELA_ERR_PLUGIN', `${where}: plugin entry ${i} is not a plugin made by definePlugin`)
    const [phase, plugin, options = {}] = entry as PluginTuple
    if (phase !== 'pre_request' && phase !== 'post_request') {
      throw new VelaError(
        'VELA_ERR_PLUGIN',
        `${where}: plugin entry ${i} has phase ${JSON.stringify(phase)}; use 'pre_request' or 'post_request'`,
      )
    }
    if (!isPlugin(plugin))
      throw new VelaError('VELA_ERR_PLUGIN', `${where}: plugin entry ${i} is not a plugin made by definePlugin`)
    if (!plugin[CALLBACK[phase]])
      throw new VelaError('VELA_ERR_PLUGIN', `${where}: plugin ${plugin.name} has no ${CALLBACK[phase]} callback`)
    steps.push(stepOf(phase, registered(plugin, options), true))
  })
  return steps
}

/** The phases an entry runs in, with its plugin and options: for listing a `plugins` list without compiling it. */
export function entryPhases(entry: PluginEntry): { phase: Phase; plugin: Plugin<unknown, unknown>; options: object }[] {
  if (!Array.isArray(entry)) {
    const { plugin, options } = entry as PluginUse<unknown, unknown>
    const phases: Phase[] = []
    if (plugin.preRequest) phases.push('pre_request')
    if (plugin.postRequest) phases.push('post_request')
    return phases.map((phase) => ({ phase, plugin, options: options as object }))
  }
  const [phase, plugin, options = {}] = entry as PluginTuple
  return [{ phase, plugin, options }]
}
