/**
 * `prepareChanges`: the function runs inside the write's transaction just before the write, may
 * change the changes, and what it writes is undone when the write fails; a write without one
 * opens no transaction. Rows read straight through the adapter.
 */
import { describe, expect, it } from 'vitest'
import type { Adapter } from '../../adapters/adapter.ts'
import { cast, change, errorsToJson } from '../../changeset.ts'
import { prepareChanges } from '../../prepare.ts'
import { defineRepo } from '../../repo.ts'
import type { SuiteContext } from '../suite-context.ts'
import { HkCounter } from '../schemas-hooks.ts'

const names = async (t: SuiteContext) =>
  (await t.adapter.query('select name from hk_counters order by id')).rows.map((r) => r.name)

const counter = (name: string) => cast(HkCounter, null, { name }, ['name']).uniqueConstraint('name')

/** A repo on the suite's database that counts the transactions it opens. */
function countingRepo(t: SuiteContext): { repo: ReturnType<typeof defineRepo>; opened: () => number } {
  let n = 0
  const adapter = Object.create(t.adapter) as Adapter
  adapter.transaction = (fn) => {
    n++
    return t.adapter.transaction(fn)
  }
  return { repo: defineRepo({ adapter }), opened: () => n }
}

export function prepareChangesCases(t: SuiteContext): void {
  describe('prepareChanges', () => {
    it('runs just before the write, in its transaction, and may change the changes', async () => {
      const { repo, opened } = countingRepo(t)
      let inTransaction = false
      const cs = counter('first').prepareChanges(async (cs, r) => {
        inTransaction = r.currentTransaction() !== undefined
        await r.insert(change(HkCounter, null, { name: 'written by prepare' }))
        return cs.putChange('name', `${cs.changes.name} (prepared)`)
      })
      const res = await repo.insert(cs)
      expect(res.ok && res.value.name).toBe('first (prepared)')
      expect(inTransaction).toBe(true)
      expect(opened()).toBe(1)
      expect(await names(t)).toEqual(['written by prepare', 'first (prepared)'])
    })

    it('functions run in the order they were added, each given the previous one’s changeset', async () => {
      const cs = prepareChanges(counter('a'), (cs) => cs.putChange('name', `${cs.changes.name}1`)).prepareChanges(
        (cs) => cs.putChange('name', `${cs.changes.name}2`),
      )
      const res = await t.repo.insert(cs)
      expect(res.ok && res.value.name).toBe('a12')
    })

    it('what it wrote is rolled back when the write fails (a unique constraint)', async () => {
      await t.repo.insert(counter('taken'))
      const cs = counter('taken').prepareChanges(async (cs, r) => {
        await r.insert(change(HkCounter, null, { name: 'extra' }))
        return cs
      })
      const res = await t.repo.insert(cs)
      expect(res.ok).toBe(false)
      expect(!res.ok && errorsToJson(res.error)).toEqual({ name: ['has already been taken'] })
      expect(await names(t)).toEqual(['taken'])
    })

    it('an error it adds stops the write and rolls its own work back', async () => {
      const cs = counter('new').prepareChanges(async (cs, r) => {
        await r.insert(change(HkCounter, null, { name: 'extra' }))
        return cs.addError('name', 'is not allowed today')
      })
      const res = await t.repo.insert(cs)
      expect(!res.ok && errorsToJson(res.error)).toEqual({ name: ['is not allowed today'] })
      expect(await names(t)).toEqual([])
    })

    it('a function that throws rejects the write and rolls everything back', async () => {
      const cs = counter('new').prepareChanges(async (_cs, r) => {
        await r.insert(change(HkCounter, null, { name: 'extra' }))
        throw new Error('no stock left')
      })
      await expect(t.repo.insert(cs)).rejects.toThrow('no stock left')
      expect(await names(t)).toEqual([])
    })

    it('is not run for an invalid changeset', async () => {
      let ran = false
      const cs = counter('x')
        .addError('name', 'is bad')
        .prepareChanges((cs) => {
          ran = true
          return cs
        })
      expect((await t.repo.insert(cs)).ok).toBe(false)
      expect(ran).toBe(false)
    })

    it('runs for updates and deletes too, inside a caller’s transaction on the same connection', async () => {
      const made = await t.repo.insert(counter('one'))
      if (!made.ok) throw new Error('insert failed')
      const seen: boolean[] = []
      const res = await t.repo.transaction(async (r) => {
        const outer = r.currentTransaction()
        const up = await r.update(
          change(HkCounter, made.value, { name: 'two' }).prepareChanges((cs, inner) => {
            seen.push(inner.currentTransaction() === outer)
            return cs
          }),
        )
        if (!up.ok) return r.rollback(up.error)
        const del = await r.delete(
          change(HkCounter, up.value).prepareChanges(async (cs, inner) => {
            seen.push(inner.currentTransaction() === outer)
            await inner.insert(change(HkCounter, null, { name: 'tombstone' }))
            return cs
          }),
        )
        // The caller decides: its rollback undoes both writes and what the functions wrote.
        return r.rollback(del.ok ? 'undo' : del.error)
      })
      expect(res).toEqual({ ok: false, error: 'undo' })
      expect(seen).toEqual([true, true])
      expect(await names(t)).toEqual(['one'])
    })

    it('a write without one opens no transaction', async () => {
      const { repo, opened } = countingRepo(t)
      const made = await repo.insert(counter('plain'))
      if (!made.ok) throw new Error('insert failed')
      await repo.update(change(HkCounter, made.value, { name: 'plainer' }))
      await repo.delete(HkCounter, made.value)
      expect(opened()).toBe(0)
    })

    it('refuses something that is not a function', () => {
      expect(() => counter('x').prepareChanges('nope' as never)).toThrow(/prepareChanges: give a function/)
    })
  })
}
