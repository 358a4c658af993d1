/**
 * Where the session secret comes from: the plugin's `secret` option, else `VELA_SESSION_SECRET`.
 * Without either, development and test generate one (sessions then last until the process
 * restarts) and say so; any other environment refuses to start, because a generated secret would
 * differ between instances and log every user out on each deploy.
 */
import { randomBytes } from 'node:crypto'

export const MIN_SECRET_LENGTH = 32

const LENIENT_ENVIRONMENTS = new Set(['dev', 'test'])
const HOW_TO = 'generate one with: node -e "console.log(require(\'node:crypto\').randomBytes(32).toString(\'base64url\'))"'

// One generated secret per process: the pre and post registrations of the plugin (and every
// group using it) must seal and unseal with the same key.
let generated: string | undefined

export interface SecretSource {
  secret?: string
  environment: string
  env: Readonly<Record<string, string | undefined>>
  warn?: (message: string) => void
}

export function resolveSessionSecret({ secret, environment, env, warn = console.warn }: SecretSource): string {
  const given = secret ?? env.VELA_SESSION_SECRET
  const from = secret !== undefined ? 'the session plugin option `secret`' : 'VELA_SESSION_SECRET'
  if (given !== undefined && given !== '') {
    if (typeof given !== 'string' || given.length < MIN_SECRET_LENGTH) {
      const length = typeof given === 'string' ? `${given.length} characters` : `a ${typeof given}`
      throw new Error(`session: ${from} must be a string of at least ${MIN_SECRET_LENGTH} characters (got ${length}); ${HOW_TO}`)
    }
    return given
  }
  if (!LENIENT_ENVIRONMENTS.has(environment)) {
    throw new Error(
      `session: no secret in environment ${JSON.stringify(environment)}; set VELA_SESSION_SECRET or the session plugin option \`secret\` (${HOW_TO})`,
    )
  }
  if (!generated) {
    generated = randomBytes(32).toString('base64url')
    warn(`[vela] session: no secret configured; generated one for this ${environment} process (sessions end when it restarts). Set VELA_SESSION_SECRET to keep them.`)
  }
  return generated
}
