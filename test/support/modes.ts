/**
 * One case list, two modes (as h3 tests itself): every case runs in-process through `inject` and
 * over real HTTP against the production listener on an ephemeral port. The app logs through a
 * strict log (logs.ts): a case that makes the app log an error fails unless it declares it with
 * `t.expectLogged(/pattern/)`, so an unexpected 500 inside a passing case cannot vanish.
 */
import { afterAll, beforeAll, describe } from 'vitest'
import type { AppConfig } from '../../server/app/config.ts'
import type { CreateAppOptions, VelaApp } from '../../server/app/create-app.ts'
import { createApp } from '../../server/app/create-app.ts'
import type { InjectOptions, TestServer } from '../../server/testing/index.ts'
import { inject, startTestServer } from '../../server/testing/index.ts'
import { strictLog } from './logs.ts'

export type Mode = 'in-process' | 'http'

export interface ModeContext {
  readonly mode: Mode
  request(opts: InjectOptions | string): Promise<Response>
  readonly app: VelaApp
  /** Declares that this case makes the app log an entry matching `pattern` (a 500's error). */
  expectLogged(pattern: RegExp): void
}

export function describeModes(
  name: string,
  config: AppConfig | (() => AppConfig),
  cases: (t: ModeContext) => void,
  options: CreateAppOptions = {},
): void {
  for (const mode of ['in-process', 'http'] as const) {
    describe(`${name} [${mode}]`, () => {
      const logs = strictLog()
      const app = createApp(typeof config === 'function' ? config() : config, { env: {}, log: logs.log, ...options })
      let server: TestServer | undefined
      if (mode === 'http') {
        beforeAll(async () => {
          server = await startTestServer(app)
        })
        afterAll(() => server?.close({ timeoutMs: 1000 }))
      }
      cases({
        mode,
        app,
        expectLogged: logs.expectLogged,
        request: (opts) => (mode === 'http' ? server!.request(opts) : inject(app, opts)),
      })
    })
  }
}
