import { createClient } from 'vela/client'
import { createTestApp } from 'vela/testing'
import type { Routes } from 'virtual:vela/routes'
import { afterAll, expect, it } from 'vitest'

const t = await createTestApp()
afterAll(() => t.close())

/** A new account's `Authorization` header. */
async function signedIn(email: string): Promise<string> {
  await t.inject({ method: 'POST', url: '/api/users', body: { email, password: 'a long password' } })
  const res = await t.inject({ method: 'POST', url: '/api/login', body: { email, password: 'a long password' } })
  return `Bearer ${(await res.json()).token}`
}

const ada = await signedIn('ada@example.com')
const bob = await signedIn('bob@example.com')

// The typed client (vela/client): paths, bodies and replies checked by tsc against the routes
// (.vela/routes.d.ts, written by `npm run typecheck` and by vitest). Here it calls the app
// in-process; against a server it is `createClient<Routes>('https://tasks.example.com')`.
const api = (authorization: string) =>
  createClient<Routes>('http://localhost', { fetch: (req) => t.app.fetch(req), headers: { authorization } })

it('makes tasks and lists the caller’s own, open ones first', async () => {
  const made = await api(ada).post('/api/tasks', { body: { title: 'Write the report', due_on: '2030-01-31' } })
  expect(made.status).toBe(201)
  if (made.status !== 201) return
  expect(made.body).toMatchObject({ title: 'Write the report', done: false, due_on: '2030-01-31' })
  await api(ada).post('/api/tasks', { body: { title: 'Book the train', done: true } })
  await api(bob).post('/api/tasks', { body: { title: 'Bob’s own task' } })

  const listed = await api(ada).get('/api/tasks')
  expect(listed.status).toBe(200)
  if (listed.status !== 200) return
  expect(listed.body.tasks.map((task) => [task.title, task.done])).toEqual([
    ['Write the report', false],
    ['Book the train', true],
  ])
})

it('filters by done and by words in the title; the query’s values are checked', async () => {
  const open = await t.inject({ url: '/api/tasks?done=false', headers: { authorization: ada } })
  expect((await open.json()).tasks.map((task: { title: string }) => task.title)).toEqual(['Write the report'])
  const found = await t.inject({ url: '/api/tasks?q=TRAIN', headers: { authorization: ada } })
  expect((await found.json()).tasks.map((task: { title: string }) => task.title)).toEqual(['Book the train'])
  const bad = await t.inject({ url: '/api/tasks?done=maybe', headers: { authorization: ada } })
  expect(bad.status).toBe(422)
  expect(await bad.json()).toEqual({ errors: { done: ['must be boolean'] } })
})

it('updates a task, and refuses a blank title with the changeset’s error', async () => {
  const { tasks } = await (await t.inject({ url: '/api/tasks?done=false', headers: { authorization: ada } })).json()
  const url = `/api/tasks/${tasks[0].id}`
  const done = await t.inject({ method: 'PATCH', url, headers: { authorization: ada }, body: { done: true } })
  expect(done.status).toBe(200)
  expect(await done.json()).toMatchObject({ id: tasks[0].id, title: 'Write the report', done: true })

  const blank = await t.inject({ method: 'PATCH', url, headers: { authorization: ada }, body: { title: ' ' } })
  expect(blank.status).toBe(422)
  expect(await blank.json()).toEqual({ errors: { title: ["can't be blank"] } })
})

it('another user’s task is a 404 to read, change or delete; the owner deletes it', async () => {
  const { tasks } = await (await t.inject({ url: '/api/tasks', headers: { authorization: ada } })).json()
  const url = `/api/tasks/${tasks[0].id}`
  for (const method of ['GET', 'PATCH', 'DELETE']) {
    const res = await t.inject({
      method,
      url,
      headers: { authorization: bob },
      body: method === 'PATCH' ? {} : undefined,
    })
    expect(res.status, method).toBe(404)
  }
  expect((await t.inject({ method: 'DELETE', url, headers: { authorization: ada } })).status).toBe(204)
  expect((await t.inject({ url, headers: { authorization: ada } })).status).toBe(404)
})

it('every route of the group needs the token', async () => {
  for (const url of ['/api/tasks', '/api/tasks/1', '/api/me']) {
    const res = await t.inject({ url, headers: { authorization: 'Bearer not-a-token' } })
    expect(res.status, url).toBe(401)
  }
})
