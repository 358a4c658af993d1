/**
 * Default scopes: soft delete (`repo.delete` sets the column; reads, preloads, joins, updates and
 * deletes leave deleted rows out unless told otherwise) and a tenant filter read from a request
 * value (every statement applies it; an insert takes it; no value set fails closed).
 */
import { describe, expect, it } from 'vitest'
import { change } from '../../changeset.ts'
import { from } from '../../query/builder.ts'
import { cond } from '../../query/conditions.ts'
import { unscoped, withDeleted } from '../../query/scoped.ts'
import { defineSchema } from '../../schema.ts'
import { withoutScopes } from '../../scopes.ts'
import type { SuiteContext } from '../suite-context.ts'
import { Author, Item, Note, Shelf, Tag, tenant } from '../schemas-scopes.ts'

async function raw(t: SuiteContext, sql: string): Promise<Record<string, unknown>[]> {
  return (await t.adapter.query(sql)).rows
}

/** Ann (notes a, b, c; tags x, y) and Bob (note d). */
async function seedNotes(t: SuiteContext) {
  const authors = await t.repo.insertAll(Author, [{ name: 'Ann' }, { name: 'Bob' }])
  if (!authors.ok) throw authors.error
  const [ann, bob] = authors.value.rows
  const notes = await t.repo.insertAll(Note, [
    { title: 'a', author_id: ann!.id },
    { title: 'b', author_id: ann!.id },
    { title: 'c', author_id: ann!.id },
    { title: 'd', author_id: bob!.id },
  ])
  if (!notes.ok) throw notes.error
  const tags = await t.repo.insertAll(Tag, [{ name: 'x' }, { name: 'y' }])
  if (!tags.ok) throw tags.error
  await t.adapter.query('insert into sd_author_tags (author_id, tag_id) values ($1, $2), ($1, $3)', [
    ann!.id,
    tags.value.rows[0]!.id,
    tags.value.rows[1]!.id,
  ])
  return { ann: ann!, bob: bob!, notes: notes.value.rows, tags: tags.value.rows }
}

const titles = (rows: readonly { title: string }[]) => rows.map((r) => r.title)

