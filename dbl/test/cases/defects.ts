/**
 * Defects the peers' own suites found, each pinned by a case: getBy with several matches, the
 * exclusion constraint's default name, unique indexes known to changesets without a declaration,
 * field defaults in casts of new records, generated and normalised uuid keys, jsonb values JSON
 * cannot carry, and `DbError` as an `Error`.
 */
import { describe, expect, it } from 'vitest'
import { cast, change, errorsToJson, putChange, type Changeset } from '../../changeset.ts'
import { exclusionConstraint, uniqueConstraint } from '../../constraints.ts'
import { DbError, isDbError } from '../../db-error.ts'
import { from } from '../../query/builder.ts'
import { where } from '../../query/operators.ts'
import { defineRepo } from '../../repo.ts'
import type { QueryEvent } from '../../repo/telemetry.ts'
import { validateRequired } from '../../validations.ts'
import { Post, Product, Thing } from '../schemas.ts'
import { defectDdl, Gadget, Slot, Token } from '../schemas-defects.ts'
import { MultipleResultsError } from '../../multiple-results-error.ts'
import type { SuiteContext } from '../suite-context.ts'

const json = (e: unknown) => errorsToJson(e as Changeset)
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/
const gadget = (params: Record<string, unknown>) =>
  cast(Gadget, null, params, ['code', 'color', 'maker', 'serial', 'status', 'stock', 'labels'])

