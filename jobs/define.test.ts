import { describe, expect, it } from 'vitest'
import { defineJob } from './define.ts'
import { jobsFromModules } from './discover.ts'
import { sendOptionsOf } from './options.ts'
import { resolveJobsConfig } from './options.ts'

describe('defineJob', () => {
  it('refuses a definition it cannot run, naming what is wrong', () => {
    expect(() => defineJob({} as never)).toThrow('defineJob needs a handler')
    expect(() => defineJob({ handler: () => {}, queue: 'a b' })).toThrow('queue must be letters, digits')
    expect(() => defineJob({ handler: () => {}, retries: -1 })).toThrow('retries must be an integer >= 0')
    expect(() => defineJob({ handler: () => {}, timeout: 10 })).toThrow('timeout must be at least 1000 ms')
    expect(() => defineJob({ handler: () => {}, schedule: ' ' })).toThrow('schedule must be a cron expression')
    expect(() => defineJob({ handler: () => {}, backoff: { type: 'linear' as never } })).toThrow(
      "backoff.type must be 'exponential' or 'fixed'",
    )
  })

  it('enqueue before the jobs started says so', async () => {
    const j = defineJob({ handler: () => {} })
    await expect(Promise.resolve().then(() => j.enqueue({}))).rejects.toThrow('this job is not registered')
    jobsFromModules({ 'src/jobs/lonely.ts': { default: j } })
  })

  it('is named after its file, and its export when not the default', () => {
    const a = defineJob({ handler: () => {} })
    const b = defineJob({ handler: () => {} })
    const jobs = jobsFromModules({
      'src/jobs/send_welcome.ts': { default: a, helper: 42 },
      '/src/jobs/mail.ts': { digest: b },
    })
    expect(Object.keys(jobs).sort()).toEqual(['mail.digest', 'send_welcome'])
    expect(jobs.send_welcome).toBe(a)
  })

  it('maps retries, backoff and timeout to the engine in whole seconds', () => {
    expect(sendOptionsOf(defineJob({ handler: () => {} }) .definition as never)).toEqual({
      retryLimit: 3,
      retryDelay: 1,
      retryBackoff: true,
    })
    expect(
      sendOptionsOf(
        defineJob({ handler: () => {}, retries: 0, backoff: { type: 'fixed', delay: 0 }, timeout: 2500 })
          .definition as never,
      ),
    ).toEqual({ retryLimit: 0, retryDelay: 0, retryBackoff: false, expireInSeconds: 3 })
    expect(
      sendOptionsOf(defineJob({ handler: () => {}, backoff: { delay: 5000, maxDelay: 60_000 } }).definition as never),
    ).toEqual({ retryLimit: 3, retryDelay: 5, retryBackoff: true, retryDelayMax: 60 })
  })

  it('checks the app config’s jobs key', () => {
    expect(() => resolveJobsConfig({ concurrency: 0 })).toThrow('jobs.concurrency must be an integer >= 1')
    expect(() => resolveJobsConfig({ pollInterval: 100 })).toThrow('jobs.pollInterval must be at least 500 ms')
    const c = resolveJobsConfig({ concurrency: { default: 2, mail: 7 } })
    expect([c.concurrency('mail'), c.concurrency('other'), c.inApp, c.pollInterval]).toEqual([7, 2, true, 2000])
  })
})
