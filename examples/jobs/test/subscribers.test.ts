import { createTestApp, drainJobs, enqueuedJobs } from 'vela/testing'
import { afterAll, expect, it } from 'vitest'

// Under test the jobs do not run by themselves: a test looks at what a request enqueued, then runs
// it with drainJobs().
const t = await createTestApp()
afterAll(() => t.close())

interface SubscriberJson {
  id: number
  email: string
  welcomed_at: string | null
}

const signup = (email: string) => t.inject({ method: 'POST', url: '/api/subscribers', body: { email } })

it('a sign-up enqueues the welcome mail; drainJobs sends it', async () => {
  const res = await signup('ada@example.com')
  expect(res.status).toBe(201)
  const ada = (await res.json()) as SubscriberJson
  expect(ada.welcomed_at).toBeNull()
  const [run] = await enqueuedJobs('send_welcome')
  expect(run?.args).toEqual({ subscriberId: ada.id })

  expect(await drainJobs()).toEqual({ completed: 1, failed: 0 })
  const after = (await (await t.inject(`/api/subscribers/${ada.id}`)).json()) as SubscriberJson
  expect(after.welcomed_at).not.toBeNull()
  expect(await enqueuedJobs()).toEqual([])
})

it('a refused sign-up (the email taken, or malformed) leaves no job', async () => {
  const taken = await signup('ada@example.com')
  expect(taken.status).toBe(422)
  expect(await taken.json()).toEqual({ errors: { email: ['has already been taken'] } })
  const malformed = await signup('not an email')
  expect(malformed.status).toBe(422)
  expect(await enqueuedJobs()).toEqual([])
})

it('an unknown subscriber is a 404', async () => {
  expect((await t.inject('/api/subscribers/9999')).status).toBe(404)
  expect((await t.inject('/api/subscribers/abc')).status).toBe(404)
})
