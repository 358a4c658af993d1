/**
 * What the route's pipeline tells the development dashboard about a recorded request: each
 * plugin that ran (its outcome and time), the security callback's verdict, and the headers of the
 * response as it went out. The recorder leaves a trace on the request's facts (the exchange) under
 * a registered symbol, so the dev server's copy of this module and the app's copy of the runtime
 * meet; an unrecorded request has none, and the pipeline asks only in `dev`.
 */
import type { Outcome } from '../respond.ts'
import type { PluginStepRecord, SecurityRecord } from './record.ts'

/** Where a recorded request's steps go. */
export interface RequestTrace {
  /** When the request started (`performance.now()`): the records' times count from it. */
  readonly started: number
  plugin(step: PluginStepRecord): void
  security(verdict: SecurityRecord): void
  /** The response as it goes out (after the `onResponse` hooks): its headers are read at once. */
  response(outcome: Outcome): void
}

const kTrace = Symbol.for('vela.dashboard.trace')
type Traced = { [kTrace]?: RequestTrace }

/** The trace of the request whose facts (or exchange) is `facts`, if it is being recorded. */
export const traceOf = (facts: object): RequestTrace | undefined => (facts as Traced)[kTrace]

/** Leaves `trace` on the request's facts: the pipeline and the exchange report to it. */
export const setTrace = (facts: object, trace: RequestTrace): void => void ((facts as Traced)[kTrace] = trace)