export function scopeCases(t: SuiteContext): void {
  describe('soft delete', () => {
    it('repo.delete sets the column and keeps the row; reads leave it out, withDeleted keeps it', async () => {
      const { notes } = await seedNotes(t)
      const b = notes[1]!
      const res = await t.repo.delete(Note, b)
      expect(res.ok && res.value.removed_at).toBeInstanceOf(Date)
      expect(await raw(t, `select title, removed_at is not null as gone from sd_notes order by id`)).toEqual([
        { title: 'a', gone: false },
        { title: 'b', gone: true },
        { title: 'c', gone: false },
        { title: 'd', gone: false },
      ])
      expect(titles(await t.repo.all(from(Note).orderBy('id')))).toEqual(['a', 'c', 'd'])
      expect(titles(await t.repo.all(from(Note).withDeleted().orderBy('id')))).toEqual(['a', 'b', 'c', 'd'])
      expect(titles(await t.repo.all(withDeleted(from(Note)).orderBy('id')))).toEqual(['a', 'b', 'c', 'd'])
      expect(await t.repo.get(Note, b.id)).toBeUndefined()
      expect(await t.repo.getBy(Note, { title: 'b' })).toBeUndefined()
      expect(await t.repo.count(from(Note))).toBe(3)
      expect(await t.repo.exists(from(Note).where({ title: 'b' }))).toBe(false)
      expect(await t.repo.exists(from(Note).withDeleted().where({ title: 'b' }))).toBe(true)
      const page = await t.repo.paginate(from(Note).orderBy('id'), { page: 1, pageSize: 10 })
      expect([page.total, titles(page.entries)]).toEqual([3, ['a', 'c', 'd']])
      const streamed: string[] = []
      for await (const n of t.repo.stream(from(Note).orderBy('id'), { batchSize: 2 })) streamed.push(n.title)
      expect(streamed).toEqual(['a', 'c', 'd'])
      // A subquery over a scoped schema is scoped too.
      const withNotes = from(Author).where('id', 'in', from(Note).where({ title: 'b' }).select(['author_id']))
      expect(await t.repo.all(withNotes)).toEqual([])
    })

    it('a deleted row cannot be updated or deleted again (stale); a hard delete removes it', async () => {
      const { notes } = await seedNotes(t)
      const a = notes[0]!
      expect((await t.repo.delete(Note, a)).ok).toBe(true)
      const upd = await t.repo.update(change(Note, a, { title: 'a2' }))
      expect(!upd.ok && upd.error.errors).toEqual([expect.objectContaining({ field: 'id', message: 'is stale' })])
      const again = await t.repo.delete(Note, a)
      expect(!again.ok && again.error.errors.map((e) => e.message)).toEqual(['is stale'])
      expect((await t.repo.delete(Note, a, { hard: true })).ok).toBe(true)
      expect(await raw(t, `select title from sd_notes order by id`)).toEqual([
        { title: 'b' },
        { title: 'c' },
        { title: 'd' },
      ])
      // Inside withoutScopes, a deleted row can be updated (restored).
      const deleted = await t.repo.delete(Note, notes[1]!)
      if (!deleted.ok) throw new Error('not deleted')
      const restore = change(Note, deleted.value, { removed_at: null })
      const restored = await withoutScopes(() => t.repo.update(restore), ['softDelete'])
      expect(restored.ok && restored.value.removed_at).toBeNull()
      expect(titles(await t.repo.all(from(Note).orderBy('id')))).toEqual(['b', 'c', 'd'])
    })

    it('deleteAll and updateAll leave deleted rows alone; deleteAll hard removes them', async () => {
      const { ann } = await seedNotes(t)
      expect((await t.repo.delete(Note, (await t.repo.getBy(Note, { title: 'c' }))!)).ok).toBe(true)
      const soft = await t.repo.deleteAll(from(Note).where({ author_id: ann.id }))
      expect(soft.ok && soft.value.count).toBe(2)
      expect(await t.count('sd_notes')).toBe(4)
      expect(titles(await t.repo.all(from(Note)))).toEqual(['d'])
      const renamed = await t.repo.updateAll(from(Note), { title: 'z' })
      expect(renamed.ok && renamed.value.count).toBe(1)
      expect(await raw(t, `select title from sd_notes order by id`)).toEqual([
        { title: 'a' },
        { title: 'b' },
        { title: 'c' },
        { title: 'z' },
      ])
      const hard = await t.repo.deleteAll(from(Note).withDeleted().where({ author_id: ann.id }), { hard: true })
      expect(hard.ok && hard.value.count).toBe(3)
      expect(await t.count('sd_notes')).toBe(1)
    })

    it('preloads (hasMany, belongsTo, manyToMany) and inner joins leave deleted rows out', async () => {
      const { ann, bob, notes, tags } = await seedNotes(t)
      expect((await t.repo.delete(Note, notes[0]!)).ok).toBe(true)
      expect((await t.repo.delete(Tag, tags[1]!)).ok).toBe(true)
      expect((await t.repo.delete(Author, bob)).ok).toBe(true)
      const [loaded] = await t.repo.preload(Author, [ann], ['notes', 'tags'])
      expect(titles(loaded!.notes as { title: string }[])).toEqual(['b', 'c'])
      expect((loaded!.tags as { name: string }[]).map((x) => x.name)).toEqual(['x'])
      const d = (await t.repo.getBy(Note, { title: 'd' }))!
      const withAuthor = await t.repo.preload(Note, d, ['author'])
      expect(withAuthor.author).toBeNull()
      // Bob is deleted: his note is left out of an inner join, kept by a left join.
      expect(titles(await t.repo.all(from(Note).join('author').orderBy('id')))).toEqual(['b', 'c'])
      expect(titles(await t.repo.all(from(Note).leftJoin('author').orderBy('id')))).toEqual(['b', 'c', 'd'])
      expect(titles(await t.repo.all(from(Note).join('author').unscoped().orderBy('id')))).toEqual(['a', 'b', 'c', 'd'])
      const all = await withoutScopes(() => t.repo.preload(Author, ann, ['notes']))
      expect(titles(all.notes as { title: string }[])).toEqual(['a', 'b', 'c'])
    })
  })

  describe('a tenant scope from a request value', () => {
    const seed = async () => {
      await withoutScopes(async () => {
        const shelf = await t.repo.insertAll(Shelf, [{ name: 'S' }])
        const shelfId = shelf.ok ? shelf.value.rows[0]!.id : 0
        const items = await t.repo.insertAll(Item, [
          { name: 'one-a', tenant_id: 1, shelf_id: shelfId },
          { name: 'one-b', tenant_id: 1, shelf_id: shelfId },
          { name: 'two-a', tenant_id: 2, shelf_id: shelfId },
        ])
        expect(items.ok).toBe(true)
      })
    }
    const names = (rows: readonly { name: string }[]) => rows.map((r) => r.name)

    it('every read sees the current tenant rows only; an insert takes the tenant', async () => {
      await seed()
      await tenant.run(1, async () => {
        expect(names(await t.repo.all(from(Item).orderBy('id')))).toEqual(['one-a', 'one-b'])
        expect(await t.repo.count(from(Item))).toBe(2)
        expect(await t.repo.getBy(Item, { name: 'two-a' })).toBeUndefined()
        const added = await t.repo.insert(change(Item, {}, { name: 'one-c' } as never))
        expect(added.ok && added.value.tenant_id).toBe(1)
        expect(names(await t.repo.all(from(Item).unscoped('tenant').orderBy('id')))).toEqual([
          'one-a',
          'one-b',
          'two-a',
          'one-c',
        ])
      })
      await tenant.run(2, async () => {
        expect(names(await t.repo.all(from(Item)))).toEqual(['two-a'])
        const bulk = await t.repo.insertAll(Item, [{ name: 'two-b' }])
        expect(bulk.ok && bulk.value.rows.map((r) => r.tenant_id)).toEqual([2])
        const shelf = (await t.repo.all(from(Shelf)))[0]!
        const loaded = await t.repo.preload(Shelf, shelf, ['items'])
        expect(names(loaded.items as { name: string }[])).toEqual(['two-a'])
      })
      expect(await raw(t, 'select name, tenant_id from tenant_items order by id')).toEqual([
        { name: 'one-a', tenant_id: 1 },
        { name: 'one-b', tenant_id: 1 },
        { name: 'two-a', tenant_id: 2 },
        { name: 'one-c', tenant_id: 1 },
        { name: 'two-b', tenant_id: 2 },
      ])
    })

    it("another tenant's row cannot be updated or deleted; bulk writes stay in the tenant", async () => {
      await seed()
      const twoA = (await withoutScopes(() => t.repo.getBy(Item, { name: 'two-a' })))!
      await tenant.run(1, async () => {
        const upd = await t.repo.update(change(Item, twoA, { name: 'stolen' }))
        expect(!upd.ok && upd.error.errors.map((e) => e.message)).toEqual(['is stale'])
        const del = await t.repo.delete(Item, twoA)
        expect(del.ok).toBe(false)
        const all = await t.repo.updateAll(from(Item), { name: 'renamed' })
        expect(all.ok && all.value.count).toBe(2)
        const gone = await t.repo.deleteAll(from(Item).where(cond('name', '=', 'renamed')))
        expect(gone.ok && gone.value.count).toBe(2)
      })
      expect(await raw(t, 'select name, tenant_id from tenant_items order by id')).toEqual([
        { name: 'two-a', tenant_id: 2 },
      ])
    })

    it('without a tenant set, a query fails closed naming the value; unscoped reads every tenant', async () => {
      await seed()
      await expect(t.repo.all(from(Item))).rejects.toThrow(
        'requestValue tenant: no value is set here; run the code inside tenant.run(value, fn)',
      )
      await expect(t.repo.delete(Item, { id: 1 })).rejects.toThrow('requestValue tenant: no value is set here')
      expect(await t.repo.count(unscoped(from(Item)))).toBe(3)
      expect(await withoutScopes(() => t.repo.count(from(Item)))).toBe(3)
      expect(await raw(t, 'select count(*)::int as n from tenant_items')).toEqual([{ n: 3 }])
    })
  })

  describe('scope misuse', () => {
    it('unknown scope names, withDeleted without softDelete and a missing column throw when built', async () => {
      expect(() => from(Note).unscoped('tenant')).toThrow(
        'unscoped("tenant"): schema sd_notes has no such scope (its scopes: softDelete)',
      )
      expect(() => from(Shelf).withDeleted()).toThrow('withDeleted: schema tenant_shelves has no softDelete')
      expect(() => defineSchema({ table: 'x', fields: { id: 'id' }, softDelete: true })).toThrow(
        `schema x: softDelete needs a nullable utc_datetime field "deleted_at" (add deleted_at: 'utc_datetime' to its fields)`,
      )
      const Bad = defineSchema({ table: 'y', fields: { id: 'id' }, scopes: { t: () => ({ nope: 1 }) as never } })
      expect(() => from(Bad).where({ id: 1 }).unscoped('t')).not.toThrow()
      await expect(t.repo.all(from(Bad))).rejects.toThrow('scope y.t: schema y has no field "nope"')
    })
  })
}
