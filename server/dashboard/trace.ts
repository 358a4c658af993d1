/**
 * Where the pipeline's reports on a recorded request go (its plugins and security verdict, through
 * the recorder's observer), and the response's headers (through its `onResponse` hook). The
 * recorder leaves the trace on the request's facts (the exchange) under a registered symbol, so
 * the dev server's copy of this module and the app's copy of the runtime meet on it; an unrecorded
 * request has none.
 */
import type { PipelineTrace } from '../pipeline/observer.ts'

/** A recorded request's trace: the pipeline's reports, and the response's headers as sent. */
export interface RequestTrace extends PipelineTrace {
  /** The response's headers as they go out (after the app's `onResponse` hooks). */
  responseHeaders(entries: [string, string][]): void
}

const kTrace = Symbol.for('vela.dashboard.trace')
type Traced = { [kTrace]?: RequestTrace }

/** The trace of the request whose facts (or exchange) is `facts`, if it is being recorded. */
export const traceOf = (facts: object): RequestTrace | undefined => (facts as Traced)[kTrace]

/** Leaves `trace` on the request's facts: the recorder's observer and response hook find it there. */
export const setTrace = (facts: object, trace: RequestTrace): void => void ((facts as Traced)[kTrace] = trace)
