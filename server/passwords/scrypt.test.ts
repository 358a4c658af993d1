// Password hashing: the hash format, verification, and the bounded lanes that keep a flood of
// logins from taking libuv's whole thread pool (file reads, DNS) or queueing without bound.
import { readFile } from 'node:fs/promises'
import { afterEach, describe, expect, it } from 'vitest'
import { isHttpError } from '../errors/http-error.ts'
import { hashPassword, passwordHashing, verifyPassword } from './scrypt.ts'

const defaults = passwordHashing.limits
afterEach(() => passwordHashing.configure(defaults))

describe('hashPassword / verifyPassword', () => {
  it('hashes with a fresh salt into scrypt$N$r$p$salt$hash; verifies the right password only', async () => {
    const [a, b] = [await hashPassword('s3cret'), await hashPassword('s3cret')]
    expect(a).toMatch(/^scrypt\$16384\$8\$1\$[\w-]{22}\$[\w-]{43}$/)
    expect(a).not.toBe(b)
    expect(await verifyPassword('s3cret', a)).toBe(true)
    expect(await verifyPassword('s3cret!', a)).toBe(false)
    // Unicode forms of one password are one password (NFKC).
    expect(await verifyPassword('ﬁ', await hashPassword('fi'))).toBe(true)
  })

  it('a malformed or out-of-bounds stored hash is false, without running scrypt on it', async () => {
    const good = await hashPassword('x')
    const [, , , , salt, hash] = good.split('$')
    for (const stored of [
      '',
      'bcrypt$x',
      `scrypt$16384$8$1$${salt}$`,
      `scrypt$1000$8$1$${salt}$${hash}`,
      `scrypt$${2 ** 24}$8$1$${salt}$${hash}`,
      `scrypt$16384$64$1$${salt}$${hash}`,
    ]) {
      expect(await verifyPassword('x', stored), stored).toBe(false)
    }
  })
})

describe('password hashing lanes', () => {
  it('defaults: half of the thread pool (2 of 4) at once, 200 waiting', () => {
    expect(passwordHashing.limits).toEqual({
      concurrency: Math.max(1, Math.floor((Number(process.env.UV_THREADPOOL_SIZE) || 4) / 2)),
      maxQueued: 200,
    })
  })

  it('with N+30 verifications queued, at most N run at once and a file read completes before all but a few of them', async () => {
    const stored = await hashPassword('right')
    const n = passwordHashing.limits.concurrency
    let done = 0
    let mostRunning = 0
    const checks = Array.from({ length: n + 30 }, (_, i) =>
      verifyPassword(`guess-${i}`, stored).then((ok) => (done++, ok)),
    )
    expect(passwordHashing.queued).toBe(30)
    const watch = setInterval(() => (mostRunning = Math.max(mostRunning, passwordHashing.running)), 1)
    // A file read shares libuv's pool with scrypt: it must not wait behind the queued hashes.
    const file = await readFile(new URL(import.meta.url))
    const doneAtRead = done
    expect(file.length).toBeGreaterThan(0)
    expect(await Promise.all(checks)).toEqual(Array(n + 30).fill(false))
    clearInterval(watch)
    expect(doneAtRead, `verifications finished before the file read did`).toBeLessThanOrEqual(5)
    expect(mostRunning).toBeLessThanOrEqual(n)
    expect([passwordHashing.running, passwordHashing.queued]).toEqual([0, 0])
  }, 120_000)

  it('beyond maxQueued a verification is refused at once with a 503 and Retry-After; the queued ones still finish', async () => {
    const stored = await hashPassword('right')
    passwordHashing.configure({ concurrency: 1, maxQueued: 3 })
    const results = await Promise.allSettled(Array.from({ length: 6 }, () => verifyPassword('right', stored)))
    expect(results.map((r) => r.status)).toEqual([
      'fulfilled',
      'fulfilled',
      'fulfilled',
      'fulfilled',
      'rejected',
      'rejected',
    ])
    const refused = (results[4] as PromiseRejectedResult).reason
    expect(isHttpError(refused) && [refused.status, refused.headers]).toEqual([503, { 'retry-after': '1' }])
    expect(results.slice(0, 4).map((r) => (r as PromiseFulfilledResult<boolean>).value)).toEqual([
      true,
      true,
      true,
      true,
    ])
  })

  it('more lanes start waiting hashes at once; invalid limits are refused', async () => {
    const stored = await hashPassword('right')
    passwordHashing.configure({ concurrency: 1 })
    const checks = Array.from({ length: 4 }, () => verifyPassword('right', stored))
    expect([passwordHashing.running, passwordHashing.queued]).toEqual([1, 3])
    passwordHashing.configure({ concurrency: 3 })
    expect([passwordHashing.running, passwordHashing.queued]).toEqual([3, 1])
    await Promise.all(checks)
    for (const bad of [{ concurrency: 0 }, { maxQueued: -1 }, { concurrency: 1.5 }]) {
      expect(() => passwordHashing.configure(bad)).toThrow(
        /passwordHashing.configure: `(concurrency|maxQueued)` must be a/,
      )
    }
  })
})
