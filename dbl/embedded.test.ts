import { describe, expect, it } from 'vitest'
import { cast, errorsToJson, getField } from './changeset.ts'
import { castEmbed, defineEmbeddedSchema, embedsMany, embedsOne } from './embedded.ts'
import { loadRows } from './repo/load-rows.ts'
import { modelFromSchemas } from './migrations/model.ts'
import { from } from './query/builder.ts'
import { compileSelect } from './query/compile.ts'
import { defineSchema } from './schema.ts'
import { validateLength, validateRequired } from './validations.ts'
import { Account, Address, Item } from './test/schemas-changesets.ts'

const stored = {
  id: 1,
  email: 'a@x.io',
  address: { street: 'Main', city: 'Oslo', verified_at: null, geo: null },
  items: [],
}

describe('castEmbed (embedsOne)', () => {
  it('casts the nested params with the default changeset (every field) and puts the stored value in changes', () => {
    const cs = castEmbed(cast(Account, {}, { address: { street: 'Main', city: 'Oslo', extra: 1 } }, []), 'address')
    expect(cs.valid).toBe(true)
    expect(cs.changes).toEqual({ address: { street: 'Main', city: 'Oslo', verified_at: null, geo: null } })
  })

  it('nests the child errors under the field', () => {
    const cs = castEmbed(cast(Account, {}, { address: { street: 'Main' } }, []), 'address', {
      with: (data, params) => validateRequired(cast(Address, data, params, ['street', 'city']), ['city']),
    })
    expect(cs.valid).toBe(false)
    expect(errorsToJson(cs)).toEqual({ address: { city: ["can't be blank"] } })
  })

  it('casts onto the stored record: omitted fields keep their values, an unchanged value is no change', () => {
    expect(castEmbed(cast(Account, stored, { address: { city: 'Bergen' } }, []), 'address').changes).toEqual({
      address: { street: 'Main', city: 'Bergen', verified_at: null, geo: null },
    })
    expect(castEmbed(cast(Account, stored, { address: { city: 'Oslo' } }, []), 'address').changes).toEqual({})
  })

  it('null empties the field; absent params leave it; required says "can\'t be blank"; a non-object is "is invalid"', () => {
    expect(castEmbed(cast(Account, stored, { address: null }, []), 'address').changes).toEqual({ address: null })
    expect(castEmbed(cast(Account, stored, {}, []), 'address').changes).toEqual({})
    expect(errorsToJson(castEmbed(cast(Account, {}, {}, []), 'address', { required: true }))).toEqual({
      address: ["can't be blank"],
    })
    expect(
      errorsToJson(castEmbed(cast(Account, stored, { address: null }, []), 'address', { required: true })),
    ).toEqual({ address: ["can't be blank"] })
    expect(errorsToJson(castEmbed(cast(Account, {}, { address: ['x'] }, []), 'address'))).toEqual({
      address: ['is invalid'],
    })
  })

  it('nested embeds are cast by the default changeset too, their errors two levels deep', () => {
    const cs = castEmbed(
      cast(Account, {}, { address: { city: 'Oslo', geo: { lat: 'x', lng: '10.5' } } }, []),
      'address',
    )
    expect(errorsToJson(cs)).toEqual({ address: { geo: { lat: ['is invalid'] } } })
    const ok = castEmbed(
      cast(Account, {}, { address: { city: 'Oslo', geo: { lat: '1.5', lng: '10.5' } } }, []),
      'address',
    )
    expect(getField(ok, 'address')).toEqual({
      street: null,
      city: 'Oslo',
      verified_at: null,
      geo: { lat: 1.5, lng: 10.5 },
    })
  })
})

