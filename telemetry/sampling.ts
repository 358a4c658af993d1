/**
 * The request span's sampling decision, asked before anything of the span is built: an unsampled
 * request then costs one sampler call and nothing else (no span object, no attributes).
 *
 * The SDK's tracer asks its sampler inside `startSpan`, after generating the ids, and returns a
 * non-recording span object when the answer is no. To ask first without asking twice, the tracer
 * provider is built with this object as its sampler and id generator: `decide()` asks the
 * configured sampler (default: parent-based, always on for new traces) with the trace id the span
 * will have, and when the answer is yes hands that answer and that id to the `startSpan` call that
 * follows at once (both are used once, synchronously, then forgotten).
 */
import type { Attributes, Context, Link, SpanKind } from '@opentelemetry/api'
import { SpanKind as Kind, isSpanContextValid, trace } from '@opentelemetry/api'
import { core, tracing } from '@opentelemetry/sdk-node'

type IdGenerator = tracing.IdGenerator
type Sampler = tracing.Sampler
type SamplingResult = tracing.SamplingResult
const { AlwaysOnSampler, ParentBasedSampler, RandomIdGenerator, SamplingDecision } = tracing
const { isTracingSuppressed } = core

/** The question the stream handler asks before building a request span. */
export interface SpanDecision {
  /** Whether the request span is built (its `startSpan` follows at once). */
  decide(parent: Context, name: string): boolean
  /** Called after that `startSpan`. */
  settle(): void
}

/** For an SDK the app registered: every request span is built, and that SDK's sampler decides in `startSpan`. */
export const JOINED: SpanDecision = { decide: (parent) => !isTracingSuppressed(parent), settle: () => {} }

const NO_ATTRIBUTES: Attributes = Object.freeze({}) as Attributes
const NO_LINKS: Link[] = []

/** The provider's sampler and id generator, and the per-request question asked ahead of `startSpan`. */
export class RequestSampler implements Sampler, IdGenerator, SpanDecision {
  readonly #inner: Sampler
  readonly #ids: IdGenerator = new RandomIdGenerator()
  #decided: SamplingResult | undefined = undefined
  #traceId: string | undefined = undefined

  /** `inner`: the configured sampler; default parent-based, always on for new traces. */
  constructor(inner: Sampler = new ParentBasedSampler({ root: new AlwaysOnSampler() })) {
    this.#inner = inner
  }

  /**
   * Whether a server span named `name` under `parent` is recorded. When it is, the next
   * `startSpan` gets this decision and (for a new trace) the trace id it was made for.
   */
  decide(parent: Context, name: string): boolean {
    if (isTracingSuppressed(parent)) return false
    const parentContext = trace.getSpanContext(parent)
    const child = parentContext !== undefined && isSpanContextValid(parentContext)
    const traceId = child ? parentContext.traceId : this.#ids.generateTraceId()
    const result = this.#inner.shouldSample(parent, traceId, name, Kind.SERVER, NO_ATTRIBUTES, NO_LINKS)
    if (result.decision === SamplingDecision.NOT_RECORD) return false
    this.#decided = result
    this.#traceId = child ? undefined : traceId
    return true
  }

  /** Forgets a decision `startSpan` did not take (it always does; this keeps a miss from leaking to the next span). */
  settle(): void {
    this.#decided = undefined
    this.#traceId = undefined
  }

  shouldSample(
    context: Context,
    traceId: string,
    name: string,
    kind: SpanKind,
    attributes: Attributes,
    links: Link[],
  ): SamplingResult {
    const decided = this.#decided
    if (decided !== undefined) {
      this.#decided = undefined
      return decided
    }
    return this.#inner.shouldSample(context, traceId, name, kind, attributes, links)
  }

  generateTraceId(): string {
    const id = this.#traceId
    if (id !== undefined) {
      this.#traceId = undefined
      return id
    }
    return this.#ids.generateTraceId()
  }

  generateSpanId(): string {
    return this.#ids.generateSpanId()
  }

  toString(): string {
    return `RequestSampler{${this.#inner.toString()}}`
  }
}
