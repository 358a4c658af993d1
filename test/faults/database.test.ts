/**
 * Database faults (issue 11, item 5): the repository on a PostgreSQL cluster of this file's own
 * (test/support/pg-cluster.ts) that the cases freeze, stop and kill, and on embedded PGlite held
 * by a long transaction. Each case bounds its own wait (a safety thaw or release), so code without
 * deadlines fails the assertions instead of hanging the suite.
 *
 * The cases run one after the other: the cluster cases share the cluster, and PGlite's start
 * blocks the event loop for about a second, which would make the timing assertions of a case
 * running beside it meaningless. About 7 s in all.
 */
import { describe, expect, it, vi } from 'vitest'
import { createApp, json } from '../../server/index.ts'
import { inject } from '../../server/testing/index.ts'
import { change } from '../../dbl/changeset.ts'
import { count, from } from '../../dbl/query.ts'
import { defineRepo, type Repo } from '../../dbl/repo.ts'
import { DbUnavailableError } from '../../dbl/unavailable.ts'
import { pgClusterAvailable, usePgCluster } from '../support/pg-cluster.ts'
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

describe.skipIf(!pgClusterAvailable())('database faults', () => {
  const cluster = usePgCluster()

  it('every PostgreSQL process frozen: queries fail with DbUnavailableError within their deadlines, not when it thaws', async () => {
    const c = cluster()
    const repo = defineRepo({ url: c.url, poolSize: 2, connectTimeoutMs: 300, acquireTimeoutMs: 400, statementTimeoutMs: 300 })
    await repo.start()
    c.freeze()
    const safety = setTimeout(() => c.thaw(), 5000)
    try {
      const t0 = performance.now()
      // One on the pooled connection (no answer), one connecting, one waiting for a free connection.
      const [warm, fresh, waiting] = await Promise.all([settle(repo.query('select 1'), t0), settle(repo.all(from(Item)), t0), settle(repo.query('select 2'), t0)])
      expect(warm.error).toBeInstanceOf(DbUnavailableError)
      expect(warm.error).toMatchObject({ reason: 'statement_timeout', status: 503, code: 'VELA_ERR_DB_UNAVAILABLE', address: `127.0.0.1:${c.port}` })
      expect((warm.error as Error).message).toBe(`database 127.0.0.1:${c.port}: no answer within 1300 ms (statementTimeoutMs 300 + 1000 ms grace)`)
      expect(fresh.error).toMatchObject({ reason: 'connect_timeout', message: `database 127.0.0.1:${c.port}: no connection within 300 ms (connectTimeoutMs)` })
      expect(waiting.error).toMatchObject({ reason: 'acquire_timeout' })
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
    const app = createApp({
      bootstrapApplication: 'faults',
      routes: {
        'src/routes/api.ts': {
          prefix: '/api',
          security: false,
          plugins: [],
          routes: [['/items', async () => {
            const r = await repo.all(from(Item))
            if (!r.ok) throw new Error(r.error.message)
            return json({ items: r.value })
          }, { methods: ['get'] }]],
        },
      },
    })
    c.freeze()
    const safety = setTimeout(() => c.thaw(), 5000)
    const error = vi.spyOn(console, 'error').mockImplementation(() => {})
    try {
      const t0 = performance.now()
      const res = await inject(app, '/api/items')
      expect(c.frozen()).toBe(true)
      expect(performance.now() - t0).toBeLessThan(2300)
      expect(res.status).toBe(503)
      expect(res.headers.get('retry-after')).toBe('1')
      expect(await res.json()).toEqual({ error: 'Service Unavailable' })
      // Logged as one line naming the route and what timed out, no stack.
      expect(error.mock.calls.map((call) => call.join(' '))).toEqual([expect.stringMatching(/^\[vela\] 503 on GET \/api\/items \(.*\): database 127\.0\.0\.1:\d+: /)])
    } finally {
      error.mockRestore()
      clearTimeout(safety)
      c.thaw()
      await repo.stop()
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
      expect((failed.error as Error).message).toMatch(new RegExp(`^${escape(refused)}; gave up after 3 attempts in 0\\.\\d s$`))
      expect(warn.mock.calls.map((args) => args.join(' '))).toEqual([`[faulty] ${refused}; attempt 2 of 3 in 50 ms`, `[faulty] ${refused}; attempt 3 of 3 in 100 ms`])

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
    const repo: Repo = defineRepo({ url: c.url, poolSize: 5, connectTimeoutMs: 1000, acquireTimeoutMs: 1000, statementTimeoutMs: 5000 })
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
    if (!stored.ok) throw new Error('read back failed')
    const kept = new Set(stored.value.map((r) => r.n))
    const reported = ops.filter((o) => o.outcome === 'ok').flatMap((o) => o.wrote)
    expect(reported.filter((n) => !kept.has(n))).toEqual([])
    // Pairs written in one transaction are both there or both absent.
    for (const o of ops.filter((o) => o.wrote.length === 2)) expect(kept.has(o.wrote[0]!)).toBe(kept.has(o.wrote[1]!))
    expect(await repo.one(count(from(Item)))).toMatchObject({ ok: true, value: { count: kept.size } })
    console.info(`[faults] killed under load: ${inFlight.length} in flight failed within ${Math.round(Math.max(...inFlight.map((o) => o.end - killedAt)))} ms, ${failures.length} failed in all, restart ${Math.round(upAt - restartAt)} ms (crash recovery), first success ${recoveryMs} ms after it, ${reported.length} reported writes all kept`)
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
    expect(rows.ok && rows.value.map((r) => r.n)).toEqual([1])
    await repo.stop()
  })
})

function escape(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
}
