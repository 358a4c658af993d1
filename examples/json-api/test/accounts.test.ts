import { createTestApp } from 'vela/testing'
import { afterAll, describe, expect, it } from 'vitest'

// The app from src/ under the `test` environment: its own in-memory database, migrated by the
// start hook; requests answered in-process by `inject`.
const t = await createTestApp()
afterAll(() => t.close())

const signup = (email: string, password: string) =>
  t.inject({ method: 'POST', url: '/api/users', body: { email, password } })
const login = (email: string, password: string, peer = '10.0.0.1') =>
  t.inject({ method: 'POST', url: '/api/login', body: { email, password }, peer })

describe('signing up', () => {
  it('makes an account and shows it without its password', async () => {
    const res = await signup('ada@example.com', 'correct horse')
    expect(res.status).toBe(201)
    const user = await res.json()
    expect(user).toEqual({ id: expect.any(Number), email: 'ada@example.com' })
  })

  it('refuses an email already taken, a malformed email and a short password, naming each field', async () => {
    const taken = await signup('ada@example.com', 'another password')
    expect(taken.status).toBe(422)
    expect(await taken.json()).toEqual({ errors: { email: ['has already been taken'] } })

    const bad = await signup('not an email', 'short')
    expect(bad.status).toBe(422)
    expect(await bad.json()).toEqual({
      errors: { email: ['has invalid format'], password: ['should be at least 8 character(s)'] },
    })
  })

  it('refuses a body without a password', async () => {
    const res = await t.inject({ method: 'POST', url: '/api/users', body: { email: 'bob@example.com' } })
    expect(res.status).toBe(422)
    expect(await res.json()).toEqual({ errors: { password: ["can't be blank"] } })
  })
})

describe('logging in and out', () => {
  it('gives a token for the right password, and the same 401 for a wrong one or an unknown email', async () => {
    const wrong = await login('ada@example.com', 'wrong password')
    const unknown = await login('nobody@example.com', 'correct horse')
    for (const res of [wrong, unknown]) {
      expect(res.status).toBe(401)
      expect(await res.json()).toEqual({ error: 'wrong email or password' })
    }
    const res = await login('ada@example.com', 'correct horse')
    expect(res.status).toBe(201)
    expect((await res.json()).token).toMatch(/^[\w-]{43}$/)
  })

  it('the token opens /api/me until logout; without it the answer is a 401 naming the scheme', async () => {
    const { token } = await (await login('ada@example.com', 'correct horse', '10.0.0.2')).json()
    const authorization = `Bearer ${token}`
    const me = await t.inject({ url: '/api/me', headers: { authorization } })
    expect(me.status).toBe(200)
    expect(await me.json()).toEqual({ id: expect.any(Number), email: 'ada@example.com' })

    const anonymous = await t.inject('/api/me')
    expect(anonymous.status).toBe(401)
    expect(anonymous.headers.get('www-authenticate')).toBe('Bearer realm="tasks"')

    const out = await t.inject({ method: 'DELETE', url: '/api/session', headers: { authorization } })
    expect(out.status).toBe(204)
    const after = await t.inject({ url: '/api/me', headers: { authorization } })
    expect(after.status).toBe(401)
    expect(await after.json()).toEqual({ error: 'that token is not valid' })
  })

  it('allows five attempts a minute from one address, then 429 with Retry-After; other addresses go on', async () => {
    const statuses: number[] = []
    for (let i = 0; i < 6; i++) statuses.push((await login('ada@example.com', 'guess', '10.0.0.3')).status)
    expect(statuses).toEqual([401, 401, 401, 401, 401, 429])
    const limited = await login('ada@example.com', 'correct horse', '10.0.0.3')
    expect(limited.status).toBe(429)
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0)
    expect((await login('ada@example.com', 'correct horse', '10.0.0.4')).status).toBe(201)
  })
})
