/**
 * What `vela gen auth` writes, in parts. A part is a folder under `template/` whose files land at
 * the same paths in the app, listed here (a list, not a folder walk: nothing else that lands in
 * the folder, editor files or compiled output, is ever written into an app).
 *
 * **The seam for more login methods.** `core` is email and password with mailed links. A later
 * part (passkeys: a `users_passkeys` schema, its routes in a route file of its own, a browser
 * script under `priv/static/`) is a new folder and a new entry in `AUTH_PARTS`; its files may
 * replace a core file of the same path in the plan (`src/views/users/log_in_methods.liquid`, the
 * empty partial under the login forms, is there for that), never a file of the app. Every part
 * logs a user in through `logIn(req, user)` of `src/auth/session.ts`.
 */

export interface AuthPart {
  /** The part's folder under `template/`, and how `--help` names it. */
  readonly name: string
  /** Paths relative to the part's folder and to the app root. */
  readonly files: readonly string[]
  /** Packages the part's code imports, added to the app's package.json `dependencies` (name → range). */
  readonly dependencies?: Readonly<Record<string, string>>
  /** Lines of the printed next steps that only this part needs. */
  readonly next?: readonly string[]
}

/** Email and password accounts: registration with confirmation, login, logout, reset, login links, sudo mode, email change. */
export const CORE_PART: AuthPart = {
  name: 'core',
  files: [
    'src/schemas/user.ts',
    'src/schemas/user_token.ts',
    'src/auth/accounts.ts',
    'src/auth/flash.ts',
    'src/auth/mailer.ts',
    'src/auth/pipelines.ts',
    'src/auth/security.ts',
    'src/auth/session.ts',
    'src/auth/tokens.ts',
    'src/controllers/user_confirmation_controller.ts',
    'src/controllers/user_magic_link_controller.ts',
    'src/controllers/user_registration_controller.ts',
    'src/controllers/user_reset_password_controller.ts',
    'src/controllers/user_session_controller.ts',
    'src/controllers/user_settings_controller.ts',
    'src/controllers/user_sudo_controller.ts',
    'src/routes/auth.ts',
    'src/views/users/layout.liquid',
    'src/views/users/log_in.liquid',
    'src/views/users/log_in_methods.liquid',
    'src/views/users/register.liquid',
    'src/views/users/confirm.liquid',
    'src/views/users/magic_link.liquid',
    'src/views/users/reset_request.liquid',
    'src/views/users/reset_password.liquid',
    'src/views/users/settings.liquid',
    'src/views/users/sudo.liquid',
    'src/mail/auth/confirm.text.liquid',
    'src/mail/auth/already_registered.text.liquid',
    'src/mail/auth/reset_password.text.liquid',
    'src/mail/auth/magic_link.text.liquid',
    'src/mail/auth/change_email.text.liquid',
    'test/auth/browser.ts',
    'test/auth/register.test.ts',
    'test/auth/log-in.test.ts',
    'test/auth/links.test.ts',
    'test/auth/settings.test.ts',
    'test/auth/rate-limits.test.ts',
  ],
}

/**
 * Passkeys (WebAuthn, `vela gen auth --passkeys`), next to passwords and mailed links: the
 * `users_passkeys` schema, signing in with one (then `logIn`), adding (in sudo mode), listing and
 * deleting them under /users/settings/passkeys, and priv/static/passkeys.js for the browser's side.
 * It replaces two core files: the login page's partial of more login methods gets the passkey
 * button, and the settings page links to the passkeys. The server side is @simplewebauthn/server.
 */
export const PASSKEYS_PART: AuthPart = {
  name: 'passkeys',
  files: [
    'src/schemas/user_passkey.ts',
    'src/auth/passkeys.ts',
    'src/controllers/user_passkey_controller.ts',
    'src/routes/auth_passkeys.ts',
    'src/views/users/log_in_methods.liquid',
    'src/views/users/settings.liquid',
    'src/views/users/passkeys.liquid',
    'priv/static/passkeys.js',
    'test/auth/authenticator.ts',
    'test/auth/passkeys.test.ts',
  ],
  dependencies: { '@simplewebauthn/server': '^14.1.0' },
  next: [
    'Passkeys are bound to the host name of APP_URL (the WebAuthn relying party; in dev',
    'http://localhost:<PORT>): open the dev server at localhost, and set APP_URL in production.',
  ],
}

/** The parts `vela gen auth` writes without flags, in order. */
export const AUTH_PARTS: readonly AuthPart[] = [CORE_PART]

/** The parts for the command's flags: core, then each part asked for. */
export function partsFor(flags: { readonly passkeys?: boolean }): AuthPart[] {
  return flags.passkeys ? [CORE_PART, PASSKEYS_PART] : [CORE_PART]
}