describe('castEmbed (embedsMany)', () => {
  const withName = (data: Record<string, unknown>, params: Record<string, unknown>) =>
    validateLength(validateRequired(cast(Item, data, params, ['id', 'name', 'quantity', 'note']), ['name']), 'name', {
      max: 5,
    })

  it('a list of errors, {} for a valid item; virtual fields of the items are not stored', () => {
    const cs = castEmbed(
      cast(Account, {}, { items: [{ name: 'Bolt', note: 'n' }, { quantity: '2' }, { name: 'too long' }] }, []),
      'items',
      { with: withName },
    )
    expect(errorsToJson(cs)).toEqual({
      items: [{}, { name: ["can't be blank"] }, { name: ['should be at most 5 character(s)'] }],
    })
    const good = castEmbed(cast(Account, {}, { items: [{ name: 'Bolt', note: 'n' }] }, []), 'items', { with: withName })
    expect(good.changes).toEqual({ items: [{ id: null, name: 'Bolt', quantity: null }] })
  })

  it('accepts a form-style object keyed by position; replaces the list; matches stored items by key', () => {
    const id = '6f1c0f7e-3b0e-4d7a-9c43-1f7a2b0d4e11'
    const data = {
      ...stored,
      items: [
        { id, name: 'Bolt', quantity: 1 },
        { id: null, name: 'Nut', quantity: 9 },
      ],
    }
    const cs = castEmbed(
      cast(Account, data, { items: { 1: { name: 'Washer' }, 0: { id: id.toUpperCase(), quantity: '4' } } }, []),
      'items',
    )
    expect(cs.changes).toEqual({
      items: [
        { id, name: 'Bolt', quantity: 4 },
        { id: null, name: 'Washer', quantity: null },
      ],
    })
    expect(errorsToJson(castEmbed(cast(Account, {}, { items: 'x' }, []), 'items'))).toEqual({ items: ['is invalid'] })
    expect(errorsToJson(castEmbed(cast(Account, {}, { items: [] }, []), 'items', { required: true }))).toEqual({
      items: ["can't be blank"],
    })
  })
})

describe('embedded schemas', () => {
  it('cast refuses an embedded field (castEmbed casts it); castEmbed refuses a field that is not one', () => {
    expect(() => cast(Account, {}, { address: {} }, ['address'])).toThrow(/castEmbed/)
    // @ts-expect-error -- the types refuse it too
    expect(() => castEmbed(cast(Account, {}, {}, []), 'email')).toThrow(/no embedsOne \/ embedsMany field "email"/)
    expect(() =>
      castEmbed(cast(Account, {}, { address: {} }, []), 'address', { with: (d, p) => cast(Item, d, p, ['name']) }),
    ).toThrow(/changeset of address/)
  })

  it('have no table: they cannot be queried, migrated, or take indexes; embeds take only embedded schemas', () => {
    expect(() => compileSelect(from(Address))).toThrow(/embedded: it has no table/)
    expect(() => modelFromSchemas([Address])).toThrow(/embedded/)
    expect(() =>
      defineSchema({ table: 'x', embedded: true, fields: { a: 'string' }, indexes: [{ columns: ['a'] }] }),
    ).toThrow(/no indexes, checks or associations/)
    expect(defineEmbeddedSchema({ name: 'x', fields: { a: 'string' } })).toMatchObject({
      embedded: true,
      primaryKey: '',
    })
    const Plain = defineSchema({ table: 'plain', fields: { id: 'id' } })
    expect(() => embedsOne(Plain)).toThrow(/defineEmbeddedSchema/)
    expect(() => embedsMany(Plain)).toThrow(/defineEmbeddedSchema/)
  })

  it('migrations make jsonb columns for embeds (a default as a jsonb literal) and none for virtual fields', () => {
    const columns = modelFromSchemas([Account]).get('cs_accounts')!.columns
    expect(columns.map((c) => [c.name, c.type, c.nullable, c.default])).toEqual([
      ['id', 'id', false, undefined],
      ['email', 'string', false, undefined],
      ['password_hash', 'string', true, undefined],
      ['tags', { array: 'string' }, true, undefined],
      ['address', 'jsonb', true, undefined],
      ['items', 'jsonb', false, []],
      ['lock_version', 'integer', false, 1],
      ['inserted_at', 'utc_datetime', true, undefined],
      ['updated_at', 'utc_datetime', true, undefined],
    ])
  })

  it('loadRows types what the database returns: dates back to Date, missing fields null, unknown keys dropped, odd values kept', () => {
    const rows = [
      {
        id: 1,
        address: { city: 'Oslo', verified_at: '2024-05-01T10:00:00.000Z', old: 1 },
        items: [{ name: 'Bolt', quantity: 'lots' }],
      },
    ]
    expect(loadRows(Account, rows)).toEqual([
      {
        id: 1,
        address: { street: null, city: 'Oslo', verified_at: new Date('2024-05-01T10:00:00Z'), geo: null },
        items: [{ id: null, name: 'Bolt', quantity: 'lots' }],
      },
    ])
  })
})
