/**
 * The app this process created last: its root folder and environment, for modules an app uses
 * without being handed the app (`vela/mail` finds its templates under the root and decides from
 * the environment whether to send or keep a message). Set by `createApp`.
 *
 * Kept on `globalThis` under a registered symbol: the built server, the dev server and Vite's
 * module runner may each hold a copy of this module, and must agree.
 */

/** What `currentApp()` tells of the app. */
export interface CurrentApp {
  /** The app root: the Vite root in development and the CLI, `dist/` in a built server. */
  readonly root: string
  /** `config.environment` (`dev`, `test`, `prod`, …). */
  readonly environment: string
}

const kCurrent = Symbol.for('vela.app.current')
type Holder = { [kCurrent]?: CurrentApp }

/** The app this process created last, or undefined before any. */
export function currentApp(): CurrentApp | undefined {
  return (globalThis as Holder)[kCurrent]
}

/** Records `app` as the current one (`createApp` calls it); `undefined` forgets it (tests). */
export function setCurrentApp(app: CurrentApp | undefined): void {
  ;(globalThis as Holder)[kCurrent] = app
}
