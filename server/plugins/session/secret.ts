/**
 * Where the session secret comes from: the plugin's `secret` option, else `VELA_SESSION_SECRET`.
 * Without either:
 * - `dev` generates one once and keeps it in `<cwd>/.data/session-secret` (mode 0600, its folder
 *   created), read back by every later app of that folder: a hot swap or a restart of the dev
 *   server keeps users logged in. A warning says where it is when it is created, only then.
 * - `test` generates one per process (nothing written).
 * - any other environment refuses, because a generated secret would differ between instances and
 *   log every user out on each deploy.
 * The session plugin resolves it when the app starts (and at the latest on first use), not when
 * the app is created: a build or `vela routes` needs no secret (plugin.ts).
 * Errors are `VelaError`s with code `VELA_ERR_CONFIG`: the built server prints their message without a stack.
 */
import { randomBytes } from 'node:crypto'
import { linkSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { VelaError } from '../../errors/vela-error.ts'

export const MIN_SECRET_LENGTH = 32
/** The dev secret's file, under the data folder (`<cwd>/.data`). */
export const DEV_SECRET_FILE = 'session-secret'

const HOW_TO =
  "generate one with: node -e \"console.log(require('node:crypto').randomBytes(32).toString('base64url'))\""

// One generated secret per test process: every app and registration of the plugin shares it.
let testSecret: string | undefined

export interface SecretSource {
  secret?: string
  environment: string
  env: Readonly<Record<string, string | undefined>>
  warn?: (message: string) => void
  /** Where `dev` keeps its generated secret (default `<cwd>/.data`). */
  dataDir?: string
}

const configError = (message: string) => new VelaError('VELA_ERR_CONFIG', message)
const newSecret = () => randomBytes(32).toString('base64url')

export function resolveSessionSecret({ secret, environment, env, warn = console.warn, dataDir }: SecretSource): string {
  const given = secret ?? env.VELA_SESSION_SECRET
  const from = secret !== undefined ? 'the session plugin option `secret`' : 'VELA_SESSION_SECRET'
  if (given !== undefined && given !== '') {
    if (typeof given !== 'string' || given.length < MIN_SECRET_LENGTH) {
      const length = typeof given === 'string' ? `${given.length} characters` : `a ${typeof given}`
      throw configError(
        `session: ${from} must be a string of at least ${MIN_SECRET_LENGTH} characters (got ${length}); ${HOW_TO}`,
      )
    }
    return given
  }
  if (environment === 'dev') return devSecret(dataDir ?? join(process.cwd(), '.data'), warn)
  if (environment === 'test') {
    if (!testSecret) {
      testSecret = newSecret()
      warn(
        '[vela] session: no secret configured; generated one for this test process (sessions end with it). Set VELA_SESSION_SECRET to keep them.',
      )
    }
    return testSecret
  }
  throw configError(
    `session: no secret in environment ${JSON.stringify(environment)}; set VELA_SESSION_SECRET or the session plugin option \`secret\` (${HOW_TO})`,
  )
}

/** The dev secret kept in `<dataDir>/session-secret`, created on first need. */
function devSecret(dataDir: string, warn: (message: string) => void): string {
  const file = join(dataDir, DEV_SECRET_FILE)
  const read = () => {
    const kept = readFileSync(file, 'utf8').trim()
    if (kept.length < MIN_SECRET_LENGTH) {
      throw configError(
        `session: ${file} holds no valid secret (${kept.length} characters, at least ${MIN_SECRET_LENGTH} needed); delete it to generate a new one`,
      )
    }
    return kept
  }
  try {
    return read()
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err
  }
  mkdirSync(dataDir, { recursive: true, mode: 0o700 })
  // Written whole under a temporary name, then linked into place: a second process starting at
  // the same moment either wins the link or reads the winner's complete file.
  const temp = `${file}.${process.pid}.${randomBytes(4).toString('hex')}`
  try {
    writeFileSync(temp, `${newSecret()}\n`, { mode: 0o600 })
    linkSync(temp, file)
    warn(
      `[vela] session: no secret configured; generated one for dev in ${file} (kept across restarts; set VELA_SESSION_SECRET to use your own).`,
    )
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err
  } finally {
    rmSync(temp, { force: true })
  }
  return read()
}
