/**
 * Virtual fields, embedded schemas, optimistic locking, validateConfirmation / validateSubset,
 * repo.exists and repo.reload, against the real database: rows read straight through the adapter,
 * and the SQL each feature sends.
 */
import { describe, expect, expectTypeOf, it } from 'vitest'
import { cast, change, errorsToJson, putChange, getChange, type Changeset } from '../../changeset.ts'
import { castEmbed } from '../../embedded.ts'
import { optimisticLock } from '../../optimistic-lock.ts'
import { from } from '../../query/builder.ts'
import { orderBy, select, where } from '../../query/operators.ts'
import { defineRepo } from '../../repo.ts'
import { compileExists } from '../../repo/exists.ts'
import type { QueryEvent } from '../../repo/telemetry.ts'
import type { RecordOf } from '../../schema.ts'
import { validateConfirmation, validateRequired, validateSubset } from '../../validations.ts'
import type { SuiteContext } from '../suite-context.ts'
import { Account, Address, Item } from '../schemas-changesets.ts'

type AccountRow = RecordOf<typeof Account>

/** The registration form's changeset: the password is virtual, hashed into password_hash. */
function signUp(params: Record<string, unknown>): Changeset<typeof Account> {
  let cs = cast(Account, {}, params, ['email', 'password', 'tags'])
  cs = validateRequired(cs, ['email', 'password'])
  cs = validateConfirmation(cs, 'password')
  cs = validateSubset(cs, 'tags', ['admin', 'editor', 'viewer'])
  const password = getChange(cs, 'password')
  if (cs.valid && typeof password === 'string') cs = putChange(cs, 'password_hash', `hashed:${password}`)
  cs = castEmbed(cs, 'address', {
    with: (data, p) =>
      validateRequired(castEmbed(cast(Address, data, p, ['street', 'city', 'verified_at']), 'geo'), ['city']),
  })
  return castEmbed(cs, 'items', {
    with: (data, p) => validateRequired(cast(Item, data, p, ['id', 'name', 'quantity', 'note']), ['name']),
  })
}

const raw = async (t: SuiteContext) => (await t.adapter.query('select * from cs_accounts order by id')).rows

