/**
 * Password hashing: `vela`'s `hashPassword` / `verifyPassword` (scrypt, `scrypt$N$r$p$salt$hash`,
 * compared in constant time). Vela runs at most a few hashes at once (half of libuv's thread
 * pool), so a burst of logins waits its turn instead of holding up static files and DNS behind
 * it; a burst beyond the queue is answered 503 with Retry-After. Passwords are never stored,
 * logged or returned; only the hash leaves this module.
 *
 * To keep "no such user" and "wrong password" indistinguishable by timing too, callers verify
 * against `DUMMY_HASH` when the user does not exist (or has no password): the same scrypt work
 * happens either way.
 */
import { randomBytes } from 'node:crypto'
import { hashPassword } from 'vela'

export { hashPassword, verifyPassword } from 'vela'

/** A hash of a random password no one knows: verified against when the user is unknown. */
export const DUMMY_HASH = await hashPassword(randomBytes(32).toString('base64url'))
