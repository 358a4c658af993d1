import { describe, expect, it } from 'vitest'
import { cast, change } from './changeset.ts'
import { optimisticLock } from './optimistic-lock.ts'
import { Account } from './test/schemas-changesets.ts'

const record = { id: 7, email: 'a@x.io', lock_version: 3 }

describe('optimisticLock', () => {
  it('filters on the current version and changes it to the next one', () => {
    const cs = optimisticLock(change(Account, record), 'lock_version')
    expect(cs.filters).toEqual({ lock_version: 3 })
    expect(cs.changes).toEqual({ lock_version: 4 })
  })

  it('uses the version a form sent back (cast) over the stored one', () => {
    const cs = optimisticLock(cast(Account, record, { lock_version: '2' }, ['lock_version']), 'lock_version')
    expect(cs.filters).toEqual({ lock_version: 2 })
    expect(cs.changes).toEqual({ lock_version: 3 })
  })

  it('a null version is matched as null and becomes 1; INTEGER overflow rolls over to 1; a custom incrementer', () => {
    expect(optimisticLock(change(Account, { ...record, lock_version: null as never }), 'lock_version')).toMatchObject({
      filters: { lock_version: null },
      changes: { lock_version: 1 },
    })
    expect(optimisticLock(change(Account, { ...record, lock_version: 2147483647 }), 'lock_version').changes).toEqual({
      lock_version: 1,
    })
    expect(optimisticLock(change(Account, record), 'lock_version', (v) => (v ?? 0) + 10).changes).toEqual({
      lock_version: 13,
    })
  })

  it('needs a stored integer field', () => {
    // @ts-expect-error -- the types refuse a string field too
    expect(() => optimisticLock(change(Account, record), 'email')).toThrow(/stored integer field/)
    // @ts-expect-error -- password is a (virtual) string field
    expect(() => optimisticLock(change(Account, record), 'password')).toThrow(/stored integer field/)
  })
})
