/**
 * Release profiles (`vela release --profile <name>`, spec §4.6). **Choice:** a profile is Vite's
 * `mode` (so `.env.<name>` files load and `import.meta.env.MODE` is the name) and the environment
 * the built server runs in by default: the bundle starts with `VELA_ENV ||= <name>`, so
 * `config.environment` is the profile unless the process is given `VELA_ENV` at run time. Without
 * a profile (no explicit `mode`) the bundle leaves the environment alone: `dev` unless the app sets
 * `environment` or the process sets `VELA_ENV`. `prod` is the production environment.
 */
export const PROFILE_ENTRY = 'virtual:vela/profile'

// Letters, digits, `-` and `_`: it names `.env.<name>` files and an environment. Vite reserves
// `local` (the `.env.local` suffix).
const PROFILE_NAME = /^[A-Za-z][A-Za-z0-9_-]{0,39}$/

/** The name if it is a valid profile, else an error saying what one looks like. */
export function checkProfile(name: string): string {
  if (PROFILE_NAME.test(name) && name !== 'local') return name
  throw new Error(
    `invalid profile ${JSON.stringify(name)}: a profile is a letter followed by letters, digits, - or _ (at most 40), not "local"; e.g. prod, staging`,
  )
}

/** The module the server entry imports first: it sets the default environment before the app loads. */
export function profileSource(profile: string | undefined): string {
  return profile === undefined ? 'export {}' : `process.env.VELA_ENV ||= ${JSON.stringify(checkProfile(profile))}`
}
