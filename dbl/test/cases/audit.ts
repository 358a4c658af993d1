/**
 * The audit trail (`audit` in `defineSchema`): one row per insert, update and delete of a
 * changeset, with the actor, the changed fields old → new and a timestamp; none for a write that
 * was rolled back; `historyOf` reads a record's rows. Rows read straight through the adapter.
 */
import { describe, expect, it } from 'vitest'
import { actorScope, currentActor, setActor, withActor } from '../../audit/actor.ts'
import { historyOf } from '../../audit/entry.ts'
import { cast, change } from '../../changeset.ts'
import { defineSchema } from '../../schema.ts'
import type { SuiteContext } from '../suite-context.ts'
import { HkAccount } from '../schemas-hooks.ts'

const auditRows = async (t: SuiteContext) =>
  (
    await t.adapter.query(
      'select table_name, record_id, action, actor, changes, recorded_at from vela_audit order by id',
    )
  ).rows

const signUp = (params: Record<string, unknown>) => cast(HkAccount, null, params, ['email', 'plan', 'password_hash'])

export function auditCases(t: SuiteContext): void {
  describe('audit trail', () => {
    it('records insert, update and delete with the actor and the changed fields old → new', async () => {
      const before = Date.now()
      const made = await t.repo.withActor({ id: 7, name: 'ada' }, () =>
        t.repo.insert(signUp({ email: 'a@example.com', plan: 'free', password_hash: 'h1' })),
      )
      if (!made.ok) throw new Error('insert failed')
      const up = await withActor(7, () =>
        t.repo.update(change(HkAccount, made.value, { plan: 'pro', password_hash: 'h2' })),
      )
      if (!up.ok) throw new Error('update failed')
      const del = await t.repo.withActor('cleanup-job', () => t.repo.delete(HkAccount, up.value))
      expect(del.ok).toBe(true)

      const rows = await auditRows(t)
      expect(rows.map(({ recorded_at: _, ...r }) => r)).toEqual([
        {
          table_name: 'hk_accounts',
          record_id: String(made.value.id),
          action: 'insert',
          actor: { id: 7, name: 'ada' },
          // The key is the row's record_id; the repository's timestamps are left out; the hash is redacted.
          changes: { email: [null, 'a@example.com'], plan: [null, 'free'], password_hash: [null, '[redacted]'] },
        },
        {
          table_name: 'hk_accounts',
          record_id: String(made.value.id),
          action: 'update',
          actor: 7,
          changes: { plan: ['free', 'pro'], password_hash: ['[redacted]', '[redacted]'] },
        },
        {
          table_name: 'hk_accounts',
          record_id: String(made.value.id),
          action: 'delete',
          actor: 'cleanup-job',
          changes: { email: ['a@example.com', null], plan: ['pro', null], password_hash: ['[redacted]', null] },
        },
      ])
      for (const r of rows) {
        const at = new Date(r.recorded_at as string | Date).getTime()
        expect(at).toBeGreaterThanOrEqual(before - 60_000)
        expect(at).toBeLessThanOrEqual(Date.now() + 60_000)
      }
    })

    it('historyOf gives a record’s rows, oldest first, and no other record’s', async () => {
      const a = await t.repo.insert(signUp({ email: 'a@example.com' }))
      const b = await t.repo.insert(signUp({ email: 'b@example.com' }))
      if (!a.ok || !b.ok) throw new Error('insert failed')
      await t.repo.update(change(HkAccount, a.value, { plan: 'team' }))
      const history = await t.repo.all(historyOf(HkAccount, a.value.id))
      expect(history.map((h) => [h.action, h.record_id, h.changes])).toEqual([
        ['insert', String(a.value.id), { email: [null, 'a@example.com'] }],
        ['update', String(a.value.id), { plan: [null, 'team'] }],
      ])
      expect(history[0]!.recorded_at).toBeInstanceOf(Date)
    })

    it('a write without an actor records null; setActor names the actor of an open scope', async () => {
      await t.repo.insert(signUp({ email: 'nobody@example.com' }))
      await new Promise<void>((resolve, reject) =>
        actorScope(() => {
          setActor({ id: 9 })
          expect(currentActor()).toEqual({ id: 9 })
          t.repo.insert(signUp({ email: 'scoped@example.com' })).then(() => resolve(), reject)
        }),
      )
      expect((await auditRows(t)).map((r) => r.actor)).toEqual([null, { id: 9 }])
    })

    it('setActor outside any scope throws, naming the way to open one', () => {
      expect(() => setActor(1)).toThrow(/no actor scope is open.*auditActorHandler.*withActor/)
    })

    it('a rolled-back write leaves no audit row; bulk writes record none', async () => {
      const res = await t.repo.transaction(async (repo) => {
        await repo.insert(signUp({ email: 'gone@example.com' }))
        return repo.rollback('no')
      })
      expect(res.ok).toBe(false)
      await t.repo.insertAll(HkAccount, [{ email: 'bulk@example.com' }])
      expect(await t.count('vela_audit')).toBe(0)
    })

    it('defineSchema checks the audit option', () => {
      const fields = { id: 'id', email: 'string' } as const
      expect(() => defineSchema({ table: 'x', fields, audit: { redact: ['password'] } })).toThrow(
        /schema x: audit redacts unknown field "password"/,
      )
      expect(defineSchema({ table: 'x', fields, audit: false }).lifecycle).toBeUndefined()
    })
  })
}
