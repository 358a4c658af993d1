/**
 * Composite primary keys: order lines keyed by (order_id, line_no) and notes pointing at a line
 * through a two-column foreign key (schemas-composite.ts). The constraints the generator wrote,
 * `get` by a key object (and its errors), writes touching exactly one row, optimistic locking,
 * audit rows, scopes, preloads and joins across the composite key. Rows read straight through the adapter.
 */
import { describe, expect, expectTypeOf, it } from 'vitest'
import { historyOf } from '../../audit/entry.ts'
import { putAssoc } from '../../assoc.ts'
import { cast, change, errorsToJson, type Changeset } from '../../changeset.ts'
import { optimisticLock } from '../../optimistic-lock.ts'
import { from } from '../../query/builder.ts'
import type { RecordOf } from '../../schema.ts'
import { CkLine, CkLineNote, CkLineSoft, CkOrder } from '../schemas-composite.ts'
import type { SuiteContext } from '../suite-context.ts'

const lineRows = async (t: SuiteContext) =>
  (
    await t.adapter.query<{ order_id: number; line_no: number; product: string; quantity: number }>(
      'select order_id, line_no, product, quantity from ck_order_lines order by order_id, line_no',
    )
  ).rows

/** Orders 1 and 2; lines (1,1) bolt, (1,2) nut, (2,1) washer; notes on (1,2) and (2,1) only. */
async function seed(t: SuiteContext): Promise<void> {
  const ok = (r: { ok: boolean }) => expect(r.ok).toBe(true)
  ok(await t.repo.insertAll(CkOrder, [{ title: 'first' }, { title: 'second' }]))
  ok(
    await t.repo.insertAll(CkLine, [
      { order_id: 1, line_no: 1, product: 'bolt' },
      { order_id: 1, line_no: 2, product: 'nut' },
      { order_id: 2, line_no: 1, product: 'washer' },
    ]),
  )
  ok(
    await t.repo.insertAll(CkLineNote, [
      { order_id: 1, line_no: 2, body: 'fragile' },
      { order_id: 2, line_no: 1, body: 'steel' },
      { order_id: 2, line_no: 1, body: 'm8' },
    ]),
  )
}

