import { describe, expect, it } from 'vitest'
import { applyChanges, cast, errorsToJson } from './changeset.ts'
import { from } from './query/builder.ts'
import { orderBy, where } from './query/operators.ts'
import { compileSelect } from './query/compile.ts'
import { defineSchema } from './schema.ts'
import { validateLength, validateRequired } from './validations.ts'
import { Account } from './test/schemas-changesets.ts'

describe('virtual fields', () => {
  it('are cast and validated like any field, and count in applyChanges', () => {
    let cs = cast(Account, {}, { email: 'a@x.io', password: 'abc' }, ['email', 'password'])
    expect(cs.changes).toEqual({ email: 'a@x.io', password: 'abc' })
    cs = validateLength(cs, 'password', { min: 8 })
    expect(errorsToJson(cs)).toEqual({ password: ['should be at least 8 character(s)'] })
    expect(errorsToJson(validateRequired(cast(Account, {}, {}, ['password']), ['password']))).toEqual({
      password: ["can't be blank"],
    })
    // A new record starts from the schema's defaults (items, lock_version); the virtual field is applied like any other.
    expect(applyChanges(cast(Account, {}, { password: 'x' }, ['password']))).toEqual({
      items: [],
      lock_version: 1,
      password: 'x',
    })
  })

  it('have no VARCHAR limit (nothing stores them)', () => {
    expect(cast(Account, {}, { password: 'x'.repeat(300) }, ['password']).valid).toBe(true)
  })

  it('are not selected, and a query naming one throws', () => {
    expect(compileSelect(from(Account)).sql).toBe(
      'select "id", "email", "password_hash", "tags", "address", "items", "lock_version", "inserted_at", "updated_at" from "cs_accounts"',
    )
    expect(() => where(from(Account), { password: 'x' } as never)).toThrow(/"password" is virtual/)
    expect(() => orderBy(from(Account), 'password')).toThrow(/virtual/)
  })

  it('cannot be the primary key or in an index', () => {
    expect(() => defineSchema({ table: 't', fields: { id: { type: 'id', virtual: true } } })).toThrow(
      /cannot be virtual/,
    )
    expect(() =>
      defineSchema({
        table: 't',
        fields: { id: 'id', v: { type: 'string', virtual: true } },
        indexes: [{ columns: ['v'] }],
      }),
    ).toThrow(/unknown field "v"/)
  })
})