export function changesetMoreCases(t: SuiteContext): void {
  describe('virtual fields', () => {
    it('are cast and validated, never stored: no column, not in the INSERT, not returned', async () => {
      const events: QueryEvent[] = []
      const repo = defineRepo({ adapter: t.adapter, log: (e) => events.push(e) })
      const bad = await repo.insert(signUp({ email: 'a@x.io', password: 'pw1', password_confirmation: 'pw2' }))
      expect(!bad.ok && errorsToJson(bad.error as Changeset)).toEqual({
        password_confirmation: ['does not match confirmation'],
      })
      expect(events).toEqual([])

      const r = await repo.insert(signUp({ email: 'a@x.io', password: 'pw1', password_confirmation: 'pw1' }))
      if (!r.ok) throw new Error(JSON.stringify(errorsToJson(r.error as Changeset)))
      expect(r.value).not.toHaveProperty('password')
      expect(r.value).toMatchObject({
        id: 1,
        email: 'a@x.io',
        password_hash: 'hashed:pw1',
        lock_version: 1,
        items: [],
        address: null,
      })
      expect(events).toHaveLength(1)
      expect(events[0]!.query).toMatch(
        /^insert into "cs_accounts" \("email", "inserted_at", "items", "lock_version", "password_hash", "updated_at"\) values \(\$1, \$2, \$3, \$4, \$5, \$6\) returning "id", "email", "password_hash", "tags", "address", "items", "lock_version", "inserted_at", "updated_at"$/,
      )
      const columns = (
        await t.adapter.query(
          `select column_name from information_schema.columns where table_name = 'cs_accounts' order by ordinal_position`,
        )
      ).rows.map((c) => c.column_name)
      expect(columns).not.toContain('password')
      expect(await raw(t)).toEqual([expect.objectContaining({ id: 1, email: 'a@x.io', password_hash: 'hashed:pw1' })])
    })

    it('an update changing only a virtual field sends nothing; a query naming one throws before SQL', async () => {
      const ins = await t.repo.insert(signUp({ email: 'b@x.io', password: 'pw', password_confirmation: 'pw' }))
      if (!ins.ok) throw new Error('insert failed')
      const events: QueryEvent[] = []
      const repo = defineRepo({ adapter: t.adapter, log: (e) => events.push(e) })
      const up = await repo.update(cast(Account, ins.value, { password: 'new' }, ['password']))
      expect(up.ok).toBe(true)
      expect(events).toEqual([])
      expect(() => where(from(Account), 'password' as never, '=', 'x' as never)).toThrow(/virtual/)
      expect(() => select(from(Account), ['password'])).toThrow(/virtual/)
      await expect(repo.insertAll(Account, [{ email: 'c@x.io', password: 'x' }])).rejects.toThrow(/virtual/)
      expect(await t.count('cs_accounts')).toBe(1)
    })
  })

  describe('embedded schemas (jsonb)', () => {
    const params = {
      email: 'e@x.io',
      password: 'pw',
      password_confirmation: 'pw',
      address: {
        street: '1 Main St',
        city: 'Oslo',
        verified_at: '2024-05-01T10:00:00Z',
        geo: { lat: '59.9', lng: 10.7 },
      },
      items: [
        { id: '6f1c0f7e-3b0e-4d7a-9c43-1f7a2b0d4e11', name: 'Bolt', quantity: '3', note: 'not stored' },
        { name: 'Nut' },
      ],
    }

    it('are stored as jsonb (virtual fields of the embed left out) and read back typed', async () => {
      const r = await t.repo.insert(signUp(params))
      if (!r.ok) throw new Error(JSON.stringify(errorsToJson(r.error as Changeset)))
      const [row] = await raw(t)
      expect({ address: row!.address, items: row!.items }).toEqual({
        address: {
          street: '1 Main St',
          city: 'Oslo',
          verified_at: '2024-05-01T10:00:00.000Z',
          geo: { lat: 59.9, lng: 10.7 },
        },
        items: [
          { id: '6f1c0f7e-3b0e-4d7a-9c43-1f7a2b0d4e11', name: 'Bolt', quantity: 3 },
          { id: null, name: 'Nut', quantity: null },
        ],
      })
      const expected = {
        address: {
          street: '1 Main St',
          city: 'Oslo',
          verified_at: new Date('2024-05-01T10:00:00Z'),
          geo: { lat: 59.9, lng: 10.7 },
        },
        items: [
          { id: '6f1c0f7e-3b0e-4d7a-9c43-1f7a2b0d4e11', name: 'Bolt', quantity: 3 },
          { id: null, name: 'Nut', quantity: null },
        ],
      }
      expect(r.value).toMatchObject(expected)
      const got = await t.repo.get(Account, r.value.id)
      if (!got) throw new Error('get failed')
      expect(got).toMatchObject(expected)
      expect(got.address!.verified_at).toBeInstanceOf(Date)
      expectTypeOf(got.address).toEqualTypeOf<RecordOf<typeof Address> | null>()
      expectTypeOf(got.items).toEqualTypeOf<RecordOf<typeof Item>[]>()
      const all = await t.repo.all(from(Account).where({ email: 'e@x.io' }))
      expect(all[0]!.address!.verified_at).toEqual(new Date('2024-05-01T10:00:00Z'))
      const bulk = await t.repo.insertAll(Account, [
        { email: 'bulk@x.io', address: { ...expected.address, verified_at: new Date('2024-06-01T00:00:00Z') } },
      ])
      expect(bulk.ok && bulk.value.rows[0]!.address).toEqual({
        ...expected.address,
        verified_at: new Date('2024-06-01T00:00:00Z'),
      })
    })

    it('errors nest under the field: an object for embedsOne, a list with {} for valid items for embedsMany; nothing is written', async () => {
      const r = await t.repo.insert(
        signUp({
          ...params,
          address: { street: 'x', geo: { lat: 'north' } },
          items: [{ name: 'ok' }, { quantity: 'many' }],
        }),
      )
      if (r.ok) throw new Error('an invalid embed was written')
      expect(errorsToJson(r.error as Changeset)).toEqual({
        address: { city: ["can't be blank"], geo: { lat: ['is invalid'] } },
        items: [{}, { name: ["can't be blank"], quantity: ['is invalid'] }],
      })
      const shape = signUp({ ...params, address: 'Oslo', items: { a: 1 } })
      expect(errorsToJson(shape)).toEqual({ address: ['is invalid'], items: ['is invalid'] })
      expect(await t.count('cs_accounts')).toBe(0)
    })

    it('an update casts onto the stored records: embedsOne keeps omitted fields, embedsMany matches items by key', async () => {
      const ins = await t.repo.insert(signUp(params))
      if (!ins.ok) throw new Error('insert failed')
      let cs = castEmbed(
        cast(
          Account,
          ins.value,
          { address: { city: 'Bergen' }, items: [{ id: '6F1C0F7E-3B0E-4D7A-9C43-1F7A2B0D4E11', quantity: 5 }] },
          [],
        ),
        'address',
      )
      cs = castEmbed(cs, 'items')
      const up = await t.repo.update(cs)
      if (!up.ok) throw new Error(JSON.stringify(errorsToJson(up.error as Changeset)))
      const [row] = await raw(t)
      expect(row!.address).toEqual({
        street: '1 Main St',
        city: 'Bergen',
        verified_at: '2024-05-01T10:00:00.000Z',
        geo: { lat: 59.9, lng: 10.7 },
      })
      expect(row!.items).toEqual([{ id: '6f1c0f7e-3b0e-4d7a-9c43-1f7a2b0d4e11', name: 'Bolt', quantity: 5 }])
      const cleared = await t.repo.update(castEmbed(cast(Account, up.value, { address: null }, []), 'address'))
      expect(cleared.ok && cleared.value.address).toBe(null)
      expect((await raw(t))[0]!.address).toBe(null)
    })
  })

  describe('optimisticLock', () => {
    it('a second writer holding the old version gets "is stale" and the first write stands', async () => {
      const ins = await t.repo.insert(signUp({ email: 'l@x.io', password: 'pw', password_confirmation: 'pw' }))
      if (!ins.ok) throw new Error('insert failed')
      const events: QueryEvent[] = []
      const repo = defineRepo({ adapter: t.adapter, log: (e) => events.push(e) })
      const first = await repo.update(
        optimisticLock(cast(Account, ins.value, { email: 'first@x.io' }, ['email']), 'lock_version'),
      )
      expect(first.ok && first.value).toMatchObject({ email: 'first@x.io', lock_version: 2 })
      expect(events[0]!.query).toMatch(
        /^update "cs_accounts" set "email" = \$1, "lock_version" = \$2, "updated_at" = \$3 where "id" = \$4 and "lock_version" = \$5 returning /,
      )
      expect(events[0]!.params).toEqual(['first@x.io', 2, expect.any(Date), 1, 1])

      const second = await repo.update(
        optimisticLock(cast(Account, ins.value, { email: 'second@x.io' }, ['email']), 'lock_version'),
      )
      if (second.ok) throw new Error('a stale update was written')
      expect(errorsToJson(second.error as Changeset)).toEqual({ lock_version: ['is stale'] })
      expect((second.error as Changeset).errors[0]!.meta).toEqual({ stale: true })
      expect((await raw(t)).map((r) => [r.email, r.lock_version])).toEqual([['first@x.io', 2]])

      // A form that sends the version it showed back: the version read from the params is the one checked.
      const fromForm = await repo.update(
        optimisticLock(
          cast(Account, ins.value, { email: 'form@x.io', lock_version: '2' }, ['email', 'lock_version']),
          'lock_version',
        ),
      )
      expect(fromForm.ok && fromForm.value).toMatchObject({ email: 'form@x.io', lock_version: 3 })
    })

    it('delete: a stale version is refused and the row stays; the current one deletes', async () => {
      const ins = await t.repo.insert(signUp({ email: 'd@x.io', password: 'pw', password_confirmation: 'pw' }))
      if (!ins.ok) throw new Error('insert failed')
      await t.repo.update(optimisticLock(change(Account, ins.value), 'lock_version'))
      const events: QueryEvent[] = []
      const repo = defineRepo({ adapter: t.adapter, log: (e) => events.push(e) })
      const staleDelete = await repo.delete(optimisticLock(change(Account, ins.value), 'lock_version'))
      expect(!staleDelete.ok && errorsToJson(staleDelete.error as Changeset)).toEqual({ lock_version: ['is stale'] })
      expect(events[0]!.query).toMatch(
        /^delete from "cs_accounts" where "id" = \$1 and "lock_version" = \$2 returning /,
      )
      expect(events[0]!.params).toEqual([1, 1])
      expect(await t.count('cs_accounts')).toBe(1)
      const fresh = await repo.reload(Account, ins.value)
      if (!fresh) throw new Error('reload failed')
      expect((await repo.delete(optimisticLock(change(Account, fresh), 'lock_version'))).ok).toBe(true)
      expect(await t.count('cs_accounts')).toBe(0)
    })
  })

  describe('validateSubset', () => {
    it('refuses a list with an entry outside the allowed values; stores one inside them', async () => {
      const bad = await t.repo.insert(
        signUp({ email: 's@x.io', password: 'pw', password_confirmation: 'pw', tags: ['admin', 'root'] }),
      )
      expect(!bad.ok && errorsToJson(bad.error as Changeset)).toEqual({ tags: ['has an invalid entry'] })
      const good = await t.repo.insert(
        signUp({ email: 's@x.io', password: 'pw', password_confirmation: 'pw', tags: ['admin', 'viewer'] }),
      )
      expect(good.ok).toBe(true)
      expect((await raw(t)).map((r) => r.tags)).toEqual([['admin', 'viewer']])
    })
  })

  describe('repo.exists and repo.reload', () => {
    it('exists answers true or false with one SELECT EXISTS, values as parameters', async () => {
      await t.repo.insertAll(Account, [{ email: 'x@x.io', tags: ['admin'] }, { email: 'y@x.io' }])
      const q = orderBy(where(from(Account), 'email', 'like', '%@x.io'), 'email')
      expect(await t.repo.exists(q)).toBe(true)
      expect(await t.repo.exists(from(Account).where({ email: 'z@x.io' }))).toBe(false)
      expect(await t.repo.exists(q.limit(1).offset(1))).toBe(true)
      expect(await t.repo.exists(q.offset(2))).toBe(false)
      const compiled = compileExists(where(from(Account), { email: 'z@x.io' }) as never)
      expect(compiled).toEqual({
        sql: 'select exists (select "id", "email", "password_hash", "tags", "address", "items", "lock_version", "inserted_at", "updated_at" from "cs_accounts" where "email" = $1) as "exists"',
        params: ['z@x.io'],
      })
      expect(compileExists(q as never).sql).not.toMatch(/order by/)
    })

    it('reload reads the row as it is now, or not_found once deleted', async () => {
      const ins = await t.repo.insert(signUp({ email: 'r@x.io', password: 'pw', password_confirmation: 'pw' }))
      if (!ins.ok) throw new Error('insert failed')
      await t.repo.updateAll(where(from(Account), { id: ins.value.id }), { email: 'changed@x.io' })
      const fresh = await t.repo.reload(Account, ins.value)
      expectTypeOf(fresh).toEqualTypeOf<AccountRow | undefined>()
      expect(fresh).toEqual({ ...ins.value, email: 'changed@x.io' })
      // A record the repository gave knows its schema; a copy does not.
      const again = await t.repo.reload(ins.value)
      expectTypeOf(again).toEqualTypeOf<typeof ins.value | undefined>()
      expect(again).toEqual({ ...ins.value, email: 'changed@x.io' })
      if (fresh) expect(await t.repo.reload(fresh)).toEqual(fresh)
      await expect(t.repo.reload({ ...ins.value })).rejects.toThrow(/call repo\.reload\(Schema, record\)/)
      await t.repo.deleteAll(from(Account))
      expect(await t.repo.reload(Account, ins.value)).toBeUndefined()
      await expect(t.repo.reload(Account, {})).rejects.toThrow(/has no id/)
    })
  })
}
