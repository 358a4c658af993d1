// The request page's pipeline rows: each plugin step and the security verdict in the order they
// ran, in words (continued, ended its phase, replied 429, failed: …, threw …; allowed, denied 401).
import { expect, it } from 'vitest'
import type { RequestRecord } from '../../server/dashboard/record.ts'
import { pipelineSteps } from './pages.ts'

const base = {
  id: 'r1',
  startedAt: 0,
  method: 'GET',
  path: '/',
  query: undefined,
  client: undefined,
  headers: [],
  logs: [],
  spans: [],
  bytes: 0,
}

it('lists plugins and the security callback in the order they ran, each outcome in words', () => {
  const r = {
    ...base,
    plugins: [
      { name: 'cors', phase: 'pre_request', outcome: { kind: 'continued' }, startMs: 0.1, durationMs: 0.01 },
      { name: 'limit', phase: 'pre_request', outcome: { kind: 'ended-phase' }, startMs: 0.2, durationMs: 0.02 },
      {
        name: 'audit',
        phase: 'post_request',
        outcome: { kind: 'failed', message: 'store down' },
        startMs: 3,
        durationMs: 0.5,
      },
    ],
    security: { callback: 'requireUser', verdict: 'allowed', authData: true, startMs: 0.5, durationMs: 1.25 },
  } as RequestRecord
  expect(pipelineSteps(r).map((s) => [s.phase, s.name, s.text, s.outcome, s.duration])).toEqual([
    ['pre', 'cors', 'continued', 'continued', '0.01'],
    ['pre', 'limit', 'ended its phase', 'continued', '0.02'],
    ['security', 'requireUser', 'allowed (auth data)', 'continued', '1.25'],
    ['post', 'audit', 'failed: store down', 'failed', '0.50'],
  ])
})

it('a plugin that replied or threw, and a denial, are marked', () => {
  const r = {
    ...base,
    plugins: [
      { name: 'gate', phase: 'pre_request', outcome: { kind: 'replied', status: 429 }, startMs: 0, durationMs: 0 },
      {
        name: 'boom',
        phase: 'pre_request',
        outcome: { kind: 'threw', message: 'Error: nope' },
        startMs: 1,
        durationMs: 0,
      },
    ],
    security: { callback: 'anonymous', verdict: 'denied', status: 401, startMs: 2, durationMs: 0 },
  } as RequestRecord
  expect(pipelineSteps(r).map((s) => [s.text, s.outcome])).toEqual([
    ['replied 429', 'replied'],
    ['threw Error: nope', 'failed'],
    ['denied 401', 'denied'],
  ])
  expect(pipelineSteps({ ...base, plugins: [] } as unknown as RequestRecord)).toEqual([])
})
