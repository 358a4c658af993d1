/**
 * Which environment variables loading an app reads, and what they held: the inspection cache
 * (cli/commands/inspect-cache.ts) is valid only while they hold the same, since an app's config may
 * depend on any of them (`REDIS_URL` choosing a pub/sub broker, `VELA_ENV` the environment).
 * During `work`, `process.env` is a proxy of itself that notes each name read (`env.X`, `'X' in
 * env`) with its value at the first read (null when unset): a variable the app sets itself (a
 * `.env` loader) is noted as it was before. Listing the names (`Object.keys`, `for…in`, as Vite
 * and `debug` do to pick prefixed ones) notes nothing; reading one does. Writes go through to the
 * real object. A module that
 * keeps a reference to `process.env` keeps the proxy, which goes on noting names: more names make
 * the cache stricter, never wrong.
 */

/** Names read → their value at the first read (null when unset). */
export type EnvReads = Map<string, string | null>

/** Runs `work` with reads of `process.env` noted in `reads` (the real object restored afterwards). */
export async function trackEnvReads<T>(reads: EnvReads, work: () => Promise<T>): Promise<T> {
  const env = process.env
  const note = (name: string | symbol) => {
    if (typeof name === 'string' && !reads.has(name)) reads.set(name, env[name] ?? null)
  }
  process.env = new Proxy(env, {
    get: (target, name) => (note(name), Reflect.get(target, name)),
    has: (target, name) => (note(name), Reflect.has(target, name)),
  })
  try {
    return await work()
  } finally {
    process.env = env
  }
}

/** `reads` with `names` added at their current values, sorted by name, as a plain object. */
export function envRecord(reads: EnvReads, names: Iterable<string> = []): Record<string, string | null> {
  const all = new Map(reads)
  for (const name of names) if (!all.has(name)) all.set(name, process.env[name] ?? null)
  return Object.fromEntries([...all].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
}
