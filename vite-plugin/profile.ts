/**
 * Release profiles (`vela release --profile <name>`) and the environment a build runs
 * in. **Choice:** a profile is Vite's `mode` (so `.env.<name>` files load and
 * `import.meta.env.MODE` is the name) and the environment the built server runs in by default:
 * the bundle starts with `VELA_ENV ||= <environment>`, so `config.environment` is that unless the
 * process is given `VELA_ENV` at run time. Without a profile (no explicit `mode`), and for Vite's
 * own default mode `production`, the environment is `prod`: a build is a production server unless
 * told otherwise (an app's own `environment` key is overridden by it, as by `VELA_ENV`).
 */
import { VelaError } from '../server/errors/vela-error.ts'

export const PROFILE_ENTRY = 'virtual:vela/profile'

/** The environment a build runs in without a profile. */
export const BUILD_ENVIRONMENT = 'prod'

// Letters, digits, `-` and `_`: it names `.env.<name>` files and an environment. Vite reserves
// `local` (the `.env.local` suffix).
const PROFILE_NAME = /^[A-Za-z][A-Za-z0-9_-]{0,39}$/

/** The name if it is a valid profile, else an error saying what one looks like. */
export function checkProfile(name: string): string {
  if (PROFILE_NAME.test(name) && name !== 'local') return name
  throw new VelaError(
    'VELA_ERR_CONFIG',
    `invalid profile ${JSON.stringify(name)}: a profile is a letter followed by letters, digits, - or _ (at most 40), not "local"; e.g. prod, staging`,
  )
}

/** The environment a bundle built with this profile (Vite mode) runs in by default. */
export function buildEnvironment(profile: string | undefined): string {
  return profile === undefined || profile === 'production' ? BUILD_ENVIRONMENT : checkProfile(profile)
}

/** The module the server entry imports first: it sets the default environment before the app loads. */
export function profileSource(profile: string | undefined): string {
  return `process.env.VELA_ENV ||= ${JSON.stringify(buildEnvironment(profile))}`
}
