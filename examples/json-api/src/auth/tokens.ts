import { createHash, randomBytes } from 'node:crypto'
import { cast, from } from 'vela/dbl'
import { repo } from '../repo.ts'
import { Token } from '../schemas/token.ts'

/** The SHA-256 of a token: what the table keeps, so a copy of the table opens nothing. */
const digest = (token: string) => createHash('sha256').update(token).digest('hex')

/** A new token for the user: 32 random bytes, returned once; only its hash is stored. */
export async function issueToken(userId: number): Promise<string> {
  const token = randomBytes(32).toString('base64url')
  const res = await repo.insert(
    cast(Token, null, { user_id: userId, token_hash: digest(token) }, ['user_id', 'token_hash']),
  )
  if (!res.ok) throw new Error(`could not store a token: ${JSON.stringify(res.error.errors)}`)
  return token
}

/** The user a token belongs to (one query: the token joined to its user), or undefined. */
export function userOfToken(token: string) {
  return repo.one(
    from(Token)
      .join('user')
      .where('token_hash', '=', digest(token))
      .select({ token_id: 'id', user_id: 'user.id', email: 'user.email' }),
  )
}

/** Ends a token (logout): its row is deleted, so the next request with it is a 401. */
export async function revokeToken(tokenId: number): Promise<void> {
  await repo.deleteAll(from(Token).where('id', '=', tokenId))
}
