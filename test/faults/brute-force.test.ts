/**
 * Brute force across addresses, as the attack tools ran it: guesses at one account spread over
 * several client addresses (behind a trusted proxy, each guess's address is the one X-Forwarded-For
 * gives), and a burst of logins whose password checks share libuv's thread pool with file reads.
 * The first runs the playground over HTTP; the second its password module.
 */
import { readFile } from 'node:fs/promises'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { hashPassword, verifyPassword } from '../../playground/src/auth/passwords.ts'
import { FormClient } from '../support/form-client.ts'
import type { Playground } from '../support/playground.ts'
import { startPlayground } from '../support/playground.ts'

describe('the playground login: per address and per account', () => {
  let server: Playground
  beforeAll(async () => {
    // The test's own connection (127.0.0.1) is the trusted proxy; X-Forwarded-For names the client.
    // The playground's own per-account limit (startPlayground raises it for the other suites).
    server = await startPlayground({ env: { VELA_TRUST_PROXY: '127.0.0.1', LOGIN_ACCOUNT_RATE_LIMIT: '10' } })
  })
  afterAll(() => server?.stop())

  /** One login attempt from `address`, with a valid CSRF token of a fresh session. */
  async function attempt(address: string, username: string, password: string) {
    const client = new FormClient(server.base)
    const token = await client.csrfToken()
    const res = await client.request('/', {
      form: { username, password, _csrf_token: token },
      headers: { 'x-forwarded-for': address },
    })
    const body = await res.text()
    return { status: res.status, location: res.headers.get('location'), res, body }
  }

  it('guesses at one account from three addresses are stopped after 10 in 15 minutes; the right password too, other accounts not', async () => {
    const addresses = ['203.0.113.1', '203.0.113.2', '203.0.113.3']
    const answers: (string | number)[] = []
    let last
    for (let i = 0; i < 15; i++) {
      last = await attempt(addresses[i % 3]!, 'admin', `guess-${i}`)
      answers.push(last.status === 302 ? last.location! : last.status)
    }
    expect(answers).toEqual([...Array(10).fill('/login?error=1'), ...Array(5).fill(429)])
    // The refusal: JSON with Retry-After (within the 15 minutes), and no RateLimit headers (the
    // address's count, which is not what refused it, is not shown either).
    expect(JSON.parse(last!.body)).toEqual({
      error: expect.stringMatching(/^Too Many Requests - rate limit exceeded, retry in \d+ s$/),
    })
    expect(Number(last!.res.headers.get('retry-after'))).toBeGreaterThan(800)
    expect(last!.res.headers.get('ratelimit-remaining')).toBeNull()
    // The account is limited from a fresh address as well, even with its password.
    expect((await attempt('203.0.113.99', 'admin', 'password')).status).toBe(429)
    // Each address made 5 attempts of its 100 a minute: other accounts are open to them.
    expect((await attempt(addresses[0]!, 'someone-else', 'x')).location).toBe('/login?error=1')
    // Passwords never reach the logs.
    expect(server.output()).not.toContain('guess-')
  })

  it("once limited, an unknown user's login is answered exactly as an existing one's", async () => {
    const over = async (username: string) => {
      let last
      for (let i = 0; i < 11; i++) last = await attempt(`198.51.100.${i + 1}`, username, 'wrong')
      return last!
    }
    const [known, unknown] = [await over('admin'), await over('nobody-by-this-name')]
    const shape = (a: Awaited<ReturnType<typeof over>>) => ({
      status: a.status,
      type: a.res.headers.get('content-type'),
      headers: [...a.res.headers.keys()].filter((k) => !['date', 'set-cookie'].includes(k)).sort(),
      body: a.body.replace(/\d+/g, 'N'),
    })
    expect(shape(unknown)).toEqual(shape(known))
    expect(shape(known).status).toBe(429)
  })
})

describe('password checks and the thread pool', () => {
  it('with 100 more verifications than lanes queued, a file read completes before all but a few of them', async () => {
    const stored = await hashPassword('right')
    const count = 102
    let done = 0
    const checks = Array.from({ length: count }, (_, i) =>
      verifyPassword(`guess-${i}`, stored).then((ok) => (done++, ok)),
    )
    // Static files and views are read through the same pool as scrypt runs on.
    const file = await readFile(new URL(import.meta.url))
    const doneAtRead = done
    expect(file.length).toBeGreaterThan(0)
    expect(await Promise.all(checks)).toEqual(Array(count).fill(false))
    expect(doneAtRead, 'password checks that finished before one file read did').toBeLessThanOrEqual(10)
  }, 180_000)
})
