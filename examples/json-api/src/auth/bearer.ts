import { status } from 'vela'
import type { SecurityWithScheme, VelaRequest } from 'vela'
import { userOfToken } from './tokens.ts'

/** What the security check puts in `req.authData` for the handlers. */
export type Caller = { readonly userId: number; readonly email: string; readonly tokenId: number }

const unauthorized = (error: string) =>
  status(401, { error }, { headers: { 'www-authenticate': 'Bearer realm="tasks"' } })

/**
 * The security of the signed-in routes: `Authorization: Bearer <token>`, a token login handed out.
 * Without one, or with one that was never issued or has been revoked, the answer is a 401 and no
 * handler runs. `scheme` is what the OpenAPI document says the routes need.
 */
export const bearer: SecurityWithScheme = {
  scheme: { type: 'http', scheme: 'bearer', description: 'A token from POST /api/login' },
  name: 'bearerToken',
  async check(req: VelaRequest) {
    const match = /^Bearer ([\w-]+)$/.exec(req.header('authorization') ?? '')
    if (!match) return unauthorized('sign in first: Authorization: Bearer <token>')
    const found = await userOfToken(match[1]!)
    if (!found) return unauthorized('that token is not valid')
    const caller: Caller = { userId: found.user_id, email: found.email, tokenId: found.token_id }
    return caller
  },
}

/** The signed-in caller (the group's security check has run). */
export const callerOf = (req: VelaRequest) => req.authData as Caller
