/**
 * Password hashing with scrypt (node:crypto), with bounded concurrency.
 *
 * Format: a random 16-byte salt per password, stored with the cost parameters as
 * `scrypt$N$r$p$<salt>$<hash>` (base64url), so the cost can be raised later without breaking
 * existing hashes. Parameters: N = 2^14, r = 8, p = 1 (about 16 MiB and tens of milliseconds per
 * hash), the OWASP minimum for scrypt. `verifyPassword` compares in constant time.
 *
 * **Choice: at most a few hashes at once.** `crypto.scrypt` runs on libuv's thread pool, which
 * also serves file reads (static files, views), `dns.lookup` and zlib, and has 4 threads by
 * default (`UV_THREADPOOL_SIZE`). A hundred concurrent logins would queue a hundred hashes there,
 * and every file read would wait behind them (seconds). So hashing runs in its own lanes: at most
 * `concurrency` hashes at once (default half the pool, at least 1: 2 of the default 4 threads),
 * the rest of the pool stays free for everything else, and up to `maxQueued` more wait in
 * arrival order. One beyond that is refused at once with a 503 and `Retry-After: 1` (an
 * `httpError`, so a security callback or handler can simply let it through): a flood of logins
 * costs its senders a quick refusal, not every visitor a slow site. The lanes are per process
 * (the pool is), shared by every copy of this module loaded in it.
 */
import { randomBytes, scrypt, timingSafeEqual } from 'node:crypto'
import { httpError } from '../errors/http-error.ts'
import { VelaError } from '../errors/vela-error.ts'
import type { LaneLimits } from './lanes.ts'
import { Lanes } from './lanes.ts'

const N = 16384
const R = 8
const P = 1
const KEY_BYTES = 32

/** Limits of password hashing in this process (`passwordHashing.configure`). */
export interface PasswordHashingOptions {
  /** Hashes computed at once (default: half of UV_THREADPOOL_SIZE, at least 1; 2 by default). */
  concurrency?: number
  /** Hashes waiting for a lane at most (default 200); one more is a 503. */
  maxQueued?: number
}

function defaultLimits(): LaneLimits {
  const pool = Number(process.env.UV_THREADPOOL_SIZE) || 4
  return { concurrency: Math.max(1, Math.floor(pool / 2)), maxQueued: 200 }
}

// One set of lanes per process, even when the dev server loads this module twice (the app's copy
// through Vite's module runner and the tool's own).
const LANES = Symbol.for('vela.passwordHashing.lanes')
const lanes: Lanes = ((globalThis as Record<symbol, Lanes | undefined>)[LANES] ??= new Lanes(defaultLimits()))

const busy = () =>
  httpError(503, 'Service Unavailable: too many password checks in progress; retry shortly', {
    headers: { 'retry-after': '1' },
  })

function derive(password: string, salt: Buffer, n: number, r: number, p: number): Promise<Buffer> {
  return lanes.run(
    () =>
      new Promise<Buffer>((resolve, reject) =>
        scrypt(password.normalize('NFKC'), salt, KEY_BYTES, { N: n, r, p, maxmem: 256 * n * r }, (err, key) =>
          err ? reject(err) : resolve(key),
        ),
      ),
    busy,
  )
}

/**
 * Hashes a password for storage (a random salt each time). Runs in the bounded password lanes:
 * over capacity it throws a 503 `httpError`.
 *
 * @example
 * ```ts
 * import { hashPassword } from 'vela'
 *
 * const passwordHash = await hashPassword('correct horse battery staple')
 * // 'scrypt$16384$8$1$…': store it, e.g. in the user's password_hash column
 * ```
 */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16)
  const key = await derive(password, salt, N, R, P)
  return ['scrypt', N, R, P, salt.toString('base64url'), key.toString('base64url')].join('$')
}

const isPowerOfTwo = (n: number) => Number.isInteger(n) && n > 1 && (n & (n - 1)) === 0
const inRange = (n: number, max: number) => Number.isInteger(n) && n >= 1 && n <= max

/**
 * True when `password` matches `stored` (a `hashPassword` result); false for a wrong password or
 * a malformed hash. To answer "no such user" in the same time as "wrong password", verify
 * against a hash of a random password when the user is unknown. Over capacity it throws a 503
 * `httpError`.
 *
 * @example
 * ```ts
 * import { hashPassword, verifyPassword } from 'vela'
 *
 * const users = new Map([['ada', await hashPassword('s3cret')]])
 * const UNKNOWN_USER_HASH = await hashPassword(crypto.randomUUID())
 *
 * export async function checkLogin(name: string, password: string): Promise<boolean> {
 *   // Verify against a dummy hash for unknown users, so both answers take the same time.
 *   return verifyPassword(password, users.get(name) ?? UNKNOWN_USER_HASH)
 * }
 * ```
 */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, n, r, p, salt, hash] = stored.split('$')
  const [cost, block, parallel] = [Number(n), Number(r), Number(p)]
  // Bounds keep a corrupt row from asking for gigabytes: up to N = 2^20, r = 32, p = 16.
  if (
    scheme !== 'scrypt' ||
    !salt ||
    !hash ||
    !isPowerOfTwo(cost) ||
    cost > 2 ** 20 ||
    !inRange(block, 32) ||
    !inRange(parallel, 16)
  )
    return false
  const expected = Buffer.from(hash, 'base64url')
  const actual = await derive(password, Buffer.from(salt, 'base64url'), cost, block, parallel)
  return actual.length === expected.length && timingSafeEqual(actual, expected)
}

/**
 * The process's password-hashing lanes: their limits (`configure`) and their load (`running`,
 * `queued`, e.g. for a metrics gauge).
 *
 * @example
 * passwordHashing.configure({ concurrency: 4, maxQueued: 500 }) // with UV_THREADPOOL_SIZE=8
 */
export const passwordHashing = {
  /** Changes the limits; options left out keep their current value. */
  configure(options: PasswordHashingOptions): void {
    const next = {
      concurrency: options.concurrency ?? lanes.limits.concurrency,
      maxQueued: options.maxQueued ?? lanes.limits.maxQueued,
    }
    for (const [name, value] of Object.entries(next)) {
      if (!Number.isInteger(value) || value < (name === 'concurrency' ? 1 : 0)) {
        throw new VelaError(
          'VELA_ERR_CONFIG',
          `passwordHashing.configure: \`${name}\` must be a ${name === 'concurrency' ? 'positive' : 'non-negative'} integer, got ${JSON.stringify(value)}`,
        )
      }
    }
    lanes.limits = next
  },
  /** The limits in force. */
  get limits(): Required<PasswordHashingOptions> {
    return { ...lanes.limits }
  },
  /** Hashes being computed now. */
  get running(): number {
    return lanes.running
  },
  /** Hashes waiting for a lane. */
  get queued(): number {
    return lanes.queued
  },
}
