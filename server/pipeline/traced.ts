/**
 * The pipeline's plugin steps and security callback, reported to the app's observer (observer.ts)
 * when it traces the request: what each returned or threw, and how long it took. The pipeline
 * calls these instead of the callbacks only when the app has an observer; a request it does not
 * trace pays one `traceOf` call. What they give, return or throw is the callback's own, unchanged.
 */
import type { MaybePromise } from '../contracts/primitives.ts'
import type { SecurityCallback } from '../contracts/routes.ts'
import { isReply } from '../replies.ts'
import type { VelaRequest } from '../request.ts'
import type { PipelineObserver, SecurityReport, StepOutcome } from './observer.ts'
import type { PluginResult } from './plugin.ts'
import type { PluginStep, StepContext } from './registration.ts'

const messageOf = (err: unknown): string => (err instanceof Error ? `${err.name}: ${err.message}` : String(err))

const isThenable = <T>(v: T | PromiseLike<T>): v is PromiseLike<T> =>
  typeof (v as { then?: unknown } | null)?.then === 'function'

/** Runs `call`, then `report` with its value or what it threw, and the time it took. */
function timed<T>(
  call: () => MaybePromise<T>,
  report: (settled: { value: T } | { error: unknown }, durationMs: number) => void,
): MaybePromise<T> {
  const started = performance.now()
  const done = (settled: { value: T } | { error: unknown }) => report(settled, performance.now() - started)
  let raw: MaybePromise<T>
  try {
    raw = call()
  } catch (error) {
    done({ error })
    throw error
  }
  if (!isThenable(raw)) {
    done({ value: raw })
    return raw
  }
  return Promise.resolve(raw).then(
    (value) => {
      done({ value })
      return value
    },
    (error: unknown) => {
      done({ error })
      throw error
    },
  )
}

function stepOutcome(r: unknown): StepOutcome {
  const result = r as { result?: string; reply?: { status?: number }; reason?: unknown } | undefined
  switch (result?.result) {
    case 'ok':
      return { kind: 'continued' }
    case 'break':
      return { kind: 'ended-phase' }
    case 'stop':
      return { kind: 'replied', status: result.reply?.status ?? 200 }
    case 'error':
      return { kind: 'failed', message: messageOf(result.reason) }
    default:
      return { kind: 'threw', message: 'returned something other than ok(), breakPhase(), stop(reply) or fail(reason)' }
  }
}

/** Calls the plugin step, reporting it to the request's trace when the observer traces the request. */
export function callStep(
  observer: PipelineObserver,
  step: PluginStep,
  req: VelaRequest,
  ctx: StepContext,
): MaybePromise<PluginResult> {
  const trace = observer.traceOf(req.facts)
  if (!trace) return step.call(req, ctx)
  const startMs = performance.now() - trace.started
  return timed(
    () => step.call(req, ctx),
    (settled, durationMs) =>
      trace.plugin({
        name: step.plugin.name,
        phase: step.phase,
        outcome: 'value' in settled ? stepOutcome(settled.value) : { kind: 'threw', message: messageOf(settled.error) },
        startMs,
        durationMs,
      }),
  )
}

function verdictOf(v: unknown): Pick<SecurityReport, 'verdict' | 'status' | 'authData' | 'message'> {
  if (v === true) return { verdict: 'allowed' }
  if (v === false) return { verdict: 'denied', status: 401 }
  if (isReply(v) || v instanceof Response) return { verdict: 'replied', status: v.status }
  if (typeof v === 'object' && v !== null && !Array.isArray(v)) return { verdict: 'allowed', authData: true }
  return { verdict: 'threw', message: 'returned something other than true, false, an auth data object or a reply' }
}

/** Calls the group's security callback, reporting its verdict to the request's trace when the observer traces the request. */
export function callSecurity<T>(
  observer: PipelineObserver,
  security: SecurityCallback,
  req: VelaRequest,
): MaybePromise<T> {
  const trace = observer.traceOf(req.facts)
  if (!trace) return security(req) as MaybePromise<T>
  const callback = security.name && security.name !== 'security' ? security.name : 'anonymous'
  const startMs = performance.now() - trace.started
  return timed(
    () => security(req) as MaybePromise<T>,
    (settled, durationMs) =>
      trace.security({
        callback,
        ...('value' in settled ? verdictOf(settled.value) : { verdict: 'threw', message: messageOf(settled.error) }),
        startMs,
        durationMs,
      }),
  )
}
