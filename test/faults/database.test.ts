/**
 * Database faults: the repository on a PostgreSQL cluster of this file's own
 * (test/support/pg-cluster.ts) that the cases freeze, stop and kill, and on embedded PGlite held by
 * a long transaction. Each case bounds its own wait (a safety thaw or release), so code without
 * deadlines fails the assertions instead of hanging the suite.
 *
 * The cases run one after the other: the cluster cases share the cluster, and PGlite's start
 * blocks the event loop for about a second, which would make the timing assertions of a case
 * running beside it meaningless. About 15 s in all.
 *
 * Writes with an unknown outcome: a statement sent and never answered may have been applied, so it
 * is a 504 `VELA_ERR_DB_OUTCOME_UNKNOWN` without `Retry-After`; what failed before anything was
 * sent (or was a read, or rolled back) stays a 503 with it. The frozen-answer cases go through
 * test/support/tcp-proxy.ts, which holds the server's answer to one chosen statement.
 */
import { describe, expect, it, vi } from 'vitest'
import { createApp, json } from '../../server/index.ts'
import { inject } from '../../server/testing/index.ts'
import { change } from '../../dbl/changeset.ts'
import { from } from '../../dbl/query/builder.ts'
import { defineRepo, type Repo } from '../../dbl/repo.ts'
import { DbOutcomeUnknownError, DbUnavailableError } from '../../dbl/unavailable.ts'
import { pgClusterAvailable, usePgCluster, type PgCluster } from '../support/pg-cluster.ts'
import { startTcpProxy } from '../support/tcp-proxy.ts'
import { until } from '../support/until.ts'
import { driveLoad, Item } from './load.ts'

/** How an operation settled, and when (ms since `t0`). */
async function settle(p: Promise<unknown>, t0: number): Promise<{ error: unknown; at: number }> {
  try {
    await p
    return { error: undefined, at: performance.now() - t0 }
  } catch (error) {
    return { error, at: performance.now() - t0 }
  }
}

/** `POST /api/items` inserts `n` on its own, `POST /api/items/tx` inside a transaction, `GET /api/items` reads. */
function itemsApp(repo: Repo) {
  const inserted = (r: { ok: boolean }) => {
    if (!r.ok) throw new Error('insert failed')
    return json({ ok: true }, { status: 201 })
  }
  return createApp({
    bootstrapApplication: 'faults',
    routes: {
      'src/routes/api.ts': {
        prefix: '/api',
        security: false,
        plugins: [],
        routes: [
          [
            'GET /items',
            async () => {
              return json({ items: await repo.all(from(Item)) })
            },
          ],
          ['POST /items', async (req) => inserted(await repo.insert(change(Item, {}, { n: Number(req.query.n) })))],
          [
            'POST /items/tx',
            async (req) =>
              inserted(await repo.transaction((tx) => tx.insert(change(Item, {}, { n: Number(req.query.n) })))),
          ],
        ],
      },
    },
  })
}

/** A fresh `items` table on the cluster, and a reader for its `n`s (on a connection of its own). */
async function freshItems(c: PgCluster) {
  const setup = defineRepo({ url: c.url })
  await setup.query('drop table if exists items')
  await setup.query('create table items (id bigserial primary key, n integer not null unique)')
  return {
    async ns(): Promise<number[]> {
      return (await setup.all(from(Item))).map((i) => i.n)
    },
    /** No session is inside a transaction any more: whatever was left open has been rolled back. */
    async settled(): Promise<boolean> {
      const r = await setup.query<{ n: number }>(
        `select count(*)::int as n from pg_stat_activity where state like 'idle in transaction%'`,
      )
      return r.ok && r.value.rows[0]!.n === 0
    },
    stop: () => setup.stop(),
  }
}

