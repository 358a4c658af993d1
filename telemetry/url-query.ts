/**
 * What a request span records as `url.query`: the query string with the values of sensitive keys
 * replaced by `REDACTED`. Always redacted (the semantic conventions' list of signature keys):
 * `AWSAccessKeyId`, `Signature`, `sig`, `X-Goog-Signature`; `setupTelemetry({ redactQuery })` adds keys, or
 * replaces the whole rule with a function.
 */

/** Query keys (as sent) whose values are not recorded, or a function giving what to record (undefined: no `url.query`). */
export type RedactQuery = readonly string[] | ((query: string) => string | undefined)

const ALWAYS = ['AWSAccessKeyId', 'Signature', 'sig', 'X-Goog-Signature']

/** The function the request span calls with the raw query (never empty). */
export function queryRedactor(option: RedactQuery | undefined): (query: string) => string | undefined {
  if (typeof option === 'function') return option
  const keys = new Set([...ALWAYS, ...(option ?? [])])
  const list = [...keys]
  return (query) => {
    // Most queries hold none of the keys: answer them without splitting.
    if (!list.some((key) => query.includes(key))) return query
    return query
      .split('&')
      .map((pair) => {
        const eq = pair.indexOf('=')
        const key = eq === -1 ? pair : pair.slice(0, eq)
        return eq !== -1 && keys.has(key) ? `${key}=REDACTED` : pair
      })
      .join('&')
  }
}
