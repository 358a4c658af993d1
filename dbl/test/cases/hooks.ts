/**
 * Schema lifecycle hooks (`hooks` in `defineSchema`): their order around the statement, a
 * before-hook changing or refusing the write, after-hooks seeing the stored record and writing in
 * the same transaction, a throwing hook rolling everything back, and bulk writes running none.
 */
import { beforeEach, describe, expect, it } from 'vitest'
import { cast, change, errorsToJson } from '../../changeset.ts'
import { from } from '../../query/builder.ts'
import { defineSchema } from '../../schema.ts'
import type { SuiteContext } from '../suite-context.ts'
import { HkNote, hookCalls } from '../schemas-hooks.ts'

const rows = async (t: SuiteContext, sql: string) => (await t.adapter.query(sql)).rows
const note = (title: string) => cast(HkNote, null, { title }, ['title'])

export function hookCases(t: SuiteContext): void {
  describe('schema lifecycle hooks', () => {
    beforeEach(() => {
      hookCalls.length = 0
    })

    it('insert: prepareChanges, beforeInsert, the statement, afterInsert, in that order', async () => {
      const cs = note('Hello World').prepareChanges((cs) => {
        hookCalls.push('prepare')
        return cs
      })
      const res = await t.repo.insert(cs)
      if (!res.ok) throw new Error('insert failed')
      expect(hookCalls).toEqual(['prepare', 'beforeInsert:Hello World', `afterInsert:Hello World#${res.value.id}`])
      // The before-hook's change was written; the after-hook saw the stored row (its id) and wrote in the same transaction.
      expect(res.value.slug).toBe('hello-world')
      expect(await rows(t, 'select title, slug from hk_notes')).toEqual([{ title: 'Hello World', slug: 'hello-world' }])
      expect(await rows(t, 'select name from hk_counters')).toEqual([{ name: `note ${res.value.id}` }])
    })

    it('a before-hook refuses by adding an error: the write gives the changeset, nothing is written', async () => {
      const res = await t.repo.insert(note('refuse'))
      expect(res.ok).toBe(false)
      expect(!res.ok && errorsToJson(res.error)).toEqual({ title: ['is reserved'] })
      expect(hookCalls).toEqual(['beforeInsert:refuse'])
      expect(await t.count('hk_notes')).toBe(0)
    })

    it('an after-hook that throws rolls the write and its own writes back; the write rejects', async () => {
      await expect(t.repo.insert(note('boom'))).rejects.toThrow('afterInsert failed')
      expect(hookCalls).toEqual(['beforeInsert:boom', 'afterInsert:boom#1'])
      expect(await t.count('hk_notes')).toBe(0)
      expect(await t.count('hk_counters')).toBe(0)
    })

    it('update and delete: before-hooks see the record as it was, after-hooks as stored', async () => {
      const made = await t.repo.insert(note('first'))
      if (!made.ok) throw new Error('insert failed')
      hookCalls.length = 0
      const up = await t.repo.update(change(HkNote, made.value, { title: 'second' }))
      expect(up.ok && up.value.title).toBe('second')
      if (!up.ok) return
      const del = await t.repo.delete(HkNote, up.value)
      expect(del.ok).toBe(true)
      expect(hookCalls).toEqual([
        'beforeUpdate:first->second',
        'afterUpdate:first->second',
        'beforeDelete:second',
        'afterDelete:second',
      ])
      expect(await t.count('hk_notes')).toBe(0)
    })

    it('a beforeDelete refusal keeps the row', async () => {
      const made = await t.repo.insert(note('keep'))
      if (!made.ok) throw new Error('insert failed')
      const res = await t.repo.delete(HkNote, made.value)
      expect(!res.ok && errorsToJson(res.error)).toEqual({ title: ['is kept'] })
      expect(await rows(t, 'select title from hk_notes')).toEqual([{ title: 'keep' }])
    })

    it('an update with no changes writes nothing and runs no hooks', async () => {
      const made = await t.repo.insert(note('same'))
      if (!made.ok) throw new Error('insert failed')
      hookCalls.length = 0
      expect((await t.repo.update(change(HkNote, made.value, { title: 'same' }))).ok).toBe(true)
      expect(hookCalls).toEqual([])
    })

    it('inside a caller’s transaction, a rollback undoes the write and what its hooks wrote', async () => {
      const res = await t.repo.transaction(async (repo) => {
        await repo.insert(note('inside'))
        return repo.rollback('changed my mind')
      })
      expect(res).toEqual({ ok: false, error: 'changed my mind' })
      expect(hookCalls).toEqual(['beforeInsert:inside', 'afterInsert:inside#1'])
      expect(await t.count('hk_notes')).toBe(0)
      expect(await t.count('hk_counters')).toBe(0)
    })

    it('bulk writes (insertAll, updateAll, deleteAll) run no hooks', async () => {
      const ins = await t.repo.insertAll(HkNote, [{ title: 'Bulk One' }, { title: 'Bulk Two' }])
      expect(ins.ok && ins.value.count).toBe(2)
      expect((await t.repo.updateAll(from(HkNote), { title: 'Bulk' })).ok).toBe(true)
      expect((await t.repo.deleteAll(from(HkNote).where({ id: 1 }))).ok).toBe(true)
      expect(hookCalls).toEqual([])
      // No slug: beforeInsert did not run.
      expect(await rows(t, 'select title, slug from hk_notes')).toEqual([{ title: 'Bulk', slug: null }])
    })

    it('defineSchema refuses an unknown hook or one that is not a function', () => {
      const fields = { id: 'id', title: 'string' } as const
      expect(() => defineSchema({ table: 'x', fields, hooks: { beforeSave: () => {} } as never })).toThrow(
        /schema x: unknown hook "beforeSave"; hooks are beforeInsert, afterInsert/,
      )
      expect(() => defineSchema({ table: 'x', fields, hooks: { afterInsert: 1 } as never })).toThrow(
        /hook afterInsert must be a function/,
      )
    })
  })
}
