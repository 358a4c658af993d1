/**
 * One case list, two modes (as h3 tests itself): every case runs in-process through `inject` and
 * over real HTTP against the production listener on an ephemeral port.
 */
import { afterAll, beforeAll, describe } from 'vitest'
import type { AppConfig } from '../../server/app/config.ts'
import type { CreateAppOptions, VelaApp } from '../../server/app/create-app.ts'
import { createApp } from '../../server/app/create-app.ts'
import type { InjectOptions, TestServer } from '../../server/testing/index.ts'
import { inject, startTestServer } from '../../server/testing/index.ts'

export type Mode = 'in-process' | 'http'

export interface ModeContext {
  readonly mode: Mode
  request(opts: InjectOptions | string): Promise<Response>
  readonly app: VelaApp
}

export function describeModes(
  name: string,
  config: AppConfig | (() => AppConfig),
  cases: (t: ModeContext) => void,
  options: CreateAppOptions = {},
): void {
  for (const mode of ['in-process', 'http'] as const) {
    describe(`${name} [${mode}]`, () => {
      const app = createApp(typeof config === 'function' ? config() : config, {
        env: {},
        log: process.env.VELA_TEST_LOG ? undefined : () => {},
        ...options,
      })
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
        request: (opts) => (mode === 'http' ? server!.request(opts) : inject(app, opts)),
      })
    })
  }
}
