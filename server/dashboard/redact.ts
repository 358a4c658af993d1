/**
 * Secrets in what the dashboard records: request headers and query parameters whose names hold
 * `secret`, `password`, `passwd`, `token`, `credential` or `key` (the rule `vela plugins` and
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

/**
 * A response header as the dashboard shows it: a `set-cookie` keeps its cookie's name and
 * attributes with the value redacted; any other header with a secret name is redacted whole.
 */
export function redactResponseHeader(name: string, value: string): string {
  if (name === 'set-cookie') {
    const eq = value.indexOf('=')
    const semi = value.indexOf(';')
    return eq === -1 ? REDACTED : `${value.slice(0, eq)}=${REDACTED}${semi === -1 ? '' : value.slice(semi)}`
  }
  return isSecretName(name) ? REDACTED : value
}
