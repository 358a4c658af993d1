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
 *
 * A new trace under the SDK's usual samplers (always on, always off, or a trace-id ratio, alone or
 * as the root of a parent-based sampler, recognised by their public `toString()`) is decided
 * without asking them: the trace id's four 32-bit words are drawn, and the trace is kept when
 * their exclusive or is below the ratio's bound, which is the ratio sampler's own rule, so an SDK
 * downstream with the same ratio keeps the same traces. The id is written out as hex only for a
 * trace that is kept: a request not sampled costs four random numbers. Under the SDK's parent-based
 * sampler with its default rule for spans with a parent (follow the parent's sampled flag), a
 * request with a `traceparent` and a query span under its request's span follow their parent's
 * flag without the sampler being asked.
 */
import type { Attributes, Context, Link, SpanKind } from '@opentelemetry/api'
import { SpanKind as Kind, TraceFlags, isSpanContextValid, trace } from '@opentelemetry/api'
import { isTracingSuppressed } from '@opentelemetry/core'
import type { IdGenerator, Sampler, SamplingResult } from '@opentelemetry/sdk-trace'
import { AlwaysOnSampler, ParentBasedSampler, RandomIdGenerator, SamplingDecision } from '@opentelemetry/sdk-trace'

/** The question the stream handler asks before building a request span. */
export interface SpanDecision {
  /** Whether the span of a request with this `method` is built (its `startSpan`, named `HTTP <method>`, follows at once). */
  decide(parent: Context, method: string): boolean
  /** Called after that `startSpan`. */
  settle(): void
}

/** For an SDK the app registered: every request span is built, and that SDK's sampler decides in `startSpan`. */
export const JOINED: SpanDecision = { decide: (parent) => !isTracingSuppressed(parent), settle: () => {} }

const NO_ATTRIBUTES: Attributes = Object.freeze({}) as Attributes
const NO_LINKS: Link[] = []
const SAMPLED: SamplingResult = Object.freeze({ decision: SamplingDecision.RECORD_AND_SAMPLED })
const NOT_SAMPLED: SamplingResult = Object.freeze({ decision: SamplingDecision.NOT_RECORD })
const SDK_SAMPLERS = new Set(['AlwaysOnSampler', 'AlwaysOffSampler', 'TraceIdRatioBasedSampler', 'ParentBasedSampler'])

/**
 * The description (`toString()`) of `sampler` when it and the samplers it holds are the SDK's own
 * classes: a subclass keeps their description but may decide otherwise.
 */
function sdkDescription(sampler: Sampler): string | undefined {
  const held = sampler as unknown as Record<string, unknown>
  const parts = [sampler, held._root, held._remoteParentSampled, held._remoteParentNotSampled]
  parts.push(held._localParentSampled, held._localParentNotSampled)
  return parts.every((part) => part === undefined || SDK_SAMPLERS.has((part as object).constructor.name))
    ? sampler.toString()
    : undefined
}

/**
 * The bound under which the exclusive or of a new trace id's four words keeps the trace, when
 * `sampler` decides new traces by the trace-id ratio rule (always on and always off included);
 * `undefined` for any other sampler, which is then asked.
 */
export function newTraceBound(sampler: Sampler): number | undefined {
  const described =
    /^(?:ParentBased\{root=)?(AlwaysOnSampler|AlwaysOffSampler|TraceIdRatioBased\{([^}]*)\})(?:,|$)/.exec(
      sdkDescription(sampler) ?? '',
    )
  if (!described) return undefined
  if (described[1] === 'AlwaysOnSampler') return 2 ** 32
  if (described[1] === 'AlwaysOffSampler') return 0
  const ratio = Number(described[2])
  if (!(ratio >= 0 && ratio <= 1)) return undefined
  return ratio === 1 ? 2 ** 32 : Math.floor(ratio * 0xffffffff)
}

/** Whether `sampler` is the SDK's parent-based sampler with its default rule for spans with a parent: follow it. */
export function followsParent(sampler: Sampler): boolean {
  return (sdkDescription(sampler) ?? '').endsWith(
    ', remoteParentSampled=AlwaysOnSampler, remoteParentNotSampled=AlwaysOffSampler, localParentSampled=AlwaysOnSampler, localParentNotSampled=AlwaysOffSampler}',
  )
}

const word = () => (Math.random() * 2 ** 32) >>> 0
// Written out through a buffer: Number#toString(16) is several times slower.
const ID_BYTES = Buffer.alloc(16)

/** The provider's sampler and id generator, and the per-request question asked ahead of `startSpan`. */
export class RequestSampler implements Sampler, IdGenerator, SpanDecision {
  readonly #inner: Sampler
  readonly #ids: IdGenerator = new RandomIdGenerator()
  #decided: SamplingResult | undefined = undefined
  #traceId: string | undefined = undefined
  readonly #newTraceBound: number | undefined
  readonly #followsParent: boolean

  /** `inner`: the configured sampler; default parent-based, always on for new traces. */
  constructor(inner: Sampler = new ParentBasedSampler({ root: new AlwaysOnSampler() })) {
    this.#inner = inner
    this.#newTraceBound = newTraceBound(inner)
    this.#followsParent = followsParent(inner)
  }

  /**
   * Whether the server span of a `method` request under `parent` is recorded. When it is, the next
   * `startSpan` gets this decision and (for a new trace) the trace id it was made for.
   */
  decide(parent: Context, method: string): boolean {
    if (isTracingSuppressed(parent)) return false
    const parentContext = trace.getSpanContext(parent)
    const child = parentContext !== undefined && isSpanContextValid(parentContext)
    if (!child && this.#newTraceBound !== undefined) return this.#decideNewTrace(this.#newTraceBound)
    if (child && this.#followsParent) {
      if ((parentContext.traceFlags & TraceFlags.SAMPLED) === 0) return false
      this.#decided = SAMPLED
      return true
    }
    const traceId = child ? parentContext.traceId : this.#ids.generateTraceId()
    const result = this.#inner.shouldSample(parent, traceId, `HTTP ${method}`, Kind.SERVER, NO_ATTRIBUTES, NO_LINKS)
    if (result.decision === SamplingDecision.NOT_RECORD) return false
    this.#decided = result
    this.#traceId = child ? undefined : traceId
    return true
  }

  /** A new trace under the ratio rule: its id drawn as four words, written out only when it is kept. */
  #decideNewTrace(bound: number): boolean {
    const w0 = word()
    const w1 = word()
    const w2 = word()
    // An all-zero id is invalid; the SDK's generator makes its last byte 1.
    const w3 = word() || (w0 | w1 | w2 ? 0 : 1)
    if ((w0 ^ w1 ^ w2 ^ w3) >>> 0 >= bound) return false
    this.#decided = SAMPLED
    ID_BYTES.writeUInt32BE(w0, 0)
    ID_BYTES.writeUInt32BE(w1, 4)
    ID_BYTES.writeUInt32BE(w2, 8)
    ID_BYTES.writeUInt32BE(w3, 12)
    this.#traceId = ID_BYTES.toString('hex')
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
    if (this.#followsParent) {
      // The tracer gives a span its parent's trace id only when the parent is valid: then the rule
      // is to follow the parent's flag (a query span under its request's span).
      const parent = trace.getSpanContext(context)
      if (parent !== undefined && parent.traceId === traceId)
        return (parent.traceFlags & TraceFlags.SAMPLED) === 0 ? NOT_SAMPLED : SAMPLED
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
