// VELA_JOBS as a process reads it (mode.ts, app-hooks.ts, the built server's serve.ts): `work`,
// `off`, or unset; anything else refused with a message naming it; `work` refused for an app with
// no jobs and beside VELA_WORKERS above 1. The built server in both roles: test/new-app-jobs.test.ts.
import { afterEach, expect, it, vi } from 'vitest'
import type { AppConfig } from '../server/contracts/config.ts'
import { serveBuilt } from '../server/cluster/serve.ts'
import type { VelaApp } from '../server/contracts/app.ts'
import { withJobs } from './app-hooks.ts'
import { jobsMode } from './mode.ts'

afterEach(() => {
  vi.unstubAllEnvs()
  vi.restoreAllMocks()
})

it('work and off are themselves, unset or blank is the config’s say, anything else names VELA_JOBS', () => {
  expect(jobsMode({})).toBeUndefined()
  expect(jobsMode({ VELA_JOBS: ' ' })).toBeUndefined()
  expect(jobsMode({ VELA_JOBS: 'work' })).toBe('work')
  expect(jobsMode({ VELA_JOBS: ' off ' })).toBe('off')
  for (const value of ['on', 'WORK', 'only', '1'])
    expect(() => jobsMode({ VELA_JOBS: value })).toThrow(
      `VELA_JOBS must be "work" (run jobs, serve no HTTP), "off" (serve, run no jobs) or unset, not ${JSON.stringify(value)}`,
    )
})

it('an app with no jobs is left as it is, but refuses to start as a jobs worker', async () => {
  const config: AppConfig = { bootstrapApplication: 'plain' }
  expect(withJobs(config, {}, {})).toBe(config)
  vi.stubEnv('VELA_JOBS', 'work')
  const refused = withJobs(config, {}, {})
  expect(() => refused.start?.({} as never)).toThrow('VELA_JOBS=work, but the app has no jobs (src/jobs/*.ts)')
})

it('the built server refuses VELA_JOBS=work beside VELA_WORKERS above 1, before creating the app', async () => {
  const exit = vi.spyOn(process, 'exit').mockImplementation((() => undefined) as never)
  const printed = vi.spyOn(console, 'error').mockImplementation(() => {})
  const create = vi.fn<() => VelaApp>()
  await serveBuilt(create, undefined, { VELA_JOBS: 'work', VELA_WORKERS: '2' })
  expect(create).not.toHaveBeenCalled()
  expect(exit).toHaveBeenCalledWith(1)
  expect(printed).toHaveBeenCalledWith(
    'vela: VELA_JOBS=work runs one worker process: start more of them, or raise jobs.concurrency, rather than VELA_WORKERS',
  )
})
