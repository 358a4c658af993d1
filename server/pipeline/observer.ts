/**
 * What the route's pipeline reports to an observer of its requests: each plugin step that ran (its
 * outcome and time) and the security callback's verdict. An app is given one through `createApp`'s
 * `observer` option (the dev server gives its dashboard's recorder); the pipeline decides when it
 * compiles a route whether to report, so an app without an observer calls its callbacks directly.
 * Types only: the calls that report are in traced.ts.
 */
import type { RequestFacts } from '../contracts/request.ts'

/** What a plugin step came to: it let the request go on, ended its phase, replied, failed or threw. */
export type StepOutcome =
  | { readonly kind: 'continued' }
  | { readonly kind: 'ended-phase' }
  | { readonly kind: 'replied'; readonly status: number }
  | { readonly kind: 'failed'; readonly message: string }
  | { readonly kind: 'threw'; readonly message: string }

/** One plugin step that ran, reported as it settles (pre-request steps first, in order). */
export interface PluginStepReport {
  readonly name: string
  readonly phase: 'pre_request' | 'post_request'
  readonly outcome: StepOutcome
  /** Milliseconds from the trace's `started`, and how long the plugin took. */
  readonly startMs: number
  readonly durationMs: number
}

/** The group's security callback: its name and its verdict. */
export interface SecurityReport {
  /** The callback's function name (`anonymous` without one). */
  readonly callback: string
  /** `allowed` (true or auth data), `denied` (false: a 401), `replied` (its own reply), `threw`. */
  readonly verdict: 'allowed' | 'denied' | 'replied' | 'threw'
  /** The reply's status for `denied` (401) and `replied`. */
  readonly status?: number
  /** Whether it gave auth data (an object) rather than `true`. */
  readonly authData?: boolean
  /** What it threw, or the invalid value it returned (both a 500). */
  readonly message?: string
  /** Milliseconds from the trace's `started`, and how long the callback took. */
  readonly startMs: number
  readonly durationMs: number
}

/** Where the reports on one observed request go. */
export interface PipelineTrace {
  /** When the request started (`performance.now()`): the reports' times count from it. */
  readonly started: number
  plugin(step: PluginStepReport): void
  security(verdict: SecurityReport): void
}

/** Watches the pipeline's steps: asked once per plugin step and security callback of each request. */
export interface PipelineObserver {
  /** The trace of the request whose facts are `request`; undefined when this request is not observed. */
  traceOf(request: RequestFacts): PipelineTrace | undefined
}
