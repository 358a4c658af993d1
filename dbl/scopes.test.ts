// How scopes compile: a scoped schema's statements carry its conditions (values as parameters,
// read when the statement is built), a query that leaves them out does not, and a schema without
// scopes compiles to the very statement it did before scopes existed.
import { describe, expect, it } from 'vitest'
import { from } from './query/builder.ts'
import { compileDeleteAll, compileSelectKeyed, compileUpdateAll } from './query/compile.ts'
import { defineSchema } from './schema.ts'
import { requestValue, withoutScopes } from './scopes.ts'

const account = requestValue<number>('account')
const Doc = defineSchema({
  table: 'docs',
  fields: { id: 'id', title: 'string', account_id: 'integer', deleted_at: 'utc_datetime' },
  softDelete: true,
  scopes: { account: () => ({ account_id: account.get() }) },
})
const Plain = defineSchema({ table: 'plain', fields: { id: 'id', title: 'string' } })

describe('scopes in compiled statements', () => {
  it('a scoped select adds its conditions, with the request value as a parameter', () => {
    const s = account.run(7, () => compileSelectKeyed(from(Doc).where({ title: 'x' })))
    expect(s.sql).toBe(
      'select "id", "title", "account_id", "deleted_at" from "docs" where "title" = $1 and "deleted_at" is null and "account_id" = $2',
    )
    expect(s.params).toEqual(['x', 7])
    const other = account.run(8, () => compileSelectKeyed(from(Doc).where({ title: 'x' })))
    expect([other.sql, other.params]).toEqual([s.sql, ['x', 8]])
  })

  it('unscoped, withDeleted and withoutScopes leave the conditions out', () => {
    expect(compileSelectKeyed(from(Doc).unscoped()).sql).toBe(
      'select "id", "title", "account_id", "deleted_at" from "docs"',
    )
    expect(account.run(1, () => compileSelectKeyed(from(Doc).withDeleted()).sql)).toMatch(/where "account_id" = \$1$/)
    expect(withoutScopes(() => compileSelectKeyed(from(Doc)).sql)).not.toContain('where')
    expect(account.run(1, () => withoutScopes(() => compileSelectKeyed(from(Doc)).sql, ['account']))).toMatch(
      /where "deleted_at" is null$/,
    )
  })

  it('bulk updates and deletes are scoped too', () => {
    const u = account.run(3, () => compileUpdateAll(from(Doc), { title: 'y' }))
    expect([u.sql, u.params]).toEqual([
      'update "docs" set "title" = $1 where "deleted_at" is null and "account_id" = $2',
      ['y', 3],
    ])
    expect(account.run(3, () => compileDeleteAll(from(Doc).unscoped('softDelete')).sql)).toBe(
      'delete from "docs" where "account_id" = $1',
    )
  })

  it('a schema without scopes compiles as before: no condition added, none read', () => {
    expect(Plain.scopes).toBeUndefined()
    const s = compileSelectKeyed(from(Plain).where({ title: 'x' }))
    expect([s.sql, s.params]).toEqual(['select "id", "title" from "plain" where "title" = $1', ['x']])
    expect(compileSelectKeyed(from(Plain)).sql).toBe('select "id", "title" from "plain"')
  })
})
