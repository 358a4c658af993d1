/**
 * The sampler `OTEL_TRACES_SAMPLER` / `OTEL_TRACES_SAMPLER_ARG` name, as every OpenTelemetry SDK
 * reads them: `always_on`, `always_off`, `traceidratio`, `parentbased_always_on` (the default),
 * `parentbased_always_off`, `parentbased_traceidratio`; the ratio defaults to 1 when the argument
 * is missing or outside [0, 1]. An unknown name gives the default, with one diagnostic. Built from
 * the SDK's own classes (`@opentelemetry/sdk-node`'s), so a wrapper around it (the request
 * sampler) sees the same sampler the SDK would build.
 */
import { diag } from '@opentelemetry/api'
import type { Sampler } from '@opentelemetry/sdk-trace'
import {
  AlwaysOffSampler,
  AlwaysOnSampler,
  ParentBasedSampler,
  TraceIdRatioBasedSampler,
} from '@opentelemetry/sdk-trace'

/** The configured sampler; `env` defaults to `process.env`. */
export function samplerFromEnv(env: NodeJS.ProcessEnv = process.env): Sampler {
  const name = env.OTEL_TRACES_SAMPLER?.trim().toLowerCase() || 'parentbased_always_on'
  const ratio = () => {
    const arg = env.OTEL_TRACES_SAMPLER_ARG?.trim()
    const value = arg ? Number(arg) : NaN
    return value >= 0 && value <= 1 ? value : 1
  }
  const parentBased = (root: Sampler) => new ParentBasedSampler({ root })
  switch (name) {
    case 'always_on':
      return new AlwaysOnSampler()
    case 'always_off':
      return new AlwaysOffSampler()
    case 'traceidratio':
      return new TraceIdRatioBasedSampler(ratio())
    case 'parentbased_always_off':
      return parentBased(new AlwaysOffSampler())
    case 'parentbased_traceidratio':
      return parentBased(new TraceIdRatioBasedSampler(ratio()))
    case 'parentbased_always_on':
      return parentBased(new AlwaysOnSampler())
    default:
      diag.error(`vela/telemetry: unknown OTEL_TRACES_SAMPLER "${name}"; sampling parent-based, always on`)
      return parentBased(new AlwaysOnSampler())
  }
}
