// The dev app's moves between states (dev-state.ts) that no dev server run shows directly: what a
// failed load leaves to retry while the previous app serves, and `closed` being final.
import { expect, it } from 'vitest'
import type { VelaApp } from '../../server/app/create-app.ts'
import type { DevState } from './dev-state.ts'
import { INITIAL, retryOf, startedOf, transition } from './dev-state.ts'

const app = (name: string) => ({ name }) as unknown as VelaApp
const a = app('a')
const b = app('b')
const unavailable = app('503')
const answer = () => unavailable

it('a failed load while serving keeps the app and the started one; the retry gathers the files and stays a lifecycle swap once one failed', () => {
  let state: DevState = transition(INITIAL, { type: 'served', app: a, started: a })
  state = transition(state, { type: 'served', app: b, started: a })
  const first = new Map([['/app/src/app.ts', 'change' as const]])
  state = transition(state, { type: 'load-failed', files: first, lifecycle: true, error: 'x', answer })
  const second = new Map([...first, ['/app/src/controllers/c.ts', 'change' as const]])
  state = transition(state, { type: 'load-failed', files: second, lifecycle: false, error: 'y', answer })
  expect(state).toMatchObject({ kind: 'serving', app: b, started: a })
  expect(retryOf(state)).toEqual({ files: second, lifecycle: true })
  // A full reload that fails keeps the files of the edit before it.
  state = transition(state, { type: 'load-failed', files: 'all', lifecycle: true, error: 'z', answer })
  expect(retryOf(state)?.files).toBe(second)
  expect(transition(state, { type: 'served', app: a, started: a })).toMatchObject({ kind: 'serving', retry: undefined })
})

it('a failed load with nothing serving answers 503 and keeps the app whose start threw, to stop it before the next start', () => {
  const failed = transition(INITIAL, { type: 'start-failed', started: a, error: 'no db', answer: unavailable })
  const state = transition(failed, {
    type: 'load-failed',
    files: new Map([['/app/src/app.ts', 'change' as const]]),
    lifecycle: false,
    error: 'syntax',
    answer,
  })
  expect(state).toMatchObject({ kind: 'failed', why: 'load', error: 'syntax', app: unavailable, started: a })
  expect(retryOf(state)?.lifecycle).toBe(true)
})

it('closed is final, and keeps whether shutdown had begun', () => {
  let state = transition(INITIAL, { type: 'served', app: a, started: a })
  state = transition(state, { type: 'drain' })
  state = transition(state, { type: 'closed' })
  expect(state).toEqual({ kind: 'closed', app: a, draining: true })
  expect(transition(state, { type: 'served', app: b, started: b })).toBe(state)
  expect(startedOf(state)).toBeUndefined()
})
