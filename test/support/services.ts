/**
 * Real services for tests. Where one is missing on a developer's machine the tests that need it
 * say so and skip; under CI (CI=true) a missing service is a failure, never a skip.
 */
import net from 'node:net'

export const POSTGRES_URL = process.env.VELA_TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test'
export const REDIS_URL = process.env.VELA_TEST_REDIS_URL ?? 'redis://127.0.0.1:6379'

const inCI = process.env.CI === 'true' || process.env.CI === '1'

function reachable(host: string, port: number, timeoutMs = 1000): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ host, port })
    const done = (ok: boolean) => {
      socket.destroy()
      resolve(ok)
    }
    socket.setTimeout(timeoutMs, () => done(false))
    socket.once('connect', () => done(true))
    socket.once('error', () => done(false))
  })
}

/**
 * Resolves true when the service answers. Otherwise: under CI it throws (the suite fails);
 * elsewhere it prints why and resolves false, so the caller can `describe.skipIf(!available)`.
 */
export async function serviceAvailable(name: 'postgres' | 'redis'): Promise<boolean> {
  const url = new URL(name === 'postgres' ? POSTGRES_URL : REDIS_URL)
  const port = Number(url.port || (name === 'postgres' ? 5432 : 6379))
  if (await reachable(url.hostname, port)) return true
  const message = `${name} is not reachable at ${url.hostname}:${port}`
  if (inCI) throw new Error(`${message}; CI needs it, so this is a failure, not a skip`)
  console.warn(`[vela tests] ${message}: skipping the tests that need it`)
  return false
}

/**
 * A fresh database on the PostgreSQL server (`<prefix>_<random>`), so runs never see each other's
 * rows; `drop()` removes it. CREATE/DROP DATABASE run on a maintenance connection of `serverUrl`.
 */
export async function freshPostgresDatabase(
  prefix = 'vela_test',
  serverUrl = POSTGRES_URL,
): Promise<{ url: string; drop(): Promise<void> }> {
  const { default: pg } = await import('pg')
  const { randomBytes } = await import('node:crypto')
  const admin = async (sql: string) => {
    const client = new pg.Client({ connectionString: serverUrl })
    await client.connect()
    try {
      await client.query(sql)
    } finally {
      await client.end()
    }
  }
  const name = `${prefix}_${randomBytes(6).toString('hex')}`
  await admin(`CREATE DATABASE ${name}`)
  const url = new URL(serverUrl)
  url.pathname = `/${name}`
  return { url: url.toString(), drop: () => admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`) }
}