export function defectCases(t: SuiteContext): void {
  describe('defects found by the peers', () => {
    it('getBy: several matching rows throw a MultipleResultsError, read with LIMIT 2', async () => {
      const events: QueryEvent[] = []
      const repo = defineRepo({ adapter: t.adapter, log: (e) => events.push(e) })
      for (const [code, color] of [
        ['a', 'red'],
        ['b', 'red'],
        ['c', 'blue'],
      ])
        expect((await repo.insert(gadget({ code, color }))).ok).toBe(true)
      events.length = 0
      await expect(repo.getBy(Gadget, { color: 'red' })).rejects.toBeInstanceOf(MultipleResultsError)
      expect(events.map((e) => [e.query, e.params])).toEqual([
        [
          'select "id", "code", "color", "maker", "serial", "status", "stock", "labels" from "defect_gadgets" where ("color" = $1) limit $2',
          ['red', 2],
        ],
      ])
      expect(await repo.getBy(Gadget, { color: 'blue' })).toMatchObject({ code: 'c' })
      expect(await repo.getBy(Gadget, { color: 'red', code: 'b' })).toMatchObject({ code: 'b' })
      expect(await repo.getBy(Gadget, { color: 'green' })).toBeUndefined()
    })

    it('exclusionConstraint without options is named <table>_<field>_excl, as PostgreSQL names it', async () => {
      const slot = (during: string) => exclusionConstraint(cast(Slot, null, { during }, ['during']), 'during')
      expect(slot('[2024-01-01 10:00, 2024-01-01 11:00)').constraints).toEqual([
        {
          type: 'exclusion',
          constraint: 'defect_slots_during_excl',
          aliases: [],
          field: 'during',
          message: 'violates an exclusion constraint',
        },
      ])
      expect((await t.repo.insert(slot('[2024-01-01 10:00, 2024-01-01 11:00)'))).ok).toBe(true)
      const clash = await t.repo.insert(slot('[2024-01-01 10:30, 2024-01-01 12:00)'))
      expect(!clash.ok && json(clash.error)).toEqual({ during: ['violates an exclusion constraint'] })
      const named = await t.repo.insert(
        exclusionConstraint(
          cast(Slot, null, { during: '[2024-01-01 10:15, 2024-01-01 10:20)' }, ['during']),
          'during',
          { message: 'is booked' },
        ),
      )
      expect(!named.ok && json(named.error)).toEqual({ during: ['is booked'] })
      expect(await t.count('defect_slots')).toBe(1)
    })

    it("a schema's unique indexes are unique constraints of every changeset: no declaration needed", async () => {
      expect((await t.repo.insert(gadget({ code: 'a', maker: 'acme', serial: 1 }))).ok).toBe(true)
      const dup = await t.repo.insert(gadget({ code: 'a' }))
      expect(!dup.ok && json(dup.error)).toEqual({ code: ['has already been taken'] })
      expect(!dup.ok && (dup.error as Changeset).errors[0]!.meta).toEqual({
        constraint: 'unique',
        constraint_name: 'defect_gadgets_code_index',
      })
      // Two columns: the error is on the first, as uniqueConstraint(cs, ['maker', 'serial']) puts it.
      const pair = await t.repo.insert(gadget({ code: 'b', maker: 'acme', serial: 1 }))
      expect(!pair.ok && json(pair.error)).toEqual({ maker: ['has already been taken'] })
      // An explicit declaration still wins: its message.
      const custom = await t.repo.insert(uniqueConstraint(gadget({ code: 'a' }), 'code', { message: 'is in use' }))
      expect(!custom.ok && json(custom.error)).toEqual({ code: ['is in use'] })
      // Updates too.
      const b = await t.repo.insert(gadget({ code: 'b' }))
      if (!b.ok) throw new Error('insert failed')
      const renamed = await t.repo.update(cast(Gadget, b.value, { code: 'a' }, ['code']))
      expect(!renamed.ok && json(renamed.error)).toEqual({ code: ['has already been taken'] })
      // The shared Product schema declares its name index too.
      expect((await t.repo.insert(cast(Product, null, { name: 'Tea', price: 1 }, ['name', 'price']))).ok).toBe(true)
      const tea = await t.repo.insert(cast(Product, null, { name: 'Tea', price: 2 }, ['name', 'price']))
      expect(!tea.ok && json(tea.error)).toEqual({ name: ['has already been taken'] })
      expect(await t.count('defect_gadgets')).toBe(2)
    })

    it("cast of a new record starts from the fields' defaults; params, and existing records, win", async () => {
      const cs = validateRequired(cast(Gadget, null, { code: 'a' }, ['code', 'status', 'stock']), [
        'code',
        'status',
        'stock',
      ])
      expect(cs.valid).toBe(true)
      expect(cs.data).toEqual({ status: 'draft', stock: 0, labels: ['new'] })
      const saved = await t.repo.insert(cs)
      expect(saved).toMatchObject({ ok: true, value: { code: 'a', status: 'draft', stock: 0, labels: ['new'] } })
      // A given param wins over the default; a blank one is null, so required fields say so.
      expect(await t.repo.insert(gadget({ code: 'b', status: 'live', stock: '3', labels: [] }))).toMatchObject({
        ok: true,
        value: { status: 'live', stock: 3, labels: [] },
      })
      expect(json(validateRequired(gadget({ code: 'c', status: ' ' }), ['status']))).toEqual({
        status: ["can't be blank"],
      })
      // An existing record keeps what it has: defaults are for new records only.
      if (!saved.ok) throw new Error('insert failed')
      const existing = cast(Gadget, { ...saved.value, status: 'sold', labels: null }, {}, ['status'])
      expect([existing.data.status, existing.data.labels, existing.changes]).toEqual(['sold', null, {}])
      // Each changeset has its own copy of a list default.
      const one = cast(Gadget, null, {}, [])
      ;(one.data.labels as string[]).push('mutated')
      expect(cast(Gadget, null, {}, []).data.labels).toEqual(['new'])
    })

    it('uuid keys: generated by the column default, read by dashed or plain hex ids, malformed ones never a server error', async () => {
      expect(defectDdl).toContain(
        'CREATE TABLE "defect_tokens" ("id" uuid PRIMARY KEY DEFAULT gen_random_uuid(), "label" varchar(255))',
      )
      const a = await t.repo.insert(cast(Token, null, { label: 'a' }, ['label']))
      const b = await t.repo.insert(cast(Token, null, { label: 'b' }, ['label']))
      if (!a.ok || !b.ok) throw new Error('insert failed')
      expect(a.value.id).toMatch(UUID)
      expect(a.value.id).not.toBe(b.value.id)
      const plain = a.value.id.replaceAll('-', '').toUpperCase()
      expect(cast(Token, null, { id: plain }, ['id']).changes).toEqual({ id: a.value.id })
      expect(await t.repo.get(Token, plain)).toEqual({ id: a.value.id, label: 'a' })
      expect(await t.repo.getBy(Token, { id: plain })).toEqual({ id: a.value.id, label: 'a' })
      expect(await t.repo.get(Token, 'nope')).toBeUndefined()
      expect(await t.repo.get(Token, a.value.id.slice(0, 35))).toBeUndefined()
      // In a where: an error result a handler can throw, which answers 400 (status, expose).
      const bad = t.repo.all(where(from(Token), { id: 'nope' }))
      await expect(bad).rejects.toMatchObject({ kind: 'db_error', code: '22P02', status: 400, expose: true })
      await expect(bad).rejects.toBeInstanceOf(DbError)
      expect(await t.repo.all(where(from(Token), { id: plain }))).toEqual([{ id: a.value.id, label: 'a' }])
      // A key given is used as given.
      const given = await t.repo.insert(
        putChange(cast(Token, null, { label: 'c' }, ['label']), 'id', '00000000-0000-4000-8000-000000000001'),
      )
      expect(given).toEqual({ ok: true, value: { id: '00000000-0000-4000-8000-000000000001', label: 'c' } })
      expect(await t.count('defect_tokens')).toBe(3)
    })

    it('jsonb: what JSON cannot carry is "is invalid" when cast and when written without a cast', async () => {
      const cycle: Record<string, unknown> = {}
      cycle.self = cycle
      for (const meta of [
        { f: () => 1 },
        { n: 1n },
        cycle,
        [1, undefined],
        { x: NaN },
        { m: new Map([[1, 2]]) },
        { s: Symbol('s') },
      ]) {
        expect(json(cast(Thing, {}, { meta }, ['meta'])), String(Object.keys(meta))).toEqual({ meta: ['is invalid'] })
        const direct = await t.repo.insert(change(Thing, {}, { meta, label: 'x' }))
        expect(!direct.ok && json(direct.error)).toEqual({ meta: ['is invalid'] })
      }
      const ok = await t.repo.insert(
        cast(Thing, {}, { meta: { a: [1, { b: null }], at: new Date(0), gone: undefined } }, ['meta']),
      )
      expect(ok).toMatchObject({ ok: true, value: { meta: { a: [1, { b: null }], at: '1970-01-01T00:00:00.000Z' } } })
      if (!ok.ok) throw new Error('insert failed')
      // An update of a change put in directly, undefined at the top included: not written as NULL.
      for (const meta of [{ f: () => 1 }, undefined]) {
        const upd = await t.repo.update(putChange(change(Thing, ok.value), 'meta', meta))
        expect(!upd.ok && json(upd.error)).toEqual({ meta: ['is invalid'] })
      }
      expect((await t.repo.get(Thing, ok.value.id))?.meta).toEqual({
        a: [1, { b: null }],
        at: '1970-01-01T00:00:00.000Z',
      })
      // Bulk writes take no changeset: the program's value is refused, not written as something else.
      await expect(t.repo.insertAll(Thing, [{ meta: { f: () => 1 } }])).rejects.toThrow(
        'meta: a jsonb value JSON cannot carry',
      )
      await expect(t.repo.updateAll(from(Thing), { meta: [1n] })).rejects.toThrow(
        'meta: a jsonb value JSON cannot carry',
      )
      expect(await t.count('things')).toBe(1)
    })

    it('DbError is an Error, thrown by a write too: a stack through the call, its fields kept, the same JSON', async () => {
      const e = await t.repo
        .insert(cast(Post, {}, { title: 'Hello', user_id: 999 }, ['title', 'user_id']))
        .catch((e) => e)
      if (!isDbError(e)) throw new Error('expected a DbError')
      expect(e).toBeInstanceOf(Error)
      expect(e).toMatchObject({
        name: 'DbError',
        kind: 'db_error',
        code: '23503',
        constraintKind: 'foreign_key',
        constraint: 'posts_user_id_fkey',
        table: 'posts',
        status: 500,
        expose: false,
      })
      expect(e.message).toMatch(/posts_user_id_fkey/)
      // The stack runs through the line that awaited the repository.
      expect(e.stack).toMatch(/^DbError: .*posts_user_id_fkey/)
      expect(e.stack).toContain('cases/defects.ts')
      // JSON shows the fields, as the plain object did.
      expect(JSON.parse(JSON.stringify({ ok: false, error: e }))).toEqual({
        ok: false,
        error: {
          kind: 'db_error',
          code: '23503',
          message: e.message,
          constraintKind: 'foreign_key',
          constraint: 'posts_user_id_fkey',
          table: 'posts',
          detail: e.detail,
        },
      })
      const reads = await t.repo.all(where(from(Thing), 'count', '=', 'many' as never)).catch((e: Error) => e)
      expect((reads as Error).stack).toContain('cases/defects.ts')
    })
  })
}
