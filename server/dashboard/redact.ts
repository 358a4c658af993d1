/**
 * Secrets in what the dashboard records: request headers and query parameters whose names hold
 * `secret`, `password`, `passwd`, `token`, `credential` or `key` (the rule `vela middleware` and
 * `vela config` apply to option keys), plus `authorization`, `proxy-authorization` and `cookie`,
 * are kept as `[redacted]`.
 */
const SECRET_WORDS = /secret|password|passwd|token|credential|key|authorization|cookie|session/i

/** What a redacted value is shown as. */
export const REDACTED = '[redacted]'

/** Whether a header or parameter named `name` holds a secret. */
export const isSecretName = (name: string): boolean => SECRET_WORDS.test(name)

/** The query string with the values of secret parameters redacted (names and order kept). */
export function redactQuery(query: string): string {
  return query
    .split('&')
    .map((pair) => {
      const at = pair.indexOf('=')
      if (at === -1) return pair
      let name = pair.slice(0, at)
      try {
        name = decodeURIComponent(name.replace(/\+/g, ' '))
      } catch {}
      return isSecretName(name) ? `${pair.slice(0, at)}=${REDACTED}` : pair
    })
    .join('&')
}
