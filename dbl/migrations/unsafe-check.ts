/**
 * The names of the migration safety checks (safety.ts), in a module of their own so that the
 * operations, which name them in `safetyAssured`, need nothing else of the checks.
 */

/** Every safety check, in the order messages and help list them. */
export const UNSAFE_CHECK_NAMES = [
  'add-not-null-column',
  'create-index',
  'change-column-type',
  'drop-column',
  'rename-column',
  'add-check',
] as const

/** The name of one safety check, as `safetyAssured` and `--allow-unsafe` take it. */
export type UnsafeCheck = (typeof UNSAFE_CHECK_NAMES)[number]
