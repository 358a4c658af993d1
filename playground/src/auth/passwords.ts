/**
 * Password hashing with scrypt (node:crypto): a random 16-byte salt per password, stored with the
 * cost parameters as `scrypt$N$r$p$<salt>$<hash>` (base64url), so the cost can be raised later
 * without breaking existing hashes. `crypto.scrypt` runs on libuv's thread pool: hashing does not
 * block other requests. Passwords are never stored, logged or returned; only the hash leaves this
 * module.
 *
 * `verifyPassword` compares in constant time (`timingSafeEqual`). To keep "no such user" and
 * "wrong password" indistinguishable by timing too, callers verify against `DUMMY_HASH` when the
 * user does not exist (or has no password): the same scrypt work happens either way.
 */
import { randomBytes, scrypt, timingSafeEqual } from 'node:crypto'

// Node's defaults (N = 2^14, r = 8, p = 1: about 16 MiB and tens of milliseconds per hash), the
// OWASP minimum for scrypt. Raise N for production hardware if logins can afford it.
const N = 16384
const R = 8
const P = 1
const KEY_BYTES = 32

function derive(password: string, salt: Buffer, n: number, r: number, p: number): Promise<Buffer> {
  return new Promise((resolve, reject) =>
    scrypt(password.normalize('NFKC'), salt, KEY_BYTES, { N: n, r, p, maxmem: 256 * n * r }, (err, key) => (err ? reject(err) : resolve(key))),
  )
}

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16)
  const key = await derive(password, salt, N, R, P)
  return ['scrypt', N, R, P, salt.toString('base64url'), key.toString('base64url')].join('$')
}

/** True when `password` matches `stored`; false for a wrong password or a malformed hash. */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, n, r, p, salt, hash] = stored.split('$')
  if (scheme !== 'scrypt' || !salt || !hash) return false
  const expected = Buffer.from(hash, 'base64url')
  const actual = await derive(password, Buffer.from(salt, 'base64url'), Number(n), Number(r), Number(p))
  return actual.length === expected.length && timingSafeEqual(actual, expected)
}

/** A hash of a random password no one knows: verified against when the user is unknown. */
export const DUMMY_HASH = await hashPassword(randomBytes(32).toString('base64url'))
