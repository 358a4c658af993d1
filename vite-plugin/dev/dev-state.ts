/**
 * Where the app in development is (dev-app.ts), and every move between its states, in one place:
 *
 *   loading ── loads and starts ──────────────────▶ serving
 *   loading ── fails to load, or its start throws ─▶ failed (every request a 503)
 *   serving ── a swap's new app serves ────────────▶ serving (the new app)
 *   serving ── the new code fails to load ─────────▶ serving (the previous app; the next edit retries)
 *   serving ── the new app's start hook throws ────▶ failed ('start')
 *   failed ─── an edit loads and starts ───────────▶ serving
 *   failed ─── an edit fails to load or start ─────▶ failed
 *   any ────── close ──────────────────────────────▶ closed (nothing moves it again)
 *
 * Shutdown beginning (`drain`) is no state of its own: the app serves or fails as before, and every
 * state after it says so (`draining`), so an app swapped in then is drained too.
 */
import type { VelaApp } from '../../server/app/create-app.ts'
import type { FailureKind } from './dev-failure.ts'
import type { Changes } from './dev-modules.ts'

/** What a failed load leaves to the next swap: the failed edit's files, and whether that swap must run the hooks. */
export interface Retry {
  readonly files: Changes
  /** The failed swap was a lifecycle swap (or the app was not serving): the retry is one too. */
  readonly lifecycle: boolean
}

interface Common {
  /** Shutdown began: the dev app reports `draining`, and each app that serves from now on is drained. */
  readonly draining: boolean
}

/** Before the first load has finished: nothing answers yet. */
export interface Loading extends Common {
  readonly kind: 'loading'
}

/** An app serves; `started` is the one whose start hook ran (older than `app` after code-only swaps). */
export interface Serving extends Common {
  readonly kind: 'serving'
  readonly app: VelaApp
  /** Its stop hook runs before the next start hook, and when the dev server closes. */
  readonly started: VelaApp
  /** Set when newer code failed to load: any module edit under `src/` retries, with these files. */
  readonly retry: Retry | undefined
}

/** The app cannot run: `app` answers every request with a 503 until an edit makes it load and start. */
export interface Failed extends Common {
  readonly kind: 'failed'
  /** It failed to `load` (no app to serve) or its `start` hook threw. */
  readonly why: FailureKind
  /** The framed error (dev-errors.ts). */
  readonly error: string
  /** The 503 app (dev-failure.ts). */
  readonly app: VelaApp
  /** The app whose start hook ran, if any (for `start`: the one that threw): its stop hook runs before the next start. */
  readonly started: VelaApp | undefined
  /** After a failed load: the failed edit's files, for the next swap. */
  readonly retry: Retry | undefined
}

/** Closed: the started app was stopped; `app` (the last to answer) answers whatever still arrives. */
export interface Closed extends Common {
  readonly kind: 'closed'
  readonly app: VelaApp | undefined
}

export type DevState = Loading | Serving | Failed | Closed

/** What moves the dev app from one state to the next. */
export type DevEvent =
  /** A swap's new app serves: after a code-only swap `started` is the app started before, else `app` itself. */
  | { readonly type: 'served'; readonly app: VelaApp; readonly started: VelaApp }
  /**
   * A swap's new code failed to load: its files (`all` for a full reload), whether it was a
   * lifecycle swap, and the 503 app to answer with when nothing serves.
   */
  | {
      readonly type: 'load-failed'
      readonly files: Changes | 'all'
      readonly lifecycle: boolean
      readonly error: string
      readonly answer: () => VelaApp
    }
  /** The new app's start hook threw (`started`: that app); `answer` is the 503 app. */
  | { readonly type: 'start-failed'; readonly started: VelaApp; readonly error: string; readonly answer: VelaApp }
  | { readonly type: 'drain' }
  | { readonly type: 'closed' }

export const INITIAL: DevState = { kind: 'loading', draining: false }

/** The state after `event`; `closed` is final. */
export function transition(state: DevState, event: DevEvent): DevState {
  if (state.kind === 'closed') return state
  const { draining } = state
  switch (event.type) {
    case 'served':
      return { kind: 'serving', app: event.app, started: event.started, retry: undefined, draining }
    case 'load-failed': {
      const files = event.files === 'all' ? (retryOf(state)?.files ?? new Map()) : event.files
      if (state.kind === 'serving') {
        const lifecycle = event.lifecycle || (state.retry?.lifecycle ?? false)
        return { ...state, retry: { files, lifecycle } }
      }
      return {
        kind: 'failed',
        why: 'load',
        error: event.error,
        app: event.answer(),
        started: state.kind === 'failed' ? state.started : undefined,
        retry: { files, lifecycle: true },
        draining,
      }
    }
    case 'start-failed':
      return {
        kind: 'failed',
        why: 'start',
        error: event.error,
        app: event.answer,
        started: event.started,
        retry: undefined,
        draining,
      }
    case 'drain':
      return { ...state, draining: true }
    case 'closed':
      return { kind: 'closed', app: state.kind === 'loading' ? undefined : state.app, draining }
  }
}

/** What a failed load left to retry, in any state. */
export const retryOf = (state: DevState): Retry | undefined =>
  state.kind === 'serving' || state.kind === 'failed' ? state.retry : undefined

/** The app whose start hook ran and has not been stopped by a later start, in any state. */
export const startedOf = (state: DevState): VelaApp | undefined =>
  state.kind === 'serving' || state.kind === 'failed' ? state.started : undefined
