/**
 * Read replicas: on PostgreSQL, reads outside a transaction go to the replicas in turn, writes,
 * transactions and `onPrimary` reads to the primary (each pool records what it ran; a replica
 * given as a config opens a pool of its own, seen in pg_stat_activity by its application_name).
 * On PGlite a repo with replicas is refused when defined.
 */
import { describe, expect, it } from 'vitest'
import type { Adapter, Connection } from '../../adapters/adapter.ts'
import { createPgAdapter } from '../../adapters/pg.ts'
import { from } from '../../query/builder.ts'
import { defineRepo } from '../../repo.ts'
import type { SuiteContext } from '../suite-context.ts'
import { Product } from '../schemas.ts'
import { productCs } from './read-write.ts'

/** `a`, recording `<label> <first word of each statement>` (`<label> tx …` inside a transaction); closing it closes `a` only if `owns`. */
function recorded(a: Adapter, label: string, log: string[], owns: boolean): Adapter {
  const verb = (sql: string) => sql.trim().split(/\s+/)[0]!.toLowerCase()
  return {
    kind: a.kind,
    query: (sql, params) => {
      log.push(`${label} ${verb(sql)}`)
      return a.query(sql, params)
    },
    transaction: (fn) =>
      a.transaction((conn) =>
        fn({
          query: (sql, params) => {
            log.push(`${label} tx ${verb(sql)}`)
            return conn.query(sql, params)
          },
        } as Connection),
      ),
    session: (fn) => a.session(fn),
    close: async () => {
      if (owns) await a.close()
    },
  }
}

export function replicaCases(t: SuiteContext): void {
  describe('read replicas', () => {
    it('PostgreSQL: reads go to the replicas in turn; writes, transactions and onPrimary to the primary', async (ctx) => {
      if (!t.url) return ctx.skip()
      const log: string[] = []
      const pools = [createPgAdapter({ url: t.url, poolSize: 2 }), createPgAdapter({ url: t.url, poolSize: 2 })]
      const repo = defineRepo({
        adapter: recorded(t.adapter, 'primary', log, false),
        replicas: [recorded(pools[0]!, 'r1', log, true), recorded(pools[1]!, 'r2', log, true)],
      })
      try {
        expect((await repo.insert(productCs({ name: 'Tea', price: 3 }))).ok).toBe(true)
        expect((await repo.insert(productCs({ name: 'Mug', price: 9 }))).ok).toBe(true)
        expect(log).toEqual(['primary insert', 'primary insert'])
        log.length = 0
        expect((await repo.all(from(Product).orderBy('id'))).map((p) => p.name)).toEqual(['Tea', 'Mug'])
        expect((await repo.getBy(Product, { name: 'Mug' }))?.price).toBe(9)
        expect(await repo.count(from(Product))).toBe(2)
        expect(await repo.exists(from(Product).where({ name: 'Tea' }))).toBe(true)
        expect(log).toEqual(['r1 select', 'r2 select', 'r1 select', 'r2 select'])
        log.length = 0
        const tea = (await repo.onPrimary(() => repo.get(Product, 1)))!
        expect(tea.name).toBe('Tea')
        const inTx = await repo.transaction(async () => (await repo.all(from(Product))).length)
        expect(inTx).toEqual({ ok: true, value: 2 })
        expect(await repo.updateAll(from(Product), { price: 1 })).toEqual({ ok: true, value: { count: 2 } })
        expect((await repo.query('select 1 as one')).ok).toBe(true)
        expect(log).toEqual(['primary select', 'primary tx select', 'primary update', 'primary select'])
        log.length = 0
        // A locking read outside a transaction goes to the primary: a replica refuses locks.
        expect((await repo.all(from(Product).lock('for update'))).length).toBe(2)
        expect(log).toEqual(['primary select'])
        log.length = 0
        const streamed: number[] = []
        for await (const p of repo.stream(from(Product).orderBy('id'), { batchSize: 1 })) streamed.push(p.price)
        expect(streamed).toEqual([1, 1])
        expect(log[0]).toBe('r1 tx declare')
        expect(log.every((l) => l.startsWith('r1 tx'))).toBe(true)
      } finally {
        await repo.stop()
      }
      // A replica given as an adapter is its owner's to close, not the repo's.
      await Promise.all(pools.map((p) => p.close()))
    })

    it('PostgreSQL: a replica given as a config opens its own pool, with its own application_name', async (ctx) => {
      if (!t.url) return ctx.skip()
      const url = new URL(t.url)
      url.searchParams.set('application_name', 'vela_replica_case')
      const repo = defineRepo({ url: t.url, poolSize: 2, replicas: [{ url: url.toString(), poolSize: 1 }] })
      const replicaConnections = async () =>
        Number(
          (
            await t.adapter.query(
              `select count(*)::int as n from pg_stat_activity where application_name = 'vela_replica_case' and datname = current_database()`,
            )
          ).rows[0]!.n,
        )
      try {
        expect((await repo.insert(productCs({ name: 'Pot', price: 4 }))).ok).toBe(true)
        expect(await replicaConnections()).toBe(0)
        expect((await repo.all(from(Product))).map((p) => p.name)).toEqual(['Pot'])
        expect(await replicaConnections()).toBe(1)
      } finally {
        await repo.stop()
      }
      for (let i = 0; i < 100 && (await replicaConnections()) > 0; i++) await new Promise((r) => setTimeout(r, 50))
      expect(await replicaConnections()).toBe(0)
    })

    it('PGlite: a repo with replicas is refused when defined; an empty list is accepted', async (ctx) => {
      if (t.adapter.kind !== 'pglite') return ctx.skip()
      expect(() => defineRepo({ adapter: t.adapter, replicas: [{ url: 'postgres://127.0.0.1/x' }] })).toThrow(
        'defineRepo repo: read replicas need PostgreSQL (give url or hostname); embedded PGlite is one database in this process and has none',
      )
      expect(() => defineRepo({ url: 'memory:', replicas: [{ url: 'postgres://127.0.0.1/x' }] })).toThrow(
        'read replicas need PostgreSQL',
      )
      const repo = defineRepo({ adapter: t.adapter, replicas: [] })
      expect((await repo.insert(productCs({ name: 'Cup', price: 2 }))).ok).toBe(true)
      expect((await repo.all(from(Product))).map((p) => p.name)).toEqual(['Cup'])
    })

    it('a replica without a url or hostname is refused', () => {
      expect(() => defineRepo({ url: 'postgres://127.0.0.1/x', replicas: [{ poolSize: 2 }] })).toThrow(
        'defineRepo repo: each replica needs a url or a hostname (or is an adapter)',
      )
    })
  })
}