export function compositeKeyCases(t: SuiteContext): void {
  describe('composite primary keys', () => {
    it('the generated tables carry PRIMARY KEY (order_id, line_no) and a two-column foreign key', async () => {
      const { rows } = await t.adapter.query<{ table: string; def: string }>(
        `select conrelid::regclass::text as table, pg_get_constraintdef(oid) as def from pg_constraint
         where conrelid in ('ck_order_lines'::regclass, 'ck_line_notes'::regclass) and contype in ('p', 'f')
         order by 1, 2`,
      )
      expect(rows).toEqual([
        {
          table: 'ck_line_notes',
          def: 'FOREIGN KEY (order_id, line_no) REFERENCES ck_order_lines(order_id, line_no) ON DELETE CASCADE',
        },
        { table: 'ck_line_notes', def: 'PRIMARY KEY (id)' },
        { table: 'ck_order_lines', def: 'FOREIGN KEY (order_id) REFERENCES ck_orders(id) ON DELETE CASCADE' },
        { table: 'ck_order_lines', def: 'PRIMARY KEY (order_id, line_no)' },
      ])
    })

    it('insert returns the key; a second row with the same key is refused by the primary key', async () => {
      await seed(t)
      const made = await t.repo.insert(
        cast(CkLine, null, { order_id: '2', line_no: '2', product: 'nut' }, ['order_id', 'line_no', 'product']),
      )
      expect(made.ok && made.value).toMatchObject({ order_id: 2, line_no: 2, product: 'nut', quantity: 1 })
      await expect(t.repo.insert(change(CkLine, null, { order_id: 2, line_no: 2, product: 'other' }))).rejects.toThrow(
        'duplicate key value violates unique constraint "ck_order_lines_pkey"',
      )
      expect(await t.count('ck_order_lines')).toBe(4)
    })

    it('get takes an object naming every key field, cast like any key', async () => {
      await seed(t)
      const line = await t.repo.get(CkLine, { order_id: 1, line_no: 2 })
      expect(line).toMatchObject({ order_id: 1, line_no: 2, product: 'nut' })
      expectTypeOf(line).toEqualTypeOf<RecordOf<typeof CkLine> | undefined>()
      // Key fields are NOT NULL in the record type, whatever their spec says.
      expectTypeOf<RecordOf<typeof CkLine>['line_no']>().toEqualTypeOf<number>()
      expect(await t.repo.get(CkLine, { order_id: '2', line_no: '1' })).toMatchObject({ product: 'washer' })
      expect(await t.repo.get(CkLine, { order_id: 2, line_no: 2 })).toBe(undefined)
      expect(await t.repo.get(CkLine, { order_id: 'x', line_no: 1 })).toBe(undefined)
    })

    it('get with a scalar, a partial key or a field outside the key throws, naming the key', async () => {
      await seed(t)
      await expect(t.repo.get(CkLine, 1)).rejects.toThrow(
        'get ck_order_lines: its primary key is (order_id, line_no); give an object { order_id, line_no }, not 1',
      )
      await expect(t.repo.get(CkLine, { order_id: 1 })).rejects.toThrow(
        'get ck_order_lines: the key lacks line_no; give every key field { order_id, line_no }',
      )
      await expect(t.repo.get(CkLine, { order_id: 1, line_no: 2, product: 'nut' })).rejects.toThrow(
        'get ck_order_lines: product is not part of the primary key { order_id, line_no } (use getBy to match other fields)',
      )
    })

    it('getBy and reload work by the whole key', async () => {
      await seed(t)
      expect(await t.repo.getBy(CkLine, { order_id: 1, product: 'bolt' })).toMatchObject({ line_no: 1 })
      const line = (await t.repo.get(CkLine, { order_id: 1, line_no: 2 }))!
      await t.adapter.query(`update ck_order_lines set product = 'hex nut' where order_id = 1 and line_no = 2`)
      expect(await t.repo.reload(CkLine, line)).toMatchObject({ order_id: 1, line_no: 2, product: 'hex nut' })
      await expect(t.repo.reload(CkLine, { order_id: 1 })).rejects.toThrow('reload: the record has no line_no')
    })

    it('update and delete touch exactly the one row whose every key field matches', async () => {
      await seed(t)
      const line = (await t.repo.get(CkLine, { order_id: 1, line_no: 2 }))!
      const up = await t.repo.update(change(CkLine, line, { quantity: 5 }))
      expect(up.ok && up.value).toMatchObject({ order_id: 1, line_no: 2, quantity: 5 })
      expect((await lineRows(t)).map((r) => [r.order_id, r.line_no, r.quantity])).toEqual([
        [1, 1, 1],
        [1, 2, 5],
        [2, 1, 1],
      ])
      const del = await t.repo.delete(CkLine, (await t.repo.get(CkLine, { order_id: 2, line_no: 1 }))!)
      expect(del.ok && del.value).toMatchObject({ order_id: 2, line_no: 1 })
      expect((await lineRows(t)).map((r) => [r.order_id, r.line_no])).toEqual([
        [1, 1],
        [1, 2],
      ])
      // Deleting the line cascaded to its notes through the two-column foreign key.
      expect(await t.count('ck_line_notes')).toBe(1)
      await expect(t.repo.update(change(CkLine, { order_id: 1 } as never, { quantity: 2 }))).rejects.toThrow(
        "update: the changeset's data has no line_no; insert it instead",
      )
    })

    it('optimistic locking: a stale version is refused, on the first key field when no filter names one', async () => {
      await seed(t)
      const line = (await t.repo.get(CkLine, { order_id: 1, line_no: 1 }))!
      const first = await t.repo.update(optimisticLock(change(CkLine, line, { quantity: 3 }), 'lock_version'))
      expect(first.ok && first.value).toMatchObject({ quantity: 3, lock_version: 2 })
      const second = await t.repo.update(optimisticLock(change(CkLine, line, { quantity: 4 }), 'lock_version'))
      expect(!second.ok && errorsToJson(second.error as Changeset)).toEqual({ lock_version: ['is stale'] })
      const gone = await t.repo.update(change(CkLine, { ...line, line_no: 9 }, { quantity: 4 }))
      expect(!gone.ok && errorsToJson(gone.error as Changeset)).toEqual({ order_id: ['is stale'] })
      expect((await lineRows(t)).map((r) => r.quantity)).toEqual([3, 1, 1])
    })

    it('audit rows record the key as JSON, and historyOf finds them by the key object', async () => {
      await seed(t)
      const made = await t.repo.insert(change(CkLine, null, { order_id: 2, line_no: 7, product: 'pin' }))
      if (!made.ok) throw new Error('insert failed')
      await t.repo.update(change(CkLine, made.value, { quantity: 2 }))
      const { rows } = await t.adapter.query<{ record_id: string; action: string }>(
        `select record_id, action from vela_audit where table_name = 'ck_order_lines' order by id`,
      )
      expect(rows).toEqual([
        { record_id: '{"order_id":2,"line_no":7}', action: 'insert' },
        { record_id: '{"order_id":2,"line_no":7}', action: 'update' },
      ])
      const history = await t.repo.all(historyOf(CkLine, { order_id: '2', line_no: 7 }))
      expect(history.map((h) => h.action)).toEqual(['insert', 'update'])
    })

    it('scopes keep working: a soft-deleted line is out of get, update and a second delete', async () => {
      await seed(t)
      const line = (await t.repo.get(CkLineSoft, { order_id: 1, line_no: 1 }))!
      const del = await t.repo.delete(CkLineSoft, line)
      expect(del.ok).toBe(true)
      expect(await t.repo.get(CkLineSoft, { order_id: 1, line_no: 1 })).toBe(undefined)
      expect(await t.repo.get(CkLineSoft, { order_id: 1, line_no: 2 })).toMatchObject({ product: 'nut' })
      expect((await t.repo.delete(CkLineSoft, line)).ok).toBe(false)
      // The row is still there, with only its deleted_at set.
      const { rows } = await t.adapter.query<{ n: number }>(
        'select count(*)::int as n from ck_order_lines where deleted_at is not null',
      )
      expect(rows[0]!.n).toBe(1)
      expect(await t.count('ck_order_lines')).toBe(3)
    })

    it('preload across the composite foreign key, both ways, never matching mixed pairs', async () => {
      await seed(t)
      // (1,1) and (2,2) have no notes, though order 1 and line 1 each have notes elsewhere.
      await t.repo.insertAll(CkLine, [{ order_id: 2, line_no: 2, product: 'spacer' }])
      const lines = await t.repo.all(from(CkLine).orderBy('order_id', 'line_no'))
      const withNotes = await t.repo.preload(CkLine, lines, 'notes')
      expect(withNotes.map((l) => [l.order_id, l.line_no, l.notes.map((n) => n.body)])).toEqual([
        [1, 1, []],
        [1, 2, ['fragile']],
        [2, 1, ['steel', 'm8']],
        [2, 2, []],
      ])
      const notes = await t.repo.preload(CkLineNote, await t.repo.all(from(CkLineNote).orderBy('id')), 'line')
      expect(notes.map((n) => [n.body, n.line?.product])).toEqual([
        ['fragile', 'nut'],
        ['steel', 'washer'],
        ['m8', 'washer'],
      ])
      const orders = await t.repo.preload(CkOrder, await t.repo.all(from(CkOrder).orderBy('id')), { lines: 'notes' })
      expect(orders.map((o) => o.lines.map((l) => `${l.product}:${(l.notes as unknown[]).length}`))).toEqual([
        ['bolt:0', 'nut:1'],
        ['washer:2', 'spacer:0'],
      ])
    })

    it('joins across the composite foreign key match on every key column', async () => {
      await seed(t)
      const rows = await t.repo.all(from(CkLineNote).join('line').where({ 'line.product': 'washer' }).orderBy('id'))
      expect(rows.map((n) => n.body)).toEqual(['steel', 'm8'])
      // Line (1, 1) has no note, though order 1 does: a join on order_id alone would find 'fragile'.
      expect(await t.repo.all(from(CkLineNote).join('line').where({ 'line.product': 'bolt' }))).toEqual([])
      const counted = await t.repo.all(
        from(CkLine).leftJoin('notes').where({ 'notes.body': 'fragile' }).select(['order_id', 'line_no']),
      )
      expect(counted).toEqual([{ order_id: 1, line_no: 2 }])
    })

    it('pages by cursor over every key field; an ordering missing one is refused, naming it', async () => {
      await seed(t)
      const q = from(CkLine).orderBy('order_id', 'line_no')
      const first = await t.repo.paginate(q, { limit: 2 })
      expect(first.entries.map((l) => [l.order_id, l.line_no])).toEqual([
        [1, 1],
        [1, 2],
      ])
      const next = await t.repo.paginate(q, { after: first.after, limit: 2 })
      expect(next.entries.map((l) => [l.order_id, l.line_no])).toEqual([[2, 1]])
      await expect(t.repo.paginate(from(CkLine).orderBy('order_id'), { limit: 2 })).rejects.toThrow(
        "the query must be ordered by every field of the primary key (order_id, line_no), so each row has one place (add .orderBy('line_no'))",
      )
      // Pages by number with no ordering of their own are ordered by the whole key.
      const page = await t.repo.paginate(from(CkLine), { page: 1, pageSize: 2 })
      expect(page.entries.map((l) => [l.order_id, l.line_no])).toEqual([
        [1, 1],
        [1, 2],
      ])
    })

    it('a nested insert gives each child every column of the parent key', async () => {
      await seed(t)
      const cs = putAssoc(change(CkLine, null, { order_id: 2, line_no: 3, product: 'rivet' }), 'notes', [
        { body: 'a' },
        { body: 'b' },
      ])
      const made = await t.repo.insert(cs)
      expect(made.ok).toBe(true)
      const { rows } = await t.adapter.query<{ order_id: number; line_no: number; body: string }>(
        `select order_id, line_no, body from ck_line_notes where body in ('a', 'b') order by body`,
      )
      expect(rows).toEqual([
        { order_id: 2, line_no: 3, body: 'a' },
        { order_id: 2, line_no: 3, body: 'b' },
      ])
    })
  })
}
