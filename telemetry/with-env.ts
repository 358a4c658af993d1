/**
 * `withEnv(overrides, fn)`: runs `fn` (synchronous) with some environment variables set or
 * removed, and puts them back before returning. `setupTelemetry()`'s options are the same settings as the
 * standard `OTEL_*` variables the SDK reads when it starts; this applies them to that start only,
 * and nothing else runs in between (the call is synchronous).
 */
export function withEnv<T>(overrides: Readonly<Record<string, string | undefined>>, fn: () => T): T {
  const saved = Object.keys(overrides).map((key) => [key, process.env[key]] as const)
  const put = (key: string, value: string | undefined) =>
    value === undefined ? delete process.env[key] : (process.env[key] = value)
  for (const [key, value] of Object.entries(overrides)) put(key, value)
  try {
    return fn()
  } finally {
    for (const [key, value] of saved) put(key, value)
  }
}
