// OTEL_TRACES_SAMPLER / OTEL_TRACES_SAMPLER_ARG as the OpenTelemetry SDKs read them.
import { expect, it } from 'vitest'
import { samplerFromEnv } from './env-sampler.ts'

const described = (env: NodeJS.ProcessEnv) => samplerFromEnv(env).toString()

it('default: parent-based, always on for new traces', () => {
  expect(described({})).toBe(
    'ParentBased{root=AlwaysOnSampler, remoteParentSampled=AlwaysOnSampler, remoteParentNotSampled=AlwaysOffSampler, localParentSampled=AlwaysOnSampler, localParentNotSampled=AlwaysOffSampler}',
  )
})

it('each standard name, and the ratio argument', () => {
  expect(described({ OTEL_TRACES_SAMPLER: 'always_on' })).toBe('AlwaysOnSampler')
  expect(described({ OTEL_TRACES_SAMPLER: 'always_off' })).toBe('AlwaysOffSampler')
  expect(described({ OTEL_TRACES_SAMPLER: 'traceidratio', OTEL_TRACES_SAMPLER_ARG: '0.25' })).toBe(
    'TraceIdRatioBased{0.25}',
  )
  expect(described({ OTEL_TRACES_SAMPLER: 'parentbased_traceidratio', OTEL_TRACES_SAMPLER_ARG: '0.1' })).toMatch(
    /^ParentBased\{root=TraceIdRatioBased\{0.1\}, /,
  )
  expect(described({ OTEL_TRACES_SAMPLER: 'parentbased_always_off' })).toMatch(/^ParentBased\{root=AlwaysOffSampler, /)
})

it('a missing or out-of-range ratio is 1; an unknown name is the default', () => {
  expect(described({ OTEL_TRACES_SAMPLER: 'traceidratio' })).toBe('TraceIdRatioBased{1}')
  expect(described({ OTEL_TRACES_SAMPLER: 'traceidratio', OTEL_TRACES_SAMPLER_ARG: '7' })).toBe('TraceIdRatioBased{1}')
  expect(described({ OTEL_TRACES_SAMPLER: 'sometimes' })).toBe(described({}))
})
