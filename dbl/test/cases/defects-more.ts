/**
 * Defects of the data layer's third step, each pinned by a case: unique constraints PostgreSQL
 * named itself (`<table>_<columns>_key`, shortened to 63 bytes), `validateSubset` on a field that
 * is not a list, and stored values outside an enum field's values.
 */
import { describe, expect, it } from 'vitest'
import { cast, change, errorsToJson, type Changeset } from '../../changeset.ts'
import { uniqueConstraint } from '../../constraints.ts'
import { LoadError } from '../../load-error.ts'
import { from } from '../../query/builder.ts'
import type { AnySchema } from '../../schema.ts'
import { validateSubset } from '../../validations.ts'
import { Account } from '../schemas-changesets.ts'
import { Badge, Gadget, LongBadge, longConstraintName, Ticket } from '../schemas-defects.ts'
import type { SuiteContext } from '../suite-context.ts'

const json = (e: unknown) => errorsToJson(e as Changeset)
const badge = (params: Record<string, unknown>) =>
  cast(Badge, null, params, ['code', 'maker', 'serial', 'label', 'nick'])
const REG = 'registration_number_given_by_the_issuing_office'

export function defectMoreCases(t: SuiteContext): void {
  describe('defects of the third step', () => {
    it("a schema's unique index made as PostgreSQL's <table>_<columns>_key is a field error too", async () => {
      expect((await t.repo.insert(badge({ code: 'a', maker: 'acme', serial: 1, label: 'x', nick: 'n' }))).ok).toBe(true)
      const dup = await t.repo.insert(badge({ code: 'a' }))
      expect(!dup.ok && json(dup.error)).toEqual({ code: ['has already been taken'] })
      // As uniqueConstraint(cs, 'code') would declare it: its meta names the index.
      expect(!dup.ok && (dup.error as Changeset).errors[0]!.meta).toEqual({
        constraint: 'unique',
        constraint_name: 'defect_badges_code_index',
      })
      const pair = await t.repo.insert(badge({ code: 'b', maker: 'acme', serial: 1 }))
      expect(!pair.ok && json(pair.error)).toEqual({ maker: ['has already been taken'] })
      // An index named explicitly matches its own name only …
      const label = await t.repo.insert(badge({ code: 'c', label: 'x' }))
      expect(!label.ok && json(label.error)).toEqual({ label: ['has already been taken'] })
      // … so a database constraint under another name stays a DbError, as for uniqueConstraint(cs, f, { name }).
      await expect(t.repo.insert(badge({ code: 'd', nick: 'n' }))).rejects.toMatchObject({
        kind: 'db_error',
        constraint: 'defect_badges_nick_key',
      })
      expect(await t.count('defect_badges')).toBe(1)
    })

    it('names PostgreSQL shortened to 63 bytes still match: a long <table>_<column>_key and a long given name', async () => {
      const stored = await t.adapter.query(
        `select conname from pg_constraint where conrelid = '${LongBadge.table}'::regclass and contype = 'u' order by conname`,
      )
      const names = stored.rows.map((r) => r.conname as string)
      // Longer than PostgreSQL keeps: both were cut, so only a name computed as PostgreSQL cuts it matches.
      expect(`${LongBadge.table}_${REG}_key`.length).toBeGreaterThan(63)
      // The `_key` name: table and column parts trimmed alike until the whole fits.
      expect(names).toEqual([
        'defect_badges_whose_table_nam_registration_number_given_by__key',
        longConstraintName.slice(0, 63),
      ])
      const cs = (params: Record<string, unknown>) => cast(LongBadge, null, params, [REG, 'serial_code'])
      expect((await t.repo.insert(cs({ [REG]: 'r1', serial_code: 's1' }))).ok).toBe(true)
      const dup = await t.repo.insert(cs({ [REG]: 'r1' }))
      expect(!dup.ok && json(dup.error)).toEqual({ [REG]: ['has already been taken'] })
      const declared = await t.repo.insert(uniqueConstraint(cs({ [REG]: 'r1' }), REG, { message: 'is registered' }))
      expect(!declared.ok && json(declared.error)).toEqual({ [REG]: ['is registered'] })
      const named = await t.repo.insert(
        uniqueConstraint(cs({ [REG]: 'r3', serial_code: 's1' }), 'serial_code', { name: longConstraintName }),
      )
      expect(!named.ok && json(named.error)).toEqual({ serial_code: ['has already been taken'] })
      expect(await t.count(LongBadge.table)).toBe(1)
    })

    it('validateSubset on a field that is not a list throws at the call, naming the field and its type', () => {
      const gadget = cast(Gadget, null, { code: 'a', labels: ['spam'] }, ['code', 'labels'])
      // @ts-expect-error -- validateSubset takes list fields only
      expect(() => validateSubset(gadget, 'code', ['a'])).toThrow(
        'validateSubset: defect_gadgets.code has type string, not a list ({ array: T }); validateInclusion checks one value',
      )
      // Whatever the params hold: a field left unchanged is the same mistake.
      const untyped = cast(Ticket as AnySchema, null, {}, [])
      expect(() => validateSubset(untyped, 'state', ['open'])).toThrow('defect_tickets.state has type enum, not a list')
      expect(() => validateSubset(untyped, 'title', ['x'])).toThrow('defect_tickets.title has type string, not a list')
      expect(() => validateSubset(cast(Account as AnySchema, null, {}, []), 'items', [])).toThrow(
        'cs_accounts.items has type embedsMany, not a list',
      )
      expect(() => validateSubset(untyped, 'nope', ['x'])).toThrow(
        'validateSubset: schema defect_tickets has no field "nope"',
      )
      // A list field is checked as before, an array of enum values included.
      expect(json(validateSubset(gadget, 'labels', ['old']))).toEqual({ labels: ['has an invalid entry'] })
      expect(validateSubset(cast(Ticket, null, { kinds: ['bug'] }, ['kinds']), 'kinds', ['bug']).valid).toBe(true)
    })

    it('a stored value outside an enum field throws a LoadError naming table, field, value and allowed values', async () => {
      await t.adapter.query(
        `insert into defect_tickets (title, state, kinds) values ('fine', 'open', '{bug,NULL}'), ('none', null, null)`,
      )
      const fine = await t.repo.all(from(Ticket).orderBy('id'))
      expect(fine.map((r) => [r.title, r.state, r.kinds])).toEqual([
        ['fine', 'open', ['bug', null]],
        ['none', null, null],
      ])
      await t.adapter.query(`insert into defect_tickets (id, title, state) values (10, 'lost', 'archived')`)
      const thrown = await t.repo.all(from(Ticket)).catch((e: unknown) => e)
      expect(thrown).toBeInstanceOf(LoadError)
      expect(thrown).toMatchObject({
        name: 'LoadError',
        kind: 'load_error',
        table: 'defect_tickets',
        field: 'state',
        value: 'archived',
        allowed: ['open', 'closed'],
        status: 500,
      })
      expect((thrown as Error).message).toBe(
        'vela.dbl: cannot load defect_tickets.state: the row holds "archived", which is not one of its enum values "open", "closed"; update the rows or add the value to the enum',
      )
      // Every read that loads the row: get, getBy, one.
      await expect(t.repo.get(Ticket, 10)).rejects.toBeInstanceOf(LoadError)
      await expect(t.repo.getBy(Ticket, { title: 'lost' })).rejects.toThrow('defect_tickets.state')
      await expect(t.repo.one(from(Ticket).where({ id: 10 }))).rejects.toThrow('"archived"')
      // A select that leaves the field out reads the row.
      expect(await t.repo.all(from(Ticket).where({ id: 10 }).select(['title']))).toEqual([{ title: 'lost' }])
      // An array of enum values: its first element outside them.
      await t.adapter.query(`update defect_tickets set state = 'closed', kinds = '{idea,spam}' where id = 10`)
      await expect(t.repo.get(Ticket, 10)).rejects.toMatchObject({
        field: 'kinds',
        value: 'spam',
        allowed: ['bug', 'idea'],
      })
    })

    it('a write never stores a value outside an enum field: "is invalid" for a changeset, a throw for insertAll', async () => {
      const direct = await t.repo.insert(change(Ticket, {}, { title: 'x', state: 'archived' as never }))
      expect(!direct.ok && json(direct.error)).toEqual({ state: ['is invalid'] })
      const list = await t.repo.insert(change(Ticket, {}, { title: 'x', kinds: ['bug', 'spam'] as never }))
      expect(!list.ok && json(list.error)).toEqual({ kinds: ['is invalid'] })
      await expect(t.repo.insertAll(Ticket, [{ title: 'x', state: 'archived' as never }])).rejects.toThrow(
        'insertAll: defect_tickets.state: "archived" is not one of its enum values "open", "closed"',
      )
      await expect(t.repo.updateAll(from(Ticket), { kinds: ['spam'] as never })).rejects.toThrow(
        'updateAll: defect_tickets.kinds: "spam" is not one of its enum values "bug", "idea"',
      )
      expect(await t.count('defect_tickets')).toBe(0)
      const ok = await t.repo.insert(change(Ticket, {}, { title: 'y', state: 'closed', kinds: ['idea'] }))
      expect(ok).toMatchObject({ ok: true, value: { title: 'y', state: 'closed', kinds: ['idea'] } })
    })
  })
}