describe.skipIf(!pgClusterAvailable())('database faults', () => {
  const cluster = usePgCluster()

  it('every PostgreSQL process frozen: queries fail with DbUnavailableError within their deadlines, not when it thaws', async () => {
    const c = cluster()
    const repo = defineRepo({
      url: c.url,
      poolSize: 2,
      connectTimeoutMs: 300,
      acquireTimeoutMs: 400,
      statementTimeoutMs: 300,
    })
    await repo.start()
    c.freeze()
    const safety = setTimeout(() => c.thaw(), 5000)
    try {
      const t0 = performance.now()
      // One on the pooled connection (no answer), one connecting, one waiting for a free connection.
      const [warm, fresh, waiting] = await Promise.all([
        settle(repo.query('select 1'), t0),
        settle(repo.all(from(Item)), t0),
        settle(repo.query('select 2'), t0),
      ])
      // Raw SQL sent and never answered: not known to be a read, so it may have been applied.
      expect(warm.error).toBeInstanceOf(DbOutcomeUnknownError)
      expect(warm.error).toMatchObject({
        reason: 'statement_timeout',
        status: 504,
        code: 'VELA_ERR_DB_OUTCOME_UNKNOWN',
        address: `127.0.0.1:${c.port}`,
      })
      expect((warm.error as Error).message).toBe(
        `database 127.0.0.1:${c.port}: no answer within 1300 ms (statementTimeoutMs 300 + 1000 ms grace); the statement was sent and may have been applied`,
      )
      // Nothing sent: safe to retry.
      expect(fresh.error).toMatchObject({
        reason: 'connect_timeout',
        status: 503,
        message: `database 127.0.0.1:${c.port}: no connection within 300 ms (connectTimeoutMs)`,
      })
      expect(waiting.error).toMatchObject({ reason: 'acquire_timeout', status: 503, code: 'VELA_ERR_DB_UNAVAILABLE' })
      // All three while it is still frozen (it thaws at 5 s at the latest), each near its deadline.
      expect(c.frozen()).toBe(true)
      expect(warm.at).toBeLessThan(2300)
      expect(Math.max(fresh.at, waiting.at)).toBeLessThan(1400)
      // Stopping does not wait for the frozen server's goodbye either.
      const stopping = performance.now()
      await repo.stop()
      expect(performance.now() - stopping).toBeLessThan(1500)
    } finally {
      clearTimeout(safety)
      c.thaw()
    }
    const after = defineRepo({ url: c.url })
    expect(await after.query('select 1 as one')).toMatchObject({ ok: true, value: { rows: [{ one: 1 }] } })
    await after.stop()
  })

  it('a request while the database is frozen is answered within the deadline, not when it thaws', async () => {
    const c = cluster()
    const repo = defineRepo({ url: c.url, connectTimeoutMs: 300, acquireTimeoutMs: 300, statementTimeoutMs: 300 })
    await repo.start()
    const app = itemsApp(repo)
    c.freeze()
    const safety = setTimeout(() => c.thaw(), 5000)
    const error = vi.spyOn(console, 'error').mockImplementation(() => {})
    try {
      const t0 = performance.now()
      const res = await inject(app, '/api/items')
      expect(c.frozen()).toBe(true)
      expect(performance.now() - t0).toBeLessThan(2300)
      // The SELECT was sent and never answered, but a read is safe to run again: 503, Retry-After.
      expect(res.status).toBe(503)
      expect(res.headers.get('retry-after')).toBe('1')
      expect(await res.json()).toEqual({ error: 'Service Unavailable', code: 'VELA_ERR_DB_UNAVAILABLE' })
      // Logged as one line naming the route and what timed out, no stack.
      expect(error.mock.calls.map((call) => call.join(' '))).toEqual([
        expect.stringMatching(/^\[vela\] 503 on GET \/api\/items \(.*\): database 127\.0\.0\.1:\d+: /),
      ])
    } finally {
      error.mockRestore()
      clearTimeout(safety)
      c.thaw()
      await repo.stop()
    }
  })

  it('a POST whose INSERT is frozen past its deadline: 504 VELA_ERR_DB_OUTCOME_UNKNOWN without Retry-After, and the row is there once the database resumes', async () => {
    const c = cluster()
    const items = await freshItems(c)
    const repo = defineRepo({ url: c.url, connectTimeoutMs: 300, acquireTimeoutMs: 300, statementTimeoutMs: 300 })
    await repo.start()
    const app = itemsApp(repo)
    c.freeze()
    const safety = setTimeout(() => c.thaw(), 5000)
    const error = vi.spyOn(console, 'error').mockImplementation(() => {})
    try {
      const res = await inject(app, { url: '/api/items?n=1', method: 'POST' })
      expect(c.frozen()).toBe(true)
      expect(res.status).toBe(504)
      expect(res.headers.get('retry-after')).toBeNull()
      expect(await res.json()).toEqual({ error: 'Gateway Timeout', code: 'VELA_ERR_DB_OUTCOME_UNKNOWN' })
      expect(error.mock.calls.map((call) => call.join(' '))).toEqual([
        expect.stringMatching(
          /^\[vela\] 504 on POST \/api\/items \(.*\): database 127\.0\.0\.1:\d+: no answer within 1300 ms .*; the statement was sent and may have been applied request_id=\S+$/,
        ),
      ])
    } finally {
      error.mockRestore()
      clearTimeout(safety)
      c.thaw()
    }
    // The INSERT waited in the server's socket buffer and ran when it resumed: a retry would have made two.
    await until('the frozen INSERT is committed after the thaw', async () => (await items.ns()).includes(1), 10_000)
    await repo.stop()
    await items.stop()
  })

  it('a request while the pool cannot connect is a 503 with Retry-After, a write included: nothing was sent', async () => {
    const c = cluster()
    const proxy = await startTcpProxy({ host: '127.0.0.1', port: c.port }, 'down')
    const repo = defineRepo({
      url: `postgres://postgres@127.0.0.1:${proxy.port}/postgres`,
      connectTimeoutMs: 300,
      acquireTimeoutMs: 300,
      statementTimeoutMs: 300,
    })
    const app = itemsApp(repo)
    const error = vi.spyOn(console, 'error').mockImplementation(() => {})
    try {
      for (const request of [
        { url: '/api/items?n=1', method: 'POST' },
        { url: '/api/items/tx?n=2', method: 'POST' },
        { url: '/api/items' },
      ]) {
        const res = await inject(app, request)
        expect(res.status, `${request.method ?? 'GET'} ${request.url}`).toBe(503)
        expect(res.headers.get('retry-after')).toBe('1')
        expect(await res.json()).toEqual({ error: 'Service Unavailable', code: 'VELA_ERR_DB_UNAVAILABLE' })
      }
      expect(proxy.refused).toBeGreaterThanOrEqual(3)
      expect(error.mock.calls.map((call) => call.join(' '))).toEqual([
        expect.stringMatching(/^\[vela\] 503 on POST \/api\/items \(.*\): database 127\.0\.0\.1:\d+: /),
        expect.stringMatching(/^\[vela\] 503 on POST \/api\/items\/tx \(.*\): database 127\.0\.0\.1:\d+: /),
        expect.stringMatching(/^\[vela\] 503 on GET \/api\/items \(.*\): database 127\.0\.0\.1:\d+: /),
      ])
    } finally {
      error.mockRestore()
      await repo.stop()
      await proxy.close()
    }
  })

  it('in a transaction: an INSERT never answered is rolled back (503, Retry-After, no row); a COMMIT never answered may have committed (504, the row is there)', async () => {
    const c = cluster()
    const items = await freshItems(c)
    const proxy = await startTcpProxy({ host: '127.0.0.1', port: c.port }, 'up')
    const repo = defineRepo({
      url: `postgres://postgres@127.0.0.1:${proxy.port}/postgres`,
      connectTimeoutMs: 300,
      acquireTimeoutMs: 300,
      statementTimeoutMs: 300,
    })
    await repo.start()
    const app = itemsApp(repo)
    const error = vi.spyOn(console, 'error').mockImplementation(() => {})
    try {
      // The INSERT reaches the server and runs; its answer is held. No COMMIT follows: the
      // connection is closed, so the server rolls the transaction back. Known outcome: retry.
      proxy.freezeAfter('insert into')
      const rolledBack = await inject(app, { url: '/api/items/tx?n=1', method: 'POST' })
      expect(proxy.frozen).toBe(true)
      expect(rolledBack.status).toBe(503)
      expect(rolledBack.headers.get('retry-after')).toBe('1')
      expect(await rolledBack.json()).toEqual({ error: 'Service Unavailable', code: 'VELA_ERR_DB_UNAVAILABLE' })
      proxy.thaw()
      await until('the open transaction is rolled back', () => items.settled(), 10_000)
      expect(await items.ns()).toEqual([])

      // The COMMIT reaches the server and commits; its answer is held: unknown to the client.
      proxy.freezeAfter('COMMIT')
      const unknown = await inject(app, { url: '/api/items/tx?n=2', method: 'POST' })
      expect(proxy.frozen).toBe(true)
      expect(unknown.status).toBe(504)
      expect(unknown.headers.get('retry-after')).toBeNull()
      expect(await unknown.json()).toEqual({ error: 'Gateway Timeout', code: 'VELA_ERR_DB_OUTCOME_UNKNOWN' })
      proxy.thaw()
      await until('the COMMIT whose answer was held is applied', async () => (await items.ns()).includes(2), 10_000)

      // Both times the pool replaced the connection: the next write is a 201.
      expect((await inject(app, { url: '/api/items?n=3', method: 'POST' })).status).toBe(201)
      expect((await items.ns()).sort()).toEqual([2, 3])
      expect(error.mock.calls.map((call) => call.join(' '))).toEqual([
        expect.stringMatching(
          /^\[vela\] 503 on POST \/api\/items\/tx \(.*\): database 127\.0\.0\.1:\d+: no answer within 1300 ms/,
        ),
        expect.stringMatching(
          /^\[vela\] 504 on POST \/api\/items\/tx \(.*\): database 127\.0\.0\.1:\d+: no answer within 1300 ms .*; the statement was sent and may have been applied request_id=\S+$/,
        ),
      ])
    } finally {
      error.mockRestore()
      proxy.thaw()
      await repo.stop()
      await proxy.close()
      await items.stop()
    }
  })

  it('started while the database is down: retries, then one line naming host:port; started before it comes up: waits for it', async () => {
    const c = cluster()
    await c.stop()
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {})
    try {
      const repo = defineRepo({ name: 'faulty', url: c.url, startRetry: { attempts: 3, delayMs: 50 } })
      const failed = await settle(repo.start(), performance.now())
      const refused = `database 127.0.0.1:${c.port}: unreachable: connection refused (ECONNREFUSED)`
      expect(failed.error).toBeInstanceOf(DbUnavailableError)
      expect((failed.error as Error).message).toMatch(
        new RegExp(`^${escapeRegExp(refused)}; gave up after 3 attempts in 0\\.\\d s$`),
      )
      expect(warn.mock.calls.map((args) => args.join(' '))).toEqual([
        `[faulty] ${refused}; attempt 2 of 3 in 50 ms`,
        `[faulty] ${refused}; attempt 3 of 3 in 100 ms`,
      ])

      warn.mockClear()
      // The database comes up while the repo waits between attempts.
      let restarting: Promise<void> | undefined
      warn.mockImplementation(() => void (restarting ??= c.restart()))
      const waiting = defineRepo({ url: c.url, startRetry: { attempts: 10, delayMs: 200 } })
      await waiting.start()
      expect(warn.mock.calls.length).toBeGreaterThan(0)
      expect(await waiting.query('select 1 as one')).toMatchObject({ ok: true })
      await waiting.stop()
    } finally {
      warn.mockRestore()
      if (!c.pids().length) await c.restart()
    }
  })

  it('killed under load, then restarted: in-flight queries fail fast, the pool recovers, no reported write is lost', async () => {
    const c = cluster()
    const setup = defineRepo({ url: c.url })
    await setup.query('drop table if exists items')
    await setup.query('create table items (id bigserial primary key, n integer not null unique)')
    await setup.stop()
    const repo: Repo = defineRepo({
      url: c.url,
      poolSize: 5,
      connectTimeoutMs: 1000,
      acquireTimeoutMs: 1000,
      statementTimeoutMs: 5000,
    })
    await repo.start()
    const load = driveLoad(repo, 8)
    await load.until((s) => s.ok >= 200)
    const killedAt = performance.now()
    await c.kill()
    await load.until((s) => s.failedSince(killedAt) >= 8)
    const restartAt = performance.now()
    await c.restart()
    const upAt = performance.now()
    await load.until((s) => s.okSince(upAt) >= 100)
    const ops = await load.stop()

    const inFlight = ops.filter((o) => o.start < killedAt && o.end > killedAt)
    expect(inFlight.length).toBeGreaterThan(0)
    for (const o of inFlight) expect(o.end - killedAt, `in flight at the kill, settled ${o.outcome}`).toBeLessThan(1000)
    const failures = ops.filter((o) => o.outcome !== 'ok')
    expect(failures.length).toBeGreaterThan(0)
    for (const o of failures) expect(o.error, String(o.error)).toBeInstanceOf(DbUnavailableError)
    const firstOk = Math.min(...ops.filter((o) => o.outcome === 'ok' && o.start >= upAt).map((o) => o.end))
    const recoveryMs = Math.round(firstOk - upAt)
    expect(recoveryMs).toBeLessThan(2000)

    const stored = await repo.all(from(Item))
    const kept = new Set(stored.map((r) => r.n))
    const reported = ops.filter((o) => o.outcome === 'ok').flatMap((o) => o.wrote)
    expect(reported.filter((n) => !kept.has(n))).toEqual([])
    // Pairs written in one transaction are both there or both absent.
    for (const o of ops.filter((o) => o.wrote.length === 2)) expect(kept.has(o.wrote[0]!)).toBe(kept.has(o.wrote[1]!))
    expect(await repo.count(from(Item))).toBe(kept.size)
    console.info(
      `[faults] killed under load: ${inFlight.length} in flight failed within ${Math.round(Math.max(...inFlight.map((o) => o.end - killedAt)))} ms, ${failures.length} failed in all, restart ${Math.round(upAt - restartAt)} ms (crash recovery), first success ${recoveryMs} ms after it, ${reported.length} reported writes all kept`,
    )
    await repo.stop()
  })

  it('PGlite held by a transaction: a query waiting longer than acquireTimeoutMs fails with DbUnavailableError and never runs', async () => {
    const repo = defineRepo({ url: 'memory:', acquireTimeoutMs: 200 })
    await repo.query('create table items (id bigserial primary key, n integer not null)')
    let release!: () => void
    const gate = new Promise<void>((resolve) => (release = resolve))
    const safety = setTimeout(release, 3000)
    const holding = repo.transaction(async (tx) => {
      await tx.insert(change(Item, {}, { n: 1 }))
      await gate
    })
    const t0 = performance.now()
    const waited = await settle(repo.insert(change(Item, {}, { n: 2 })), t0)
    expect(waited.error).toBeInstanceOf(DbUnavailableError)
    expect(waited.error).toMatchObject({ reason: 'acquire_timeout', address: 'PGlite', status: 503 })
    expect(waited.at).toBeLessThan(1500)
    release()
    clearTimeout(safety)
    expect(await holding).toMatchObject({ ok: true })
    const rows = await repo.all(from(Item))
    expect(rows.map((r) => r.n)).toEqual([1])
    await repo.stop()
  })
})

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
}
