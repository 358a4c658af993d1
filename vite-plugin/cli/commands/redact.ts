/**
 * Secrets in what the inspection commands print (`vela plugins`, `vela config`, text and
 * JSON): plugin options and config values are shown, so a session `secret`, a database `password`
 * or an `apiKey` given as an option must not be.
 *
 * **Rule:** a key names a secret when, lowercased, it contains `secret`, `password`, `passwd`,
 * `token`, `credential` or `key` (`secret`, `sessionSecret`, `DB_PASSWORD`, `accessToken`,
 * `apiKey`, `privateKey`, `signingKeys`, `credentials`). Its value is shown as `[redacted]`, at
 * any depth, keeping the structure around it and inside it (an object or array under a secret key
 * keeps its keys and length, every value in it redacted). Two exceptions, both harmless to show:
 * `null` (nothing set: the secret comes from elsewhere, e.g. `VELA_SESSION_SECRET`), and a
 * function, which is only ever printed as `<function name>`, never its source (so a
 * `keyGenerator` callback stays readable). Keys without those words (`maxAge`, `cookieName`,
 * `secure`) are shown as they are. Substring matching over-redacts a few innocent names
 * (`keyPrefix`, `tokenUrl`, `monkey`); that is the safe side.
 */
export const REDACTED = '[redacted]'

const SECRET_WORDS = /secret|password|passwd|token|credential|key/i

export const isSecretKey = (key: string): boolean => SECRET_WORDS.test(key)
